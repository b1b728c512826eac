"""The QA plugin as pytest loads it: registered as the `bidwallet` pytest11 entry point, and
free to load (a test run that never asks for its fixtures imports neither Qt nor the app)."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]

_LOAD_PROBE = """
import json, sys
import app.ui.qa.plugin
print(json.dumps(sorted(sys.modules)))
"""


def test_the_package_registers_the_plugin() -> None:
    found = [e for e in entry_points(group="pytest11") if e.name == "bidwallet"]
    assert [e.value for e in found] == ["app.ui.qa.plugin"]


def test_loading_the_plugin_loads_neither_qt_nor_the_app() -> None:
    result = subprocess.run(
        [sys.executable, "-c", _LOAD_PROBE],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    loaded = set(json.loads(result.stdout))
    heavy = sorted(
        m
        for m in loaded
        if m.split(".")[0] in {"PySide6", "shiboken6", "qasync", "httpx", "embit"}
        or (m.startswith("app.") and not m.startswith("app.ui.qa") and m not in {"app.ui"})
    )
    assert heavy == []
