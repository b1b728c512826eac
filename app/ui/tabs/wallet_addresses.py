"""One address on the Wallet tab: selectable monospace text and a copy button."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QGuiApplication
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QWidget

from app.ui import strings
from app.ui.context import AppContext
from app.ui.icons import set_themed_icon


class AddressRow(QWidget):
    """`what` names the address in messages ("Payment address copied")."""

    def __init__(self, context: AppContext, what: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self.what = what
        self.text = QLabel(strings.WALLET_ADDRESS_UNKNOWN)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        mono = QFont("monospace")
        mono.setStyleHint(QFont.StyleHint.TypeWriter)
        self.text.setFont(mono)
        self.text.setAccessibleName(what)
        self.copy_button = QToolButton()
        set_themed_icon(self.copy_button, "copy")
        self.copy_button.setToolTip(strings.COPY)
        self.copy_button.setAccessibleName(f"{strings.COPY} {what}")
        self.copy_button.clicked.connect(self.copy)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.copy_button)
        self.set_address(None)

    def address(self) -> str | None:
        text = self.text.text()
        return None if text == strings.WALLET_ADDRESS_UNKNOWN else text

    def set_address(self, address: str | None) -> None:
        self.text.setText(address or strings.WALLET_ADDRESS_UNKNOWN)
        self.copy_button.setEnabled(bool(address))

    def copy(self) -> None:
        address = self.address()
        if address:
            QGuiApplication.clipboard().setText(address)
            self._context.info(strings.COPIED.format(what=self.what))
