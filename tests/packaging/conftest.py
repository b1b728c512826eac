"""Packaging fixtures: the version a freshly built wheel declares."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.packaging.manifest_file import ROOT


@pytest.fixture(scope="session")
def built_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`pip wheel` of this source tree, offline: the build backend (hatchling, a test extra)
    is taken from the venv instead of the package index, so the test needs no network."""
    out = tmp_path_factory.mktemp("wheel")
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"]
    result = subprocess.run(
        [*command, "--no-index", "-q", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    wheels = list(out.glob("bidwallet-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]
