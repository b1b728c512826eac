"""The first-run dialog opens tall enough for its wrapped texts: no text field squeezed below
its own height (placeholders cut), in either theme. On a real X server (Xvfb, xcb platform),
where a window takes its layout's minimum height (the offscreen platform sizes it otherwise);
skipped without Xvfb. The same module is the subprocess that opens the dialog:

    DISPLAY=:N QT_QPA_PLATFORM=xcb .venv/bin/python -m tests.ui.test_first_run_fits light
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.ui.screenshots import REPO


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_no_field_of_the_first_run_dialog_is_squeezed(xvfb_display: str, theme: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "WAYLAND_DISPLAY"}
    env |= {"DISPLAY": xvfb_display, "QT_QPA_PLATFORM": "xcb"}
    result = subprocess.run(
        [sys.executable, "-m", "tests.ui.test_first_run_fits", theme],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    if "could not load the Qt platform plugin" in result.stderr:
        pytest.skip(f"Qt's xcb plugin cannot load here: {result.stderr.strip()[-300:]}")
    assert result.returncode == 0, result.stderr[-3000:]
    fields, squeezed = json.loads(result.stdout.splitlines()[-1])
    assert fields >= 7 and squeezed == []


def _measure(theme: str) -> tuple[int, list[tuple[str, int, int]]]:
    """The dialog's fields, and those shown lower than their least height."""
    from PySide6.QtWidgets import QComboBox, QLineEdit

    from app.services.profiles import Theme
    from app.ui.dialogs.first_run import FirstRunDialog
    from app.ui.launch import create_application
    from app.ui.theme import apply_theme

    app = create_application()
    apply_theme(app, Theme(theme))
    dialog = FirstRunDialog(set())
    dialog.show()
    for _ in range(20):
        app.processEvents()
    fields = dialog.findChildren(QLineEdit) + dialog.findChildren(QComboBox)
    squeezed = [
        (type(f).__name__, f.height(), f.minimumSizeHint().height())
        for f in fields
        if f.height() < f.minimumSizeHint().height()
    ]
    return len(fields), squeezed


if __name__ == "__main__":
    print(json.dumps(_measure(sys.argv[1])))
