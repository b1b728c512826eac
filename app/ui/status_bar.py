"""The status bar: profile, network, service or sandbox URL, lock state; notices in between."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QStatusBar, QToolButton, QWidget

from app.ui import strings
from app.ui.context import AppContext
from app.ui.icons import icon
from app.ui.widgets import message_label, set_message

NOTICE_MS = 10_000


class AppStatusBar(QStatusBar):
    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self.error_label = message_label("error")
        self.error_label.setWordWrap(False)
        self.error_label.hide()
        self.profile_label = QLabel()
        self.badge = message_label("badge")
        self.badge.setText(strings.SANDBOX_ONLY_BADGE)
        self.network_label = QLabel()
        self.service_label = QLabel()
        self.service_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.lock_button = QToolButton()
        self.lock_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.lock_button.setAutoRaise(True)
        self.lock_button.setToolTip(strings.TOOLTIP_LOCK_STATE)
        self.addWidget(self.error_label, 1)
        for widget in (
            self.profile_label,
            self.badge,
            self.network_label,
            self.service_label,
            self.lock_button,
        ):
            self.addPermanentWidget(widget)
        context.profile_changed.connect(self.refresh)
        context.connection_changed.connect(self.refresh)
        context.lock_changed.connect(self.refresh)
        context.theme_changed.connect(self.refresh)
        context.notice.connect(self.show_notice)
        context.passing_notice.connect(self.show_passing_notice)
        self.refresh()

    def show_notice(self, level: str, text: str) -> None:
        if level == "error":
            set_message(self.error_label, text, "error")
            self.error_label.setToolTip(text)
            self.clearMessage()
        else:
            set_message(self.error_label, "")
            self.showMessage(text, NOTICE_MS)

    def show_passing_notice(self, text: str, milliseconds: int) -> None:
        """An info line that is true only for `milliseconds` (a wait it describes); an error
        shown before comes back after it."""
        self.showMessage(text, milliseconds)

    def refresh(self) -> None:
        context = self._context
        profile = context.profile
        if profile is None:
            self.profile_label.setText(strings.STATUS_NO_PROFILE)
            self.network_label.setText("")
        else:
            self.profile_label.setText(strings.STATUS_PROFILE.format(name=profile.name))
            self.network_label.setText(strings.STATUS_NETWORK.format(network=profile.network))
        self.badge.setVisible(profile is not None and profile.sandbox_only)
        self.service_label.setText(self._service_text())
        self._refresh_lock()

    def _service_text(self) -> str:
        context = self._context
        if context.options.offline:
            return strings.STATUS_OFFLINE
        if context.sandbox_starting:
            return strings.STATUS_SANDBOX_STARTING
        if context.sandbox is not None:
            return strings.STATUS_SANDBOX.format(url=context.sandbox.url)
        if context.connection is not None:
            return strings.STATUS_SERVICE.format(url=context.connection.marketplace_url)
        return strings.STATUS_CONNECTING if context.connecting else strings.STATUS_NOT_CONNECTED

    def _refresh_lock(self) -> None:
        context = self._context
        profile = context.profile
        if profile is None or profile.key_name is None:
            text, name = strings.STATUS_NO_KEY, "key"
        elif context.watch_only:
            text, name = strings.STATUS_WATCH_ONLY, "key"
        elif context.wallet_lock.unlocked:
            text, name = strings.STATUS_UNLOCKED, "unlock"
        else:
            text, name = strings.STATUS_LOCKED, "lock"
        self.lock_button.setText(text)
        self.lock_button.setIcon(icon(name))
        self.lock_button.setEnabled(profile is not None and profile.key_name is not None)
