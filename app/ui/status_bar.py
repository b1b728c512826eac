"""The status bar: profile, network, service or sandbox URL, lock state; notices in between.

A notice is never cut: while one is too long for the room the permanent labels leave, the
profile, network and service labels step aside (they are in Settings and the title), and come
back when it goes."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QStatusBar, QToolButton, QWidget

from app.ui import strings
from app.ui.context import AppContext
from app.ui.icons import icon
from app.ui.widgets import message_label, plain_tooltip, set_message

NOTICE_MS = 10_000


class AppStatusBar(QStatusBar):
    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self.error_label = message_label("error")
        self.error_label.setWordWrap(False)
        # Its text never sets the window's width (a long error made the window wider than the
        # screen): it gets the room left, shown whole when the labels can step aside.
        self.error_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.error_label.hide()
        self._error_text = ""
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
        self.messageChanged.connect(self._make_room)
        self.refresh()

    def show_notice(self, level: str, text: str) -> None:
        if level == "error":
            self._error_text = text
            set_message(self.error_label, text, "error")
            self.error_label.setToolTip(plain_tooltip(text))
            self.clearMessage()
            self._make_room()
        else:
            self._error_text = ""
            set_message(self.error_label, "")
            self.showMessage(text, NOTICE_MS)

    def _yielding_labels(self) -> tuple[QLabel, ...]:
        """What steps aside for a long notice, the least needed first."""
        return (self.network_label, self.profile_label, self.service_label)

    def _make_room(self, *_: object) -> None:
        """Show every permanent label the notice leaves room for, hiding the rest."""
        error = "" if self.error_label.isHidden() else self._error_text
        text = self.currentMessage() or error
        labels = self._yielding_labels()
        for label in labels:
            label.setVisible(bool(label.text()))
        if not text:
            return
        needed = self.fontMetrics().horizontalAdvance(text) + 24
        spacing = 12
        fixed = sum(
            w.sizeHint().width() + spacing
            for w in (self.badge, self.lock_button)
            if not w.isHidden()
        )
        room = (
            self.width()
            - fixed
            - sum(label.sizeHint().width() + spacing for label in labels if not label.isHidden())
        )
        for label in labels:
            if room >= needed:
                break
            if not label.isHidden():
                label.hide()
                room += label.sizeHint().width() + spacing
        if error and not self.currentMessage():  # longer than the whole bar: cut at its end
            shown = self.fontMetrics().elidedText(error, Qt.TextElideMode.ElideRight, room - 24)
            self.error_label.setText(shown)

    def room_for_notices(self) -> int:
        """The width a notice has beside the permanent labels shown now (tests)."""
        shown = [
            w for w in (*self._yielding_labels(), self.badge, self.lock_button) if not w.isHidden()
        ]
        return self.width() - sum(w.sizeHint().width() + 12 for w in shown)

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
        self._make_room()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._make_room()

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
        if context.choosing_profile:
            return ""  # "No profile" says it all: nothing connects before one is chosen
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
