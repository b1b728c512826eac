"""Sign in another wallet: the exact text to sign and the address that must sign it (copy, or
save to a file), a field for each signature (paste, or open a file), and the button that has
the signature verified and sent. A refusal (a signature that does not verify) is said here
and the dialog stays open to try again. With a deadline (a bid's message: the marketplace's
2-minute window; a cancel's challenge: its expiry) the time left is counted down; once it has
passed, nothing can be sent and the dialog offers a new message instead (`renew_asked`)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer
from PySide6.QtGui import QFont, QFontMetrics, QGuiApplication, QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.ui import strings
from app.ui.async_tools import async_slot, exec_dialog, run_blocking
from app.ui.file_dialogs import chosen_path
from app.ui.profile_session import failure_text
from app.ui.widgets import make_default, message_label, set_message

if TYPE_CHECKING:
    from app.ui.context import AppContext

Send = Callable[[dict[str, str]], Awaitable[None]]  # address -> signature; raises to refuse
MESSAGE_LINES = 5  # the text to sign keeps this height whatever is said below it


def wall_clock(service_ms: int, service_now_ms: int) -> str:
    """A time on the service's clock as this computer's local time of day."""
    local = time.time() + (service_ms - service_now_ms) / 1000
    return datetime.fromtimestamp(local).strftime("%H:%M:%S")


def time_left_text(seconds: int) -> str:
    """ "58 s", or "9 min 58 s" from a minute on."""
    if seconds < 60:
        return strings.ELSEWHERE_SECONDS.format(seconds=seconds)
    return strings.ELSEWHERE_MINUTES.format(minutes=seconds // 60, seconds=seconds % 60)


@dataclass(frozen=True)
class Deadline:
    """When what is signed stops being accepted, on the service's clock (`now_ms`), and what
    to say and offer once it has."""

    at_ms: int
    now_ms: Callable[[], int]
    passed: str  # what is said once it has passed
    renew_label: str  # the button that makes a new message to sign


@dataclass(frozen=True)
class MessageToSign:
    address: str
    message: str
    file_name: str  # suggested when the message is saved


class _MessageBox(QGroupBox):
    """One address, its text to sign, and the field for its signature."""

    def __init__(self, item: MessageToSign, dialog: SignMessageDialog) -> None:
        super().__init__()
        self.item = item
        self._dialog = dialog
        self.address = QLineEdit(item.address)
        self.address.setReadOnly(True)
        self.address.setCursorPosition(0)  # its start shown, not its end
        self.message = QPlainTextEdit(item.message)
        self.message.setReadOnly(True)
        mono = QFont("monospace")
        mono.setStyleHint(QFont.StyleHint.TypeWriter)
        self.message.setFont(mono)
        margins = 2 * (self.message.frameWidth() + int(self.message.document().documentMargin()))
        lines = QFontMetrics(mono).lineSpacing() * MESSAGE_LINES
        self.message.setFixedHeight(lines + margins)
        self.signature = QPlainTextEdit()
        self.signature.setTabChangesFocus(True)
        self.signature.setFixedHeight(64)
        copy_address = QPushButton(strings.ELSEWHERE_COPY_ADDRESS)
        copy_message = QPushButton(strings.ELSEWHERE_COPY_MESSAGE)
        self.save_button = QPushButton(strings.ELSEWHERE_SAVE_MESSAGE)
        self.open_button = QPushButton(strings.ELSEWHERE_OPEN_SIGNATURE)
        for button in (copy_address, copy_message, self.save_button, self.open_button):
            button.setAutoDefault(False)
        copy_address.clicked.connect(
            lambda: dialog.copy(item.address, strings.ELSEWHERE_ADDRESS_WHAT)
        )
        copy_message.clicked.connect(
            lambda: dialog.copy(item.message, strings.ELSEWHERE_MESSAGE_WHAT)
        )
        self.save_button.clicked.connect(self.save_message)
        self.open_button.clicked.connect(self.open_signature)
        address_row = QHBoxLayout()
        address_row.addWidget(self.address, 1)
        address_row.addWidget(copy_address)
        message_row = QHBoxLayout()
        message_row.addWidget(copy_message)
        message_row.addWidget(self.save_button)
        message_row.addStretch(1)
        signature_row = QHBoxLayout()
        signature_row.addWidget(self.signature, 1)
        signature_row.addWidget(self.open_button)
        signature_label = QLabel(strings.ELSEWHERE_SIGNATURE)
        signature_label.setBuddy(self.signature)
        form = QFormLayout(self)
        form.addRow(strings.ELSEWHERE_ADDRESS, address_row)
        form.addRow(strings.ELSEWHERE_MESSAGE, self.message)
        form.addRow("", message_row)
        form.addRow(signature_label, signature_row)
        self.signature.textChanged.connect(dialog.update_send)

    @async_slot()
    async def save_message(self) -> None:
        from app.services.signed_elsewhere import SignatureFileError, save_text

        path = await SignMessageDialog.ask_save_path(self._dialog, self.item.file_name)
        if path is None:
            return
        try:
            await run_blocking(save_text, path, self.item.message)
        except SignatureFileError as exc:
            self._dialog.say(exc.user_message, "error")
            return
        self._dialog.say(strings.ELSEWHERE_SAVED.format(name=path.name), "ok")

    @async_slot()
    async def open_signature(self) -> None:
        from app.services.signed_elsewhere import SignatureFileError, read_signature

        path = await SignMessageDialog.ask_open_path(self._dialog)
        if path is None:
            return
        try:
            text = await run_blocking(read_signature, path)
        except SignatureFileError as exc:
            self._dialog.say(exc.user_message, "error")
            return
        self.signature.setPlainText(text)


class SignMessageDialog(QDialog):
    def __init__(
        self,
        *,
        title: str,
        intro: str,
        items: Sequence[MessageToSign],
        send_label: str,
        send: Send,
        context: AppContext,
        deadline: Deadline | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setMinimumWidth(640)
        self._send = send
        self._context = context
        self._deadline = deadline
        self._busy = False
        self._expired = False
        self.renew_asked = False  # closed to make a new message (the deadline passed)
        intro_label = message_label("hint")
        intro_label.setText(intro)
        self.boxes = [_MessageBox(item, self) for item in items]
        self.time_left = message_label("hint")
        self.time_left.setVisible(False)
        self.status = message_label("hint")
        self.status.setVisible(False)
        self.send_button = QPushButton(send_label)
        self.renew_button = QPushButton(deadline.renew_label if deadline else "")
        self.renew_button.setVisible(False)
        self.cancel_button = QPushButton(strings.BUTTON_CANCEL)
        make_default(self.send_button, self.cancel_button, self.renew_button)
        self.send_button.clicked.connect(self.send)
        self.renew_button.clicked.connect(self.renew)
        self.cancel_button.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.send_button)
        buttons.addWidget(self.renew_button)
        buttons.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addWidget(intro_label)
        for box in self.boxes:
            layout.addWidget(box)
        layout.addWidget(self.time_left)
        layout.addWidget(self.status)
        layout.addLayout(buttons)
        self._tick = QTimer(self)
        self._tick.setInterval(1_000)
        self._tick.timeout.connect(self._show_time_left)
        if deadline is not None:
            self._tick.start()
            self._show_time_left()
        self.update_send()
        if self.boxes:  # where the user pastes, not the address (read-only, copied by button)
            self.boxes[0].signature.setFocus()

    # -- file dialogs (tests monkeypatch these two) ------------------------------------------

    @staticmethod
    async def ask_save_path(parent: QWidget, suggested: str) -> Path | None:
        dialog = QFileDialog(parent, strings.ELSEWHERE_SAVE_MESSAGE.replace("&", ""))
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setNameFilter(strings.ELSEWHERE_SAVE_FILTER)
        dialog.selectFile(suggested)
        return await chosen_path(dialog)

    @staticmethod
    async def ask_open_path(parent: QWidget) -> Path | None:
        dialog = QFileDialog(parent, strings.ELSEWHERE_OPEN_SIGNATURE.replace("&", ""))
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setNameFilter(strings.ELSEWHERE_OPEN_FILTER)
        return await chosen_path(dialog)

    # -- state -------------------------------------------------------------------------------

    def signatures(self) -> dict[str, str]:
        return {
            box.item.address: text
            for box in self.boxes
            if (text := box.signature.toPlainText().strip())
        }

    def update_send(self) -> None:
        ready = bool(self.signatures()) and not self._busy and not self._expired
        self.send_button.setEnabled(ready)

    def say(self, text: str, role: str = "hint") -> None:
        set_message(self.status, text, role)
        self._fit()

    def _fit(self) -> None:
        """Grow to show every line: a window's layout does not count how its wrapped labels
        grow, and would squeeze the message to sign instead."""
        layout = self.layout()
        if layout is None or not layout.hasHeightForWidth():
            return
        needed = layout.totalHeightForWidth(self.width())
        if needed > self.height():
            self.resize(self.width(), needed)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._fit()

    def copy(self, text: str, what: str) -> None:
        QGuiApplication.clipboard().setText(text)
        self.say(strings.COPIED.format(what=what), "ok")

    def _time_is_up(self) -> bool:
        deadline = self._deadline
        return deadline is not None and deadline.now_ms() >= deadline.at_ms

    def _show_time_left(self) -> None:
        deadline = self._deadline
        if deadline is None or self._expired:
            return
        now = deadline.now_ms()
        left = (deadline.at_ms - now) // 1000
        if left > 0:
            until = wall_clock(deadline.at_ms, now)
            text = strings.ELSEWHERE_TIME_LEFT.format(left=time_left_text(left), deadline=until)
            set_message(self.time_left, text, "hint")
            self._fit()
        elif not self._busy:  # sending: its outcome says what happened
            self._expire()

    def _expire(self) -> None:
        """The deadline passed: one line says so, nothing can be sent, a new message can be
        made instead."""
        assert self._deadline is not None
        self._expired = True
        self._tick.stop()
        set_message(self.time_left, self._deadline.passed, "error")
        self.say("")  # fits the dialog to the lines shown
        self.update_send()
        self.renew_button.setVisible(True)
        self.send_button.setDefault(False)
        make_default(self.renew_button, self.send_button, self.cancel_button)
        self.renew_button.setFocus()

    def renew(self) -> None:
        """Close, asking the caller for a new message to sign."""
        self.renew_asked = True
        self.reject()

    @async_slot()
    async def send(self) -> None:
        """Verify and send; a refusal is said here and the dialog stays open."""
        if self._busy or not self.signatures():
            return
        self._busy = True
        self.update_send()
        self.say(strings.ELSEWHERE_SENDING, "hint")
        try:
            await self._send(self.signatures())
        except Exception as exc:
            text = failure_text(exc)  # a bug re-raises: the app's error dialog
            self._busy = False
            if self._time_is_up():  # refused as too late: said once, by the countdown's line
                self._expire()
            else:
                self.say(text, "error")
            return
        finally:
            self._busy = False
            self.update_send()
        self.accept()

    def reject(self) -> None:
        if not self._busy:  # sending: let it end, so its outcome is known
            super().reject()

    async def run(self) -> bool:
        """Show the dialog window-modal (announced on `context.dialog_opened`); True once the
        signatures were verified and sent. The dialog is deleted afterwards."""
        self._context.dialog_opened.emit(self)
        try:
            return await exec_dialog(self) == QDialog.DialogCode.Accepted
        finally:
            self._tick.stop()
            self.deleteLater()
