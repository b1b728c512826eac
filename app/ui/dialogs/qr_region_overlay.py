"""Choosing the screen region the QR scan reads by dragging a rectangle over the screen.

A frameless full-screen window shows a grab of the screen under a dark veil; the rectangle
being dragged shows clear, outlined, with its size. Releasing the mouse chooses it (in the
screen's logical pixels, what `grab_screen` takes); Esc cancels. A click without a drag
chooses nothing: the overlay stays for another try.
"""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QPoint, QRect, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QImage,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPalette,
    QPen,
    QScreen,
)
from PySide6.QtWidgets import QWidget

from app.ui import strings

MIN_SIDE = 8  # smaller than this is a click, not a region (no QR code fits in it)
VEIL = QColor(0, 0, 0, 130)  # the screen stays readable under it, the selection stands out
HINT_MARGIN = 24


def aside_of(window: QRect, region: QRect, screen: QRect) -> QPoint:
    """Where `window` (its frame) goes so it covers as little of `region` as it can, inside
    `screen`: where it is, below the region, above, right or left of it (ties keep the first).
    The scan reads the screen as it is, so a window over the code would hide it."""
    candidates = [
        window.topLeft(),
        QPoint(window.x(), region.bottom() + 1),
        QPoint(window.x(), region.top() - window.height()),
        QPoint(region.right() + 1, window.y()),
        QPoint(region.left() - window.width(), window.y()),
    ]

    def inside(corner: QPoint) -> QPoint:
        x = max(screen.left(), min(corner.x(), screen.right() + 1 - window.width()))
        y = max(screen.top(), min(corner.y(), screen.bottom() + 1 - window.height()))
        return QPoint(x, y)

    def covered(corner: QPoint) -> int:
        overlap = QRect(corner, window.size()).intersected(region)
        return overlap.width() * overlap.height() if overlap.isValid() else 0

    return min((inside(c) for c in candidates), key=covered)


class RegionOverlay(QWidget):
    """`screen` shown as `shot` (its grab) for a rectangle to be dragged on it."""

    chosen = Signal(QRect)
    cancelled = Signal()

    def __init__(self, screen: QScreen, shot: QImage) -> None:
        flags = (
            Qt.WindowType.Window
            | Qt.WindowType.FramelessWindowHint
            | Qt.WindowType.WindowStaysOnTopHint
        )
        super().__init__(None, flags)
        self.setWindowTitle(strings.QR_REGION_TITLE)
        self.setCursor(Qt.CursorShape.CrossCursor)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setGeometry(screen.geometry())
        self._shot = shot
        self._origin: QPoint | None = None
        self.selection = QRect()  # in this widget's (= the screen's logical) pixels

    async def choose(self) -> QRect | None:
        """Shown full screen until a rectangle is chosen (returned) or Esc (None)."""
        future: asyncio.Future[QRect | None] = asyncio.get_running_loop().create_future()

        def done(region: QRect | None) -> None:
            if not future.done():
                future.set_result(region)

        self.chosen.connect(done)
        self.cancelled.connect(lambda: done(None))
        self.showFullScreen()
        self.activateWindow()
        self.setFocus()
        try:
            return await future
        finally:
            self.close()
            self.deleteLater()

    # -- the drag ---------------------------------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._origin = event.position().toPoint()
            self.selection = QRect(self._origin, self._origin)
            self.update()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._origin is not None:
            self.selection = self._spanned(event.position().toPoint())
            self.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._origin is None or event.button() != Qt.MouseButton.LeftButton:
            return
        region = self._spanned(event.position().toPoint())
        self._origin = None
        if region.width() >= MIN_SIDE and region.height() >= MIN_SIDE:
            self.selection = region
            self.chosen.emit(region)
        else:
            self.selection = QRect()
            self.update()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.cancelled.emit()
        else:
            super().keyPressEvent(event)

    def _spanned(self, corner: QPoint) -> QRect:
        """From where the drag began to `corner`, either way round, kept on the screen (a
        drag from x 100 to x 300 is 200 pixels wide)."""
        assert self._origin is not None
        left, right = sorted((self._origin.x(), corner.x()))
        top, bottom = sorted((self._origin.y(), corner.y()))
        return QRect(left, top, right - left, bottom - top).intersected(self.rect())

    # -- painting ---------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.drawImage(self.rect(), self._shot)
        veil = QPainterPath()
        veil.addRect(self.rect())
        if not self.selection.isEmpty():
            clear = QPainterPath()
            clear.addRect(self.selection)
            veil = veil.subtracted(clear)
        painter.fillPath(veil, VEIL)
        highlight = self.palette().color(QPalette.ColorRole.Highlight)
        if not self.selection.isEmpty():
            painter.setPen(QPen(highlight, 2))
            painter.drawRect(self.selection.adjusted(-1, -1, 0, 0))
            size = f"{self.selection.width()} × {self.selection.height()}"
            self._label(painter, size, self.selection.bottomLeft() + QPoint(0, 6))
        hint = self._plate(strings.QR_REGION_HINT, QPoint(0, HINT_MARGIN))
        hint.moveLeft((self.width() - hint.width()) // 2)
        if hint.intersects(self.selection):  # out of the way, at the bottom
            hint.moveBottom(self.height() - HINT_MARGIN)
        self._label(painter, strings.QR_REGION_HINT, hint.topLeft())
        painter.end()

    def _plate(self, text: str, top_left: QPoint) -> QRect:
        plate = self.fontMetrics().boundingRect(text).adjusted(-8, -5, 8, 5)
        plate.moveTopLeft(top_left)
        return plate

    def _label(self, painter: QPainter, text: str, top_left: QPoint) -> None:
        """`text` on a dark plate, legible over any screen."""
        plate = self._plate(text, top_left)
        plate.moveBottom(min(plate.bottom(), self.height() - 1))  # under the screen's edge: up
        painter.fillRect(plate, QColor(0, 0, 0, 200))
        painter.setPen(QColor("white"))
        painter.drawText(plate, Qt.AlignmentFlag.AlignCenter, text)
