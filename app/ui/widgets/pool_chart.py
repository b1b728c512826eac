"""Bid pools as horizontal bars: what each pool commits (open bids plus maker fee) against
the bidding wallet's balance. Each pool may use the whole balance on its own, so every bar is
drawn on the same scale with the balance marked; a pool past it is drawn in the error colour."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QHelpEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from app.ui import strings
from app.ui.theme import ThemeState

ROW_HEIGHT = 54
BAR_HEIGHT = 12
MARGIN = 8


@dataclass(frozen=True)
class PoolBar:
    label: str
    committed: int
    balance: int
    bids: int

    @property
    def over(self) -> int:
        return max(0, self.committed - self.balance)

    def caption(self) -> str:
        text = strings.POOL_CHART_LINE.format(
            committed=strings.SATS.format(sats=self.committed),
            balance=strings.SATS.format(sats=self.balance),
            bids=self.bids,
        )
        if self.over:
            text += " · " + strings.POOL_CHART_OVER.format(over=strings.SATS.format(sats=self.over))
        return text


class PoolChart(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._bars: tuple[PoolBar, ...] = ()
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum)
        self.setMouseTracking(True)

    def bars(self) -> tuple[PoolBar, ...]:
        return self._bars

    def set_bars(self, bars: Sequence[PoolBar]) -> None:
        self._bars = tuple(bars)
        self.updateGeometry()
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(360, max(1, len(self._bars)) * ROW_HEIGHT + 2 * MARGIN)

    def minimumSizeHint(self) -> QSize:
        return QSize(200, self.sizeHint().height())

    def _scale(self) -> int:
        return max([1] + [max(b.committed, b.balance) for b in self._bars])

    def _row_rect(self, index: int) -> QRect:
        return QRect(MARGIN, MARGIN + index * ROW_HEIGHT, self.width() - 2 * MARGIN, ROW_HEIGHT)

    def paintEvent(self, event: QPaintEvent) -> None:
        colors = ThemeState.colors
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        metrics = QFontMetrics(self.font())
        if not self._bars:
            painter.setPen(QColor(colors["muted"]))
            painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, strings.WALLET_POOLS_EMPTY)
            painter.end()
            return
        scale = self._scale()
        for index, bar in enumerate(self._bars):
            row = self._row_rect(index)
            line = metrics.height()
            label_rect = QRect(row.left(), row.top(), row.width(), line)
            painter.setPen(QColor(colors["text"]))
            label = metrics.elidedText(bar.label, Qt.TextElideMode.ElideMiddle, row.width())
            painter.drawText(label_rect, Qt.AlignmentFlag.AlignLeft, label)
            track = QRect(row.left(), label_rect.bottom() + 3, row.width(), BAR_HEIGHT)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(colors["alternate"]))
            painter.drawRoundedRect(track, 4, 4)
            filled = QRect(track)
            filled.setWidth(max(2, round(track.width() * bar.committed / scale)))
            painter.setBrush(QColor(colors["error"] if bar.over else colors["ok"]))
            painter.drawRoundedRect(filled, 4, 4)
            balance_x = track.left() + round((track.width() - 1) * bar.balance / scale)
            painter.setPen(QColor(colors["text"]))
            painter.drawLine(
                QPoint(balance_x, track.top() - 2), QPoint(balance_x, track.bottom() + 2)
            )
            caption_rect = QRect(row.left(), track.bottom() + 3, row.width(), line)
            painter.setPen(QColor(colors["error"] if bar.over else colors["muted"]))
            caption = metrics.elidedText(bar.caption(), Qt.TextElideMode.ElideRight, row.width())
            painter.drawText(caption_rect, Qt.AlignmentFlag.AlignLeft, caption)
        painter.end()

    def event(self, event: object) -> bool:
        if isinstance(event, QHelpEvent) and self._bars:
            index = (event.pos().y() - MARGIN) // ROW_HEIGHT
            if 0 <= index < len(self._bars):
                bar = self._bars[index]
                QToolTip.showText(event.globalPos(), f"{bar.label}\n{bar.caption()}", self)
                return True
        return super().event(event)  # type: ignore[arg-type]
