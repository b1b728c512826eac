"""Import a single private key (WIF)."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QFormLayout, QLineEdit, QVBoxLayout, QWidget

from app.ui import strings
from app.ui.dialogs.setup_page import SetupPage
from app.ui.widgets import message_label

WIF_ADDRESS_TYPES = ("p2wpkh", "p2sh-p2wpkh", "p2tr", "p2pkh")


class WifPage(SetupPage):
    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.wif = QLineEdit()
        self.wif.setEchoMode(QLineEdit.EchoMode.Password)
        self.address_type = QComboBox()
        self.address_type.addItems(list(WIF_ADDRESS_TYPES))
        self.error = message_label("error")
        self.error.hide()
        intro = message_label("hint")
        intro.setText(strings.WIF_INTRO)
        form = QFormLayout()
        form.addRow(strings.WIF_LABEL, self.wif)
        form.addRow(strings.WIF_TYPE_LABEL, self.address_type)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addStretch(1)
        self.wif.textChanged.connect(self.changed)

    def is_complete(self) -> bool:
        return bool(self.wif.text().strip())

    def forget(self) -> None:
        self.wif.clear()
