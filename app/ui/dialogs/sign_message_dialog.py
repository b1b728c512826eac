"""Sign in another wallet: the exact text to sign and the address that must sign it (copy, or
save to a file), a field for each signature (paste, or open a file), and the button that has
the signature verified and sent. A refusal (a signature that does not verify, one that came
back too late) is said here and the dialog stays open to try again; a bid's message shows the
seconds left in the marketplace's 2-minute window."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer
from PySide6.QtGui import QFont, QGuiApplication
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
        self.message = QPlainTextEdit(item.message)
        self.message.setReadOnly(True)
        mono = QFont("monospace")
        mono.setStyleHint(QFont.StyleHint.TypeWriter)
        self.message.setFont(mono)
        self.message.setMaximumHeight(96)
        self.signature = QPlainTextEdit()
        self.signature.setTabChangesFocus(True)
        self.signature.setMaximumHeight(64)
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
        deadline_ms: int | None = None,
        now_ms: Callable[[], int] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setMinimumWidth(640)
        self._send = send
        self._context = context
        self._deadline_ms = deadline_ms
        self._now_ms = now_ms
        self._busy = False
        intro_label = message_label("hint")
        intro_label.setText(intro)
        self.boxes = [_MessageBox(item, self) for item in items]
        self.time_left = message_label("hint")
        self.time_left.setVisible(False)
        self.status = message_label("hint")
        self.status.setVisible(False)
        self.send_button = QPushButton(send_label)
        self.cancel_button = QPushButton(strings.BUTTON_CANCEL)
        make_default(self.send_button, self.cancel_button)
        self.send_button.clicked.connect(self.send)
        self.cancel_button.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.send_button)
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
        if deadline_ms is not None and now_ms is not None:
            self._tick.start()
            self._show_time_left()
        self.update_send()

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
        self.send_button.setEnabled(bool(self.signatures()) and not self._busy)

    def say(self, text: str, role: str = "hint") -> None:
        set_message(self.status, text, role)

    def copy(self, text: str, what: str) -> None:
        QGuiApplication.clipboard().setText(text)
        self.say(strings.COPIED.format(what=what), "ok")

    def _show_time_left(self) -> None:
        if self._deadline_ms is None or self._now_ms is None:
            return
        left = (self._deadline_ms - self._now_ms()) // 1000
        if left > 0:
            set_message(self.time_left, strings.ELSEWHERE_TIME_LEFT.format(seconds=left), "hint")
        else:
            set_message(self.time_left, strings.ELSEWHERE_TIME_UP, "error")
            self._tick.stop()

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
            self.say(failure_text(exc), "error")  # a bug re-raises: the app's error dialog
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
