"""Bid pools as a horizontal bar chart: what each pool commits (open bids plus maker fee)
against the bidding wallet's balance. Each pool may use the whole balance on its own, so every
bar is drawn on one scale: an axis of round amounts below the bars, and the balance as a line
across all of them, labelled at its top. Each row names its pool and says its amount and bid
count in words, so a pool far below the balance still reads (its bar is at least a stub). A
pool past the balance is drawn in the error colour.

The geometry is computed apart from painting (`PoolChart.chart_layout`), so tests check what
is drawn where without reading pixels."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QHelpEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from app.ui import strings
from app.ui.theme import ThemeState

MARGIN = 8
BAR_HEIGHT = 16
ROW_GAP = 10
MIN_BAR = 3  # px: a pool with bids never vanishes into a dot
MAX_TICKS = 5
# The no-bids message: centred, wrapped at word boundaries (at 1024 px it was cut at both edges).
EMPTY_FLAGS = Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap
SATS_PER_BTC = 100_000_000


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

    def value_text(self) -> str:
        """What the row says beside its name: the amount and the bid count."""
        return strings.counted(
            strings.POOL_CHART_VALUE, self.bids, sats=strings.SATS.format(sats=self.committed)
        )


@dataclass(frozen=True)
class Tick:
    x: int
    amount: int
    label: str
    label_rect: QRect  # below the axis: the first starts at its tick, the last ends at it


@dataclass(frozen=True)
class BarGeometry:
    bar: PoolBar
    label_rect: QRect  # the pool's name (left) and its value text (right) on one line
    label: str  # the name as drawn (elided to fit)
    value: str
    track: QRect  # the whole scale
    filled: QRect  # the committed amount


@dataclass(frozen=True)
class ChartLayout:
    """Where everything goes at the widget's current width."""

    plot: QRect  # the area the bars and the balance line span
    scale_max: int  # sats at the right end of the axis
    ticks: tuple[Tick, ...]
    balance: int
    balance_x: int
    balance_label: str
    balance_label_rect: QRect
    bars: tuple[BarGeometry, ...]
    axis_y: int


def nice_step(span: int, max_ticks: int = MAX_TICKS) -> int:
    """A round step (1, 2, 2.5 or 5 times a power of ten, whole sats) that divides [0, span]
    into at most `max_ticks - 1` parts."""
    raw = max(1.0, span / max(1, max_ticks - 1))
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        step = factor * power
        if step >= raw and step == int(step):
            return int(step)
    return int(10 * power)  # pragma: no cover - the loop always finds 10 * power


def amount_label(sats: int) -> str:
    """A tick's amount, short: BTC from 0.01 BTC, else sats."""
    if sats >= SATS_PER_BTC // 100:
        btc = f"{sats / SATS_PER_BTC:.8f}".rstrip("0").rstrip(".")
        return strings.POOL_CHART_AXIS_BTC.format(btc=btc)
    return strings.SATS.format(sats=sats)


def _apart(rects: Sequence[QRect]) -> bool:
    """No two of `rects` overlap, with a few pixels between neighbours."""
    return all(a.right() + 6 < b.left() for a, b in pairwise(rects))


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
        self.updateGeometry()  # the height (for the width) depends on the bars
        self.update()

    def _line(self) -> int:
        return QFontMetrics(self.font()).height()

    def _row_height(self) -> int:
        return self._line() + 2 + BAR_HEIGHT + ROW_GAP

    def sizeHint(self) -> QSize:
        rows = max(1, len(self._bars))
        return QSize(360, 2 * MARGIN + 3 * self._line() + rows * self._row_height())

    def minimumSizeHint(self) -> QSize:
        return QSize(200, self.sizeHint().height())

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        """As tall as the rows, or with no bars as the wrapped message (at any width)."""
        height = self.sizeHint().height()
        if self._bars:
            return height
        text = self._empty_rect(QRect(0, 0, width, height))
        wrapped = QFontMetrics(self.font()).boundingRect(
            text, EMPTY_FLAGS, strings.WALLET_POOLS_EMPTY
        )
        return max(height, wrapped.height() + 2 * MARGIN + 2)

    @staticmethod
    def _empty_rect(rect: QRect) -> QRect:
        """Where the no-bids message is drawn: inside the margins, never to the edges."""
        return rect.adjusted(MARGIN, MARGIN, -MARGIN, -MARGIN)

    def _balance(self) -> int:
        # Every pool is judged against the same balance (the bidding wallet's).
        return max((b.balance for b in self._bars), default=0)

    def chart_layout(self) -> ChartLayout:
        metrics = QFontMetrics(self.font())
        line = metrics.height()
        balance = self._balance()
        top = MARGIN + line + 4  # the balance line's label sits above the bars
        rows = len(self._bars)
        plot = QRect(
            MARGIN, top, max(1, self.width() - 2 * MARGIN), max(1, rows * self._row_height())
        )
        # Some room past the largest amount, so the balance line is not the chart's edge.
        span = max([1, balance] + [b.committed for b in self._bars]) * 21 // 20
        axis_y = plot.bottom() + 1
        for max_ticks in range(MAX_TICKS, 1, -1):  # fewer ticks until their labels fit
            step = nice_step(span, max_ticks)
            scale_max = step * math.ceil(span / step)
            ticks = self._ticks(metrics, plot, axis_y, scale_max, step)
            if _apart([t.label_rect for t in ticks]):
                break

        def x_of(sats: int) -> int:
            return plot.left() + round((plot.width() - 1) * sats / scale_max)

        bars = []
        for index, bar in enumerate(self._bars):
            row_top = plot.top() + index * self._row_height()
            label_rect = QRect(plot.left(), row_top, plot.width(), line)
            value = bar.value_text()
            room = max(0, plot.width() - metrics.horizontalAdvance(value) - 12)
            label = metrics.elidedText(bar.label, Qt.TextElideMode.ElideMiddle, room)
            track = QRect(plot.left(), label_rect.bottom() + 3, plot.width(), BAR_HEIGHT)
            filled = QRect(track)
            filled.setWidth(max(MIN_BAR, x_of(bar.committed) - plot.left()))
            bars.append(BarGeometry(bar, label_rect, label, value, track, filled))
        balance_x = x_of(balance)
        balance_label = strings.POOL_CHART_BALANCE.format(balance=strings.SATS.format(sats=balance))
        width = metrics.horizontalAdvance(balance_label) + 4
        # The label centred on its line, kept inside the widget.
        left = min(max(MARGIN, balance_x - width // 2), self.width() - MARGIN - width)
        balance_label_rect = QRect(max(0, left), MARGIN, width, line)
        return ChartLayout(
            plot,
            scale_max,
            ticks,
            balance,
            balance_x,
            balance_label,
            balance_label_rect,
            tuple(bars),
            axis_y,
        )

    @staticmethod
    def _ticks(
        metrics: QFontMetrics, plot: QRect, axis_y: int, scale_max: int, step: int
    ) -> tuple[Tick, ...]:
        amounts = range(0, scale_max + 1, step)
        ticks = []
        for number, amount in enumerate(amounts):
            x = plot.left() + round((plot.width() - 1) * amount / scale_max)
            label = amount_label(amount)
            width = metrics.horizontalAdvance(label) + 4
            if number == 0:
                left = x
            elif number == len(amounts) - 1:
                left = x - width + 1
            else:
                left = x - width // 2
            ticks.append(Tick(x, amount, label, QRect(left, axis_y + 5, width, metrics.height())))
        return tuple(ticks)

    def paintEvent(self, event: QPaintEvent) -> None:
        colors = ThemeState.colors
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        if not self._bars:
            painter.setPen(QColor(colors["muted"]))
            painter.drawText(self._empty_rect(self.rect()), EMPTY_FLAGS, strings.WALLET_POOLS_EMPTY)
            painter.end()
            return
        chart = self.chart_layout()
        # The axis: a rule below the bars, a tick and a round amount at each step, and a
        # faint grid line up through the bars so a bar's end can be read against it.
        grid = QColor(colors["border"])
        painter.setPen(QPen(grid, 1))
        painter.drawLine(
            QPoint(chart.plot.left(), chart.axis_y), QPoint(chart.plot.right(), chart.axis_y)
        )
        for tick in chart.ticks:
            painter.setPen(QPen(grid, 1, Qt.PenStyle.DotLine))
            painter.drawLine(QPoint(tick.x, chart.plot.top()), QPoint(tick.x, chart.axis_y))
            painter.setPen(QPen(grid, 1))
            painter.drawLine(QPoint(tick.x, chart.axis_y), QPoint(tick.x, chart.axis_y + 4))
            painter.setPen(QColor(colors["muted"]))
            painter.drawText(tick.label_rect, Qt.AlignmentFlag.AlignCenter, tick.label)
        track = QColor(colors["border"])
        track.setAlpha(90)  # a lane the bar fills, visible on either theme's window colour
        for geometry in chart.bars:
            bar = geometry.bar
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(track)
            painter.drawRoundedRect(geometry.track, 3, 3)
            painter.setBrush(QColor(colors["error"] if bar.over else colors["ok"]))
            painter.drawRoundedRect(geometry.filled, 3, 3)
        # The balance: one line across every bar, labelled at its top.
        painter.setPen(QPen(QColor(colors["accent"]), 2, Qt.PenStyle.DashLine))
        painter.drawLine(
            QPoint(chart.balance_x, chart.plot.top() - 2), QPoint(chart.balance_x, chart.axis_y)
        )
        painter.setPen(QColor(colors["text"]))
        painter.drawText(
            chart.balance_label_rect, Qt.AlignmentFlag.AlignCenter, chart.balance_label
        )
        # Names and amounts last, on the window's colour, so the balance line never crosses
        # their letters.
        background = self.palette().color(self.backgroundRole())
        metrics = painter.fontMetrics()
        for geometry in chart.bars:
            bar = geometry.bar
            rect = geometry.label_rect
            name_width = metrics.horizontalAdvance(geometry.label) + 4
            value_width = metrics.horizontalAdvance(geometry.value) + 6
            painter.fillRect(QRect(rect.left(), rect.top(), name_width, rect.height()), background)
            painter.fillRect(
                QRect(rect.right() - value_width + 1, rect.top(), value_width, rect.height()),
                background,
            )
            painter.setPen(QColor(colors["text"]))
            painter.drawText(rect, Qt.AlignmentFlag.AlignLeft, geometry.label)
            painter.setPen(QColor(colors["error"] if bar.over else colors["muted"]))
            painter.drawText(rect, Qt.AlignmentFlag.AlignRight, geometry.value)
        painter.end()

    def event(self, event: object) -> bool:
        if isinstance(event, QHelpEvent) and self._bars:
            for geometry in self.chart_layout().bars:
                row = geometry.label_rect.united(geometry.track)
                if row.top() <= event.pos().y() <= row.bottom():
                    bar = geometry.bar
                    QToolTip.showText(event.globalPos(), f"{bar.label}\n{bar.caption()}", self)
                    return True
        return super().event(event)  # type: ignore[arg-type]
