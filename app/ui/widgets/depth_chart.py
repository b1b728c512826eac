"""A pool's market depth (`MarketSnapshot`) as a picture: the cumulative bids stepping down to
the left from the top bid, the cumulative listings stepping up to the right from the floor, on
one price axis (round amounts in sats below it) and one count axis. Our bids are dots on the
bids' line; the price being typed is a dashed vertical line labelled with its price (at the
chart's edge, with an arrow, when it is outside the range shown). Without a snapshot the chart
says why in words (`set_message`).

Painting is cheap: the paths, dots and ticks are computed once per snapshot and size
(`chart_geometry`), at most two points per pixel column whatever the number of price levels;
a typed price only moves its line. Tests read `chart_geometry` instead of pixels."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

from PySide6.QtCore import QEvent, QPointF, QRect, QRectF, QSize, Qt
from PySide6.QtGui import (
    QColor,
    QFontMetrics,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPen,
    QResizeEvent,
)
from PySide6.QtWidgets import QSizePolicy, QWidget

from app.core.market_snapshot import MarketSnapshot, PriceLevel
from app.ui import strings
from app.ui.theme import ThemeState
from app.ui.widgets.pool_chart import nice_step

MARGIN = 4
CHART_HEIGHT = 240
CHART_MIN_HEIGHT = 80
MAX_TICKS = 5
MAX_DOTS = 200  # our bids drawn as dots: past this many, the highest ones
DOT_RADIUS = 3.5
# Past the outermost of floor and top bid, this share of the price shown on each side: the
# spread in the middle, some depth either side.
DEPTH_SHARE = 0.35
TEXT_FLAGS = Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap


@dataclass(frozen=True)
class PriceTick:
    x: float
    label: str
    label_rect: QRect


@dataclass(frozen=True)
class DepthGeometry:
    """Everything drawn for one snapshot at one size (pixel coordinates)."""

    plot: QRect
    low: float  # the price at the plot's left edge
    high: float  # ... and at its right edge
    max_units: int  # the count at the plot's top
    count_label: str  # ... in words: "51 items"
    bids: QPainterPath  # the bids' step line
    bids_fill: QPainterPath  # ... closed down to the axis
    asks: QPainterPath
    asks_fill: QPainterPath
    ours: tuple[QPointF, ...]  # a dot per price level holding bids of ours
    ticks: tuple[PriceTick, ...]
    legend: tuple[tuple[QRect, str, str], ...]  # (rect, text, colour name)

    def x_of(self, price: float) -> float:
        span = self.high - self.low
        return self.plot.left() + (self.plot.width() - 1) * (price - self.low) / span


def price_range(snapshot: MarketSnapshot) -> tuple[float, float] | None:
    """The prices shown: both sides' best prices with `DEPTH_SHARE` of room past them."""
    best = [lv.unit_price for lv in snapshot.bid_levels[:1] + snapshot.ask_levels[:1]]
    if not best:
        return None
    inner_low, inner_high = min(best), max(best)
    room = max(inner_high - inner_low, inner_high) * DEPTH_SHARE or 1.0
    return max(0.0, inner_low - room), inner_high + room


def step_columns(
    levels: tuple[PriceLevel, ...], limit: float, x_at: tuple[float, float], descending: bool
) -> list[tuple[float, int]]:
    """One side's cumulative depth by pixel column: (x, units up to that column), from its
    best price out to `limit` (levels past it are off the chart). Levels within one column
    merge: thousands of levels make at most one step per pixel. `x_at` = (a, b): x = a + b *
    price (inlined: this loop is the chart's whole cost for a busy pool)."""
    a, b = x_at
    columns: list[tuple[float, int]] = []
    cumulative = 0
    last_column = -(1 << 30)
    for level in levels:
        price = level.unit_price
        if (price < limit) if descending else (price > limit):
            break
        cumulative += level.units
        x = a + b * price
        column = int(x)
        if column == last_column:
            columns[-1] = (columns[-1][0], cumulative)
        else:
            columns.append((x, cumulative))
            last_column = column
    return columns


def step_points(
    columns: list[tuple[float, int]], edge: float, y_of: Callable[[int], float]
) -> list[QPointF]:
    """The step line through `columns`: a rise at each, a run to the next, then out to the
    plot's `edge`."""
    previous = y_of(0)
    points = [QPointF(columns[0][0], previous)]
    for x, units in columns:
        y = y_of(units)
        points.append(QPointF(x, previous))
        points.append(QPointF(x, y))
        previous = y
    points.append(QPointF(edge, previous))
    return points


def _paths(points: list[QPointF], baseline: float) -> tuple[QPainterPath, QPainterPath]:
    line = QPainterPath(points[0])
    for point in points[1:]:
        line.lineTo(point)
    fill = QPainterPath(line)
    fill.lineTo(QPointF(points[-1].x(), baseline))
    fill.lineTo(QPointF(points[0].x(), baseline))
    fill.closeSubpath()
    return line, fill


class DepthChart(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._snapshot: MarketSnapshot | None = None
        self._message = ""
        self._typed: float | None = None
        self._geometry: DepthGeometry | None = None
        # Its height is the layout's, never the snapshot's: a new snapshot never moves what
        # is around it.
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    # -- what is shown ------------------------------------------------------------------------

    def snapshot(self) -> MarketSnapshot | None:
        return self._snapshot

    def message(self) -> str:
        """The words drawn instead of a chart ("" while a chart is drawn)."""
        if self._snapshot is None:
            return self._message
        if not self._snapshot.bid_levels and not self._snapshot.ask_levels:
            return strings.MARKET_CHART_EMPTY
        return ""

    def set_snapshot(self, snapshot: MarketSnapshot | None, message: str = "") -> None:
        """Draw `snapshot`; None: draw `message` instead."""
        if snapshot is self._snapshot and message == self._message:
            return
        self._snapshot, self._message = snapshot, message
        self._geometry = None
        self.update()

    def set_typed_price(self, price: float | None) -> None:
        if price != self._typed:
            self._typed = price
            self.update()

    def typed_price(self) -> float | None:
        return self._typed

    def sizeHint(self) -> QSize:
        return QSize(360, CHART_HEIGHT)

    def minimumSizeHint(self) -> QSize:
        return QSize(200, CHART_MIN_HEIGHT)

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._geometry = None
        super().resizeEvent(event)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._geometry = None
        super().changeEvent(event)

    # -- geometry -----------------------------------------------------------------------------

    def chart_geometry(self) -> DepthGeometry | None:
        """The drawing at the current size; None when words are drawn instead."""
        if self._geometry is None and self._snapshot is not None and not self.message():
            self._geometry = self._compute(self._snapshot)
        return self._geometry

    def _compute(self, snapshot: MarketSnapshot) -> DepthGeometry:
        metrics = QFontMetrics(self.font())
        line = metrics.height()
        low, high = price_range(snapshot) or (0.0, 1.0)
        plot = QRect(
            MARGIN,
            MARGIN,
            max(1, self.width() - 2 * MARGIN),
            max(1, self.height() - 2 * MARGIN - line - 5),
        )
        span = high - low
        baseline = float(plot.bottom())
        scale = (plot.width() - 1) / span
        x_at = (plot.left() - low * scale, scale)
        bid_columns = step_columns(snapshot.bid_levels, low, x_at, descending=True)
        ask_columns = step_columns(snapshot.ask_levels, high, x_at, descending=False)
        ends = [columns[-1][1] for columns in (bid_columns, ask_columns) if columns]
        max_units = max([1, *ends])

        def x_of(price: float) -> float:
            return x_at[0] + x_at[1] * price

        def y_of(units: int) -> float:
            return baseline - (plot.height() - 1) * units / max_units

        empty = QPainterPath()
        bids = bids_fill = asks = asks_fill = empty
        if bid_columns:
            points = step_points(bid_columns, plot.left(), y_of)
            bids, bids_fill = _paths(points, baseline)
        if ask_columns:
            points = step_points(ask_columns, plot.right(), y_of)
            asks, asks_fill = _paths(points, baseline)
        ours: list[QPointF] = []
        cumulative = 0
        for level in snapshot.bid_levels:
            cumulative += level.units
            if level.unit_price < low or len(ours) >= MAX_DOTS:
                break
            if level.mine:
                ours.append(QPointF(x_of(level.unit_price), y_of(cumulative)))
        return DepthGeometry(
            plot=plot,
            low=low,
            high=high,
            max_units=max_units,
            count_label=strings.counted(
                strings.MARKET_UNITS if snapshot.is_rune else strings.MARKET_CHART_ITEMS,
                max_units,
            ),
            bids=bids,
            bids_fill=bids_fill,
            asks=asks,
            asks_fill=asks_fill,
            ours=tuple(ours),
            ticks=self._ticks(metrics, plot, low, high, snapshot.is_rune),
            legend=self._legend(metrics, plot, bool(ours)),
        )

    @staticmethod
    def _ticks(
        metrics: QFontMetrics, plot: QRect, low: float, high: float, rune: bool
    ) -> tuple[PriceTick, ...]:
        """Round prices under the axis, as many as fit apart (a rune's: its two ends)."""
        span = high - low

        def tick(price: float) -> PriceTick:
            x = plot.left() + (plot.width() - 1) * (price - low) / span
            label = strings.market_price(price, rune)  # "40,000 sats": the axis says its unit
            width = metrics.horizontalAdvance(label) + 4
            left = min(max(plot.left(), round(x) - width // 2), plot.right() - width + 1)
            return PriceTick(x, label, QRect(left, plot.bottom() + 5, width, metrics.height()))

        if rune or span < 2:
            return (tick(low), tick(high))
        chosen: tuple[PriceTick, ...] = ()
        for max_ticks in range(MAX_TICKS, 1, -1):
            step = nice_step(math.ceil(span), max_ticks)
            first = math.ceil(low / step) * step
            chosen = tuple(tick(p) for p in range(first, math.floor(high) + 1, step))
            if all(a.label_rect.right() + 8 < b.label_rect.left() for a, b in pairwise(chosen)):
                break
        return chosen

    @staticmethod
    def _legend(
        metrics: QFontMetrics, plot: QRect, ours: bool
    ) -> tuple[tuple[QRect, str, str], ...]:
        """Swatch-and-word pairs centred along the plot's top, where the depth is lowest (the
        spread is in the middle): bids, listings, and ours when there are any."""
        items = [(strings.MARKET_CHART_BIDS, "ok"), (strings.MARKET_CHART_ASKS, "error")]
        if ours:
            items.append((strings.MARKET_CHART_OURS, "accent"))
        widths = [metrics.horizontalAdvance(text) + 4 for text, _ in items]
        left = plot.center().x() - (sum(widths) + 26 * len(items) - 12) // 2
        rects = []
        for (text, colour), width in zip(items, widths, strict=True):
            rects.append((QRect(left + 14, plot.top() + 1, width, metrics.height()), text, colour))
            left += 14 + width + 12
        return tuple(rects)

    # -- painting -----------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        colors = ThemeState.colors
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        words = self.message()
        geometry = None if words else self.chart_geometry()
        if geometry is None:
            rect = self.rect().adjusted(MARGIN, MARGIN, -MARGIN, -MARGIN)
            painter.setPen(QColor(colors["muted"]))
            painter.drawText(rect, TEXT_FLAGS, words)
            painter.end()
            return
        plot = geometry.plot
        grid = QColor(colors["border"])
        muted = QColor(colors["muted"])
        # The axis, the count at the top, and a round price at each tick.
        painter.setPen(QPen(grid, 1))
        painter.drawLine(plot.bottomLeft(), plot.bottomRight())
        painter.setPen(QPen(grid, 1, Qt.PenStyle.DotLine))
        painter.drawLine(plot.topLeft(), plot.topRight())
        for tick in geometry.ticks:
            painter.setPen(QPen(grid, 1))
            x = round(tick.x)
            painter.drawLine(x, plot.bottom(), x, plot.bottom() + 4)
            painter.setPen(muted)
            painter.drawText(tick.label_rect, Qt.AlignmentFlag.AlignCenter, tick.label)
        for path, fill, name in (
            (geometry.bids, geometry.bids_fill, "ok"),
            (geometry.asks, geometry.asks_fill, "error"),
        ):
            colour = QColor(colors[name])
            shade = QColor(colour)
            shade.setAlpha(50)
            painter.fillPath(fill, shade)
            painter.strokePath(path, QPen(colour, 1.5))
        painter.setPen(QPen(QColor(colors["panel"]), 1))
        painter.setBrush(QColor(colors["accent"]))
        for dot in geometry.ours:
            painter.drawEllipse(dot, DOT_RADIUS, DOT_RADIUS)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        self._paint_typed(painter, geometry, colors)  # under the words: they stay whole
        # The count at the top right: how many items (rune units) the tallest step stands for.
        metrics = painter.fontMetrics()
        count = geometry.count_label
        width = metrics.horizontalAdvance(count) + 4
        count_rect = QRect(plot.right() - width, plot.top() + 1, width, metrics.height())
        background = self.palette().color(self.backgroundRole())
        painter.fillRect(count_rect, background)
        painter.setPen(muted)
        painter.drawText(count_rect, Qt.AlignmentFlag.AlignRight, count)
        for rect, text, name in geometry.legend:
            painter.fillRect(rect.adjusted(-14, 0, 2, 0), background)
            painter.fillRect(
                QRectF(rect.left() - 12, rect.center().y() - 4, 9, 9), QColor(colors[name])
            )
            painter.setPen(QColor(colors["text"]))
            painter.drawText(rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text)
        painter.end()

    def _paint_typed(
        self, painter: QPainter, geometry: DepthGeometry, colors: dict[str, str]
    ) -> None:
        """The price being typed: a dashed line, its price beside it (an arrow at the edge
        when it is outside the prices shown)."""
        if self._typed is None or self._typed <= 0:
            return
        plot = geometry.plot
        x = min(max(geometry.x_of(self._typed), plot.left()), plot.right())
        colour = QColor(colors["text"])
        painter.setPen(QPen(colour, 1.5, Qt.PenStyle.DashLine))
        painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()))
        rune = self._snapshot is not None and self._snapshot.is_rune
        label = strings.market_price(self._typed, rune)
        if self._typed < geometry.low:
            label = "◂ " + label
        elif self._typed > geometry.high:
            label += " ▸"
        metrics = painter.fontMetrics()
        width = metrics.horizontalAdvance(label) + 8
        left = x + 4 if x + 4 + width <= plot.right() else x - 4 - width
        rect = QRectF(left, plot.top() + metrics.height() + 2, width, metrics.height())
        painter.fillRect(rect, QColor(colors["panel"]))
        painter.setPen(colour)
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, label)
