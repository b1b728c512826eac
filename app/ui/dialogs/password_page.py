"""The password step of key setup: password, confirmation, a strength hint, and the
"remember in the system keychain" option."""

from __future__ import annotations

import string

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QFormLayout, QLineEdit, QVBoxLayout, QWidget

from app.ui import strings
from app.ui.dialogs.setup_page import SetupPage
from app.ui.widgets import message_label, set_message


def password_strength(password: str) -> int:
    """A rough 0..4 score from length and character variety (a hint, not a gate)."""
    if not password:
        return 0
    classes = sum(
        any(c in group for c in password)
        for group in (string.ascii_lowercase, string.ascii_uppercase, string.digits)
    ) + any(not c.isalnum() for c in password)
    length = len(password)
    # Length matters most: a long passphrase of plain words is strong without symbols.
    score = (length >= 8) + (length >= 12) + (length >= 16) + (classes >= 3 or length >= 20)
    if len(set(password)) <= 3:
        score = 0  # "aaaaaaaaaaaaaaaa" is long and still weak
    return min(score, 4)


class PasswordPage(SetupPage):
    changed = Signal()

    def __init__(self, can_remember: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.password = QLineEdit()
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.confirm = QLineEdit()
        self.confirm.setEchoMode(QLineEdit.EchoMode.Password)
        self.strength = message_label("hint")
        self.remember = QCheckBox(strings.REMEMBER_IN_KEYCHAIN)
        self.remember.setEnabled(can_remember)
        self.error = message_label("error")
        self.error.hide()
        intro = message_label("hint")
        intro.setText(strings.PASSWORD_INTRO)

        form = QFormLayout()
        form.addRow(strings.PASSWORD_LABEL, self.password)
        form.addRow("", self.strength)
        form.addRow(strings.PASSWORD_CONFIRM_LABEL, self.confirm)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.remember)
        if not can_remember:
            note = message_label("hint")
            note.setText(strings.REMEMBER_UNAVAILABLE)
            layout.addWidget(note)
        layout.addWidget(self.error)
        layout.addStretch(1)
        self.password.textChanged.connect(self._update)
        self.confirm.textChanged.connect(self._update)
        self._update()

    def _update(self) -> None:
        score = password_strength(self.password.text())
        label = strings.PASSWORD_STRENGTH[score]
        self.strength.setText(strings.PASSWORD_STRENGTH_LABEL.format(label=label))
        set_message(self.error, "")
        self.changed.emit()

    def validate(self) -> str | None:
        """The password, or None after showing why it is not acceptable."""
        if not self.password.text():
            set_message(self.error, strings.PASSWORD_EMPTY)
            self.password.setFocus()
            return None
        if self.password.text() != self.confirm.text():
            set_message(self.error, strings.PASSWORD_MISMATCH)
            self.confirm.setFocus()
            return None
        return self.password.text()

    def clear(self) -> None:
        self.password.clear()
        self.confirm.clear()
