"""One address on the Wallet tab: monospace text and a copy button. A column too narrow for
the whole address elides it in the middle (both ends stay, as people compare them); the tooltip
and the copy button always give it whole."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFont, QGuiApplication, QResizeEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QToolButton, QWidget

from app.ui import strings
from app.ui.context import AppContext
from app.ui.icons import set_themed_icon

MIN_CHARS_SHOWN = 24  # the narrowest an address gets: its first and last ~11 characters


class ElidedAddress(QLabel):
    """An address that asks for its full width but makes do with less, eliding its middle.
    Selectable only while shown whole: a selection must never copy the "…"."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._full = ""
        mono = QFont("monospace")
        mono.setStyleHint(QFont.StyleHint.TypeWriter)
        self.setFont(mono)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

    def full_text(self) -> str:
        return self._full

    def set_full_text(self, text: str) -> None:
        self._full = text
        self.updateGeometry()
        self._fit()

    def sizeHint(self) -> QSize:
        return QSize(self._width_for(self._full), super().sizeHint().height())

    def minimumSizeHint(self) -> QSize:
        shown = min(len(self._full), MIN_CHARS_SHOWN)
        return QSize(self._width_for("m" * shown), super().minimumSizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _width_for(self, text: str) -> int:
        margins = self.contentsMargins()
        return self.fontMetrics().horizontalAdvance(text) + margins.left() + margins.right() + 2

    def _fit(self) -> None:
        width = self.contentsRect().width()
        shown = self.fontMetrics().elidedText(self._full, Qt.TextElideMode.ElideMiddle, width)
        whole = shown == self._full
        if self.text() != shown:
            self.setText(shown)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            if whole
            else Qt.TextInteractionFlag.NoTextInteraction
        )


class AddressRow(QWidget):
    """`what` names the address in messages ("Payment address copied")."""

    def __init__(self, context: AppContext, what: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self.what = what
        self.text = ElidedAddress()
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
        text = self.text.full_text()
        return None if text == strings.WALLET_ADDRESS_UNKNOWN else text

    def set_address(self, address: str | None) -> None:
        self.text.set_full_text(address or strings.WALLET_ADDRESS_UNKNOWN)
        self.text.setToolTip(address or "")
        self.copy_button.setEnabled(bool(address))

    def copy(self) -> None:
        address = self.address()
        if address:
            QGuiApplication.clipboard().setText(address)
            self._context.info(strings.COPIED.format(what=self.what))
