"""Is there a display Qt can open? Checked before PySide6 is imported, because Qt's xcb plugin
aborts the process (no exception) when it cannot connect."""

from __future__ import annotations

import sys
from collections.abc import Mapping

from app.ui import strings

# Platforms that need no display server at all.
_HEADLESS_PLATFORMS = ("offscreen", "minimal", "minimalegl", "vnc", "eglfs", "linuxfb", "vkkhr")


def missing_display_message(env: Mapping[str, str], platform: str = sys.platform) -> str | None:
    """One line saying there is no display and what to do, or None when Qt can start."""
    if not platform.startswith("linux") and "bsd" not in platform:
        return None  # Windows and macOS always have their native platform
    qpa = env.get("QT_QPA_PLATFORM", "").split(":")[0].strip().lower()
    if qpa.startswith(_HEADLESS_PLATFORMS):
        return None
    if qpa.startswith("wayland"):
        return None if env.get("WAYLAND_DISPLAY") else strings.NO_DISPLAY
    if qpa in ("", "xcb"):
        if env.get("DISPLAY") or (qpa == "" and env.get("WAYLAND_DISPLAY")):
            return None
        return strings.NO_DISPLAY
    return None  # another platform plugin chosen on purpose: let Qt judge
