"""The window is built and shown before any heavy library is loaded (they load in the executor
afterwards, `controller.PRELOAD_MODULES`): what the launch runs before the window shows (the data
directory, the settings, the theme, the window and its first tab) imports none of them. Run in a
child interpreter, so nothing this test process loaded counts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.ui.test_import_discipline import HEAVY_LIBRARIES, REPO

_START = """
import json, sys
from PySide6.QtWidgets import QApplication
from app.services.profiles import default_data_dir
from app.ui.context import AppContext, AppOptions
from app.ui.launch import build_window, create_application
from app.ui.theme import apply_theme

app = create_application()
context = AppContext(AppOptions(data_dir=default_data_dir(), offline=False, sandbox=False))
apply_theme(app, context.store.load().theme)
window = build_window(context)
window.show()
QApplication.processEvents()
print(json.dumps(sorted(sys.modules)))
"""


def test_the_window_shows_without_the_heavy_libraries(tmp_path: Path) -> None:
    env = dict(os.environ)
    env |= {
        "QT_QPA_PLATFORM": "offscreen",
        "BIDWALLET_DATA_DIR": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    result = subprocess.run(
        [sys.executable, "-c", _START],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    loaded = set(json.loads(result.stdout.splitlines()[-1]))
    assert "app.ui.main_window" in loaded  # the probe did build the window
    assert [name for name in HEAVY_LIBRARIES if name in loaded] == []
    assert "app.wallet" not in loaded  # its import checks embit's secp256k1: in the preload
