"""A QR code of a text (an address, a BIP-21 payment link), drawn crisp at any size.

segno encodes (imported with the first code made); the modules are painted as whole-pixel
squares with the 4-module quiet zone, always dark on white (scanners read that in both
themes)."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPixmap
from PySide6.QtWidgets import QSizePolicy, QWidget

QUIET_ZONE = 4  # modules of white around the code (ISO/IEC 18004)


def qr_matrix(text: str) -> tuple[tuple[bool, ...], ...]:
    """The dark/light modules of `text`'s QR code (medium error correction), no border."""
    import segno  # ~10 ms the window does not wait for: a QR shows only when asked

    code = segno.make(text, error="m", micro=False)
    return tuple(tuple(bool(cell) for cell in row) for row in code.matrix)


def paint_matrix(painter: QPainter, matrix: tuple[tuple[bool, ...], ...], rect: QRect) -> int:
    """Paint `matrix` centred in `rect`; returns the module size in pixels (0: too small)."""
    count = len(matrix) + 2 * QUIET_ZONE
    module = min(rect.width(), rect.height()) // count
    if module <= 0:
        return 0
    side = module * count
    left = rect.left() + (rect.width() - side) // 2
    top = rect.top() + (rect.height() - side) // 2
    painter.fillRect(left, top, side, side, QColor("white"))
    dark = QColor("black")
    for y, row in enumerate(matrix):
        for x, cell in enumerate(row):
            if cell:
                painter.fillRect(
                    left + (x + QUIET_ZONE) * module, top + (y + QUIET_ZONE) * module,
                    module, module, dark,
                )  # fmt: skip
    return module


class QrView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._text = ""
        self._matrix: tuple[tuple[bool, ...], ...] = ()
        self.setMinimumSize(132, 132)
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    def text(self) -> str:
        return self._text

    def matrix(self) -> tuple[tuple[bool, ...], ...]:
        return self._matrix

    def set_text(self, text: str) -> None:
        self._text = text
        self._matrix = qr_matrix(text) if text else ()
        self.setToolTip(text)
        self.setAccessibleDescription(text)
        self.update()

    def pixmap(self, side: int = 256) -> QPixmap:
        """The code as a square image of `side` pixels (for copying or saving)."""
        pixmap = QPixmap(side, side)
        pixmap.fill(QColor("white"))
        if self._matrix:
            painter = QPainter(pixmap)
            paint_matrix(painter, self._matrix, QRect(0, 0, side, side))
            painter.end()
        return pixmap

    def sizeHint(self) -> QSize:
        return QSize(200, 200)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return width

    def paintEvent(self, event: QPaintEvent) -> None:
        if not self._matrix:
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        paint_matrix(painter, self._matrix, self.rect())
        painter.end()
