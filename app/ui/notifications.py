"""Desktop notifications: a system tray icon whose balloons tell what the market did (a fill,
a sale, an expiry, a cancellation by the service) while the window may be hidden.

Where the platform has no tray (`QSystemTrayIcon.isSystemTrayAvailable()` False: some Linux
desktops, the offscreen platform of the tests) the same words go to the status bar instead.
The "Desktop notifications" setting (`AppSettings.notifications`) silences both; the events
are in the Activity tab either way. `shown` keeps the last `MAX_KEPT_SHOWN` notifications
(tests read it): a service can make any number.
"""

from __future__ import annotations

import html
import sys
from collections import deque
from typing import TYPE_CHECKING, Final

from PySide6.QtWidgets import QMenu, QSystemTrayIcon, QWidget

from app.ui import strings
from app.ui.icons import app_icon

if TYPE_CHECKING:
    from app.ui.context import AppContext

BALLOON_MS = 10_000
MAX_KEPT_SHOWN: Final = 100


def tray_text(text: str, platform: str = sys.platform) -> str:
    """`text` for the tray's balloon: escaped where the desktop's notification server reads
    the body as markup (freedesktop's body-markup, which Qt passes through as given), so the
    words a service names (a slug like <img src=...>) show as written; elsewhere as is."""
    return text if platform in ("win32", "darwin") else html.escape(text, quote=False)


class Notifier:
    def __init__(self, context: AppContext, window: QWidget) -> None:
        self.context = context
        self.window = window
        self.shown: deque[tuple[str, str]] = deque(maxlen=MAX_KEPT_SHOWN)
        self.tray: QSystemTrayIcon | None = None
        # The offline signer reads no market: nothing to tell, no icon.
        if QSystemTrayIcon.isSystemTrayAvailable() and not context.options.offline:
            self.tray = QSystemTrayIcon(app_icon(), window)
            self.tray.setToolTip(strings.TRAY_TOOLTIP)
            menu = QMenu(window)
            menu.addAction(strings.TRAY_SHOW).triggered.connect(self.show_window)
            self.tray.setContextMenu(menu)
            self.tray.activated.connect(self._activated)
            self.tray.messageClicked.connect(self.show_window)
            self.tray.show()

    @property
    def enabled(self) -> bool:
        return self.context.settings.notifications

    def notify(self, title: str, text: str) -> bool:
        """Tell `title` / `text` (the tray's balloon, else the status bar); False when the
        setting silences it."""
        if not self.enabled:
            return False
        self.shown.append((title, text))
        if self.tray is not None and QSystemTrayIcon.supportsMessages():
            self.tray.showMessage(
                title, tray_text(text), QSystemTrayIcon.MessageIcon.Information, BALLOON_MS
            )
        else:
            self.context.info(strings.LIVE_ACTIVITY.format(title=title, detail=text))
        return True

    def _activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason == QSystemTrayIcon.ActivationReason.Trigger:
            self.show_window()

    def show_window(self) -> None:
        window = self.window
        window.showNormal() if window.isMinimized() else window.show()
        window.raise_()
        window.activateWindow()

    def close(self) -> None:
        if self.tray is not None:
            self.tray.hide()
            self.tray.deleteLater()
            self.tray = None
