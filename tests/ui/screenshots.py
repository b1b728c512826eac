"""What the screenshot tests share: running a drawing script under Xvfb, checking that its
PNGs are really drawn, and the drawing script's own entry point."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from PySide6.QtGui import QPixmap

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "artifacts" / "screenshots"
# The smallest screen the window is made for (issue 15): the screenshots are taken on it, the
# window filling it and each dialog at the first size it picks there.
SCREEN = (1024, 700)


def shoot_under_xvfb(module: str, display: str, data_dir: Path, timeout_s: float) -> list[Path]:
    """Run `python -m module OUT` on the xcb platform of `display`; the PNGs it saved."""
    env = {k: v for k, v in os.environ.items() if k != "WAYLAND_DISPLAY"}
    env |= {"DISPLAY": display, "QT_QPA_PLATFORM": "xcb", "BIDWALLET_DATA_DIR": str(data_dir)}
    result = subprocess.run(
        [sys.executable, "-m", module, str(OUT)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout_s,
    )
    if "could not load the Qt platform plugin" in result.stderr:
        pytest.skip(f"Qt's xcb plugin cannot load here: {result.stderr.strip()[-300:]}")
    assert result.returncode == 0, result.stderr[-3000:]
    return [Path(line) for line in result.stdout.splitlines() if line.endswith(".png")]


def assert_drawn(path: Path, min_width: int, min_height: int) -> None:
    """At least that size, and not a blank capture: a drawn window has many distinct colours."""
    from PySide6.QtGui import QImage

    image = QImage(str(path))
    assert image.width() >= min_width and image.height() >= min_height, path
    colours = {
        image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)
    }
    assert len(colours) > 8, f"{path} looks blank"


def fail_keyring() -> object:
    """The keyring backend of a machine with none: the app falls back to its vault file."""
    from keyring.backends.fail import Keyring

    return Keyring()


def save_png(pixmap: QPixmap, path: Path) -> None:
    """Save a grab as `path` and print the path: `shoot_under_xvfb` reads the PNGs printed."""
    if not pixmap.save(str(path)):
        raise SystemExit(f"could not save {path}")
    print(path, flush=True)


def run_shots(shoot: Callable[[Path, Path], Awaitable[None]], out: Path) -> int:
    """The drawing script's main: `shoot(out, scratch_dir)` on a qasync loop."""
    import qasync

    from app.ui.launch import create_application

    out.mkdir(parents=True, exist_ok=True)
    app = create_application()
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    with tempfile.TemporaryDirectory() as tmp, loop:
        loop.run_until_complete(shoot(out, Path(tmp)))
    return 0
