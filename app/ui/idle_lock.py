"""Lock after idle: any key press, click or wheel turn anywhere in the app counts as activity;
a timer asks the session to lock once the idle time reaches the profile's timeout. The clock is
the session's (injectable), so tests move time instead of waiting for it."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer, Signal

from app.services.session import WalletLock

_INPUT_EVENTS = frozenset(
    {
        QEvent.Type.KeyPress,
        QEvent.Type.MouseButtonPress,
        QEvent.Type.Wheel,
        QEvent.Type.TouchBegin,
        QEvent.Type.ShortcutOverride,
    }
)


class IdleLockWatcher(QObject):
    locked_by_idle = Signal()

    def __init__(self, session: WalletLock, tick_ms: int, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._session = session
        self._app = QCoreApplication.instance()
        if self._app is not None:
            self._app.installEventFilter(self)
        self.timer = QTimer(self)
        self.timer.setInterval(tick_ms)
        self.timer.timeout.connect(self.check)
        self.timer.start()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in _INPUT_EVENTS:
            self._session.touch()
        return False

    def check(self) -> None:
        if self._session.lock_if_idle():
            self.locked_by_idle.emit()

    def stop(self) -> None:
        self.timer.stop()
        if self._app is not None:
            self._app.removeEventFilter(self)
