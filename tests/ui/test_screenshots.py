"""Screenshots of each tab and the main dialogs on a real X server (Xvfb, xcb platform),
saved to artifacts/screenshots/ for people to look at. Skipped without Xvfb."""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "artifacts" / "screenshots"


@pytest.fixture
def xvfb_display() -> Iterator[str]:
    """A fresh Xvfb on a free display number (it picks one and writes it to -displayfd)."""
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (apt-get install xvfb)")
    read_fd, write_fd = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        pass_fds=(write_fd,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_fd)
    try:
        ready, _, _ = select.select([read_fd], [], [], 30)
        assert ready, "Xvfb did not report its display"
        number = os.read(read_fd, 32).decode().strip()
        yield f":{number}"
    finally:
        os.close(read_fd)
        server.terminate()
        server.wait(timeout=30)


def test_screenshots_of_each_tab_and_dialog(xvfb_display: str, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "WAYLAND_DISPLAY"}
    env |= {"DISPLAY": xvfb_display, "QT_QPA_PLATFORM": "xcb", "BIDWALLET_DATA_DIR": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-m", "tests.ui.screenshot_app", str(OUT)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    if "could not load the Qt platform plugin" in result.stderr:
        pytest.skip(f"Qt's xcb plugin cannot load here: {result.stderr.strip()[-300:]}")
    assert result.returncode == 0, result.stderr[-3000:]
    saved = [Path(line) for line in result.stdout.splitlines() if line.endswith(".png")]
    names = {path.name for path in saved}
    for theme in ("light", "dark"):
        for tab in ("activity", "settings"):
            assert f"{theme}-tab-{tab}.png" in names
        assert f"{theme}-dialog-key-import.png" in names
    for path in saved:
        image = QImage(str(path))
        assert image.width() >= 300 and image.height() >= 100, path
        # Not a blank capture: a drawn window has many distinct colours.
        colours = {
            image.pixel(x, y)
            for x in range(0, image.width(), 7)
            for y in range(0, image.height(), 7)
        }
        assert len(colours) > 8, f"{path} looks blank"
