"""A scenario's screenshots: a widget drawn as it is on screen (offscreen or under Xvfb),
saved as a PNG."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget

from app.ui.qa.actions import settle_layouts


def save_screenshot(path: Path, widget: object = None) -> Path:
    """`widget` (default: the active window, else the newest top-level window shown) saved
    at `path`, once its pending layouts and paints are done. A popup (a completer's list, a
    menu) is never the default: it is a window of its own, pass it as `widget` to see it."""
    target = widget if isinstance(widget, QWidget) else _shown_window()
    settle_layouts()
    path.parent.mkdir(parents=True, exist_ok=True)
    if not target.grab().save(str(path), "PNG"):
        raise OSError(f"could not write the screenshot {path}")
    return path


def _shown_window() -> QWidget:
    # Under X a popup stays the active window a moment after it closed: its grab was blank.
    active = QApplication.activeWindow()
    if active is not None and active.isVisible() and not _is_popup(active):
        return active
    shown = [w for w in QApplication.topLevelWidgets() if w.isVisible() and not _is_popup(w)]
    if not shown:
        raise LookupError("no window is shown to take a screenshot of")
    return shown[-1]


def _is_popup(window: QWidget) -> bool:
    return window.windowType() in (Qt.WindowType.Popup, Qt.WindowType.ToolTip)
