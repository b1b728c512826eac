"""The Bid tab's market panel (issue 16): the chosen pool's floor, top bid and spread, where our
bids rank ("3rd of 41; 2,000 sats below the top bid"), where the price being typed would rank,
the depth chart, and two shortcuts that fill the price: "Floor − x %" and "Top bid + step" (on
the bid step grid: `app.core.market_snapshot`). What it shows comes from `MarketState`, which
reads the pool on its schedule: the panel follows without a Refresh.

Missing or bad market data never blocks a bid: the panel then says "Market data unavailable"
(or how old the figures it keeps are) and the form works as without it. Every line has a fixed
height, so nothing below moves under the cursor when the market changes."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.core.market_snapshot import (
    MarketSnapshot,
    floor_minus_percent,
    rank_for_price,
    top_bid_plus_step,
)
from app.ui import strings
from app.ui.profile_session import failure_text
from app.ui.widgets import message_label, set_message
from app.ui.widgets.depth_chart import DepthChart

if TYPE_CHECKING:
    from app.core.pools import PoolKey
    from app.services.market import PoolMarket
    from app.ui.state.market_state import MarketState

DEFAULT_PERCENT = 5
MAX_PERCENT = 50


def _fixed_lines(label: QLabel, lines: int) -> QLabel:
    """`label` `lines` lines tall whatever it says (longer text: its tooltip has it all)."""
    label.setWordWrap(lines > 1)
    label.setFixedHeight(label.fontMetrics().lineSpacing() * lines + 2)
    label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
    return label


def _say(label: QLabel, text: str, role: str) -> None:
    """`text` in `label`, its tooltip too; the label keeps its room when empty."""
    set_message(label, text, role)
    label.setVisible(True)
    label.setToolTip(text)


class BidMarketPanel(QWidget):
    price_chosen = Signal(int)  # a shortcut's price, for the price field

    def __init__(
        self,
        state: MarketState,
        chart_stretch: int = 1,
        words_stretch: int = 1,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.state = state
        self.pool: PoolKey | None = None
        self._pool_count = 0
        self._typed: tuple[int, int, bool] | None = None  # price, units, rune
        # Two lines: the floor, top bid and spread, then our best rank; or, instead of both,
        # why there are no figures (the same two lines: nothing below moves).
        self.figures = _fixed_lines(message_label("hint"), 2)
        self.typed = _fixed_lines(QLabel(), 1)
        self.chart = DepthChart()
        self.chart.setAccessibleName(strings.MARKET_TITLE)
        self.floor_minus = QPushButton(strings.MARKET_FLOOR_MINUS)
        self.floor_minus.setToolTip(strings.MARKET_FLOOR_MINUS_TIP)
        self.percent = QSpinBox()
        self.percent.setRange(0, MAX_PERCENT)
        self.percent.setValue(DEFAULT_PERCENT)
        self.percent.setSuffix(" %")
        self.percent.setToolTip(strings.MARKET_FLOOR_MINUS_TIP)
        self.percent.setAccessibleName(strings.MARKET_FLOOR_MINUS_TIP)
        self.top_plus = QPushButton(strings.MARKET_TOP_PLUS_STEP)
        self.top_plus.setToolTip(strings.MARKET_TOP_PLUS_STEP_TIP)
        self.floor_minus.clicked.connect(self._fill_floor_minus)
        self.top_plus.clicked.connect(self._fill_top_plus)
        self.percent.valueChanged.connect(lambda _value: self._show())

        shortcuts = QHBoxLayout()
        shortcuts.setSpacing(4)
        shortcuts.addWidget(self.floor_minus)
        shortcuts.addWidget(self.percent)
        shortcuts.addSpacing(8)
        shortcuts.addWidget(self.top_plus)
        shortcuts.addStretch(1)
        words = QVBoxLayout()
        words.setSpacing(2)
        words.addWidget(self.figures)
        words.addWidget(self.typed)
        words.addLayout(shortcuts)
        # A band under the form and the preview: the chart under the form, the words under
        # the preview (the same shares of the width), as low as 1024x700 leaves room for.
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.chart, chart_stretch)
        layout.addLayout(words, words_stretch)
        state.updated.connect(self._updated)
        self._show()

    # -- what the tab says ------------------------------------------------------------------

    def show_pool(self, pool: PoolKey | None, pool_count: int = 1) -> None:
        """The pool the form bids in (the first of `pool_count` when it bids in several)."""
        if pool == self.pool and pool_count == self._pool_count:
            return
        self.pool, self._pool_count = pool, pool_count
        self._show()

    def set_typed(self, price: int | None, units: int, rune: bool) -> None:
        """The price in the form (a rune's: the total for `units` units)."""
        typed = None if price is None or price <= 0 or units < 1 else (price, units, rune)
        if typed != self._typed:
            self._typed = typed
            self._show_typed(self._snapshot())

    def held(self) -> PoolMarket | None:
        return None if self.pool is None else self.state.market(self.pool)

    # -- showing ------------------------------------------------------------------------------

    def _snapshot(self) -> MarketSnapshot | None:
        held = self.held()
        return None if held is None else held.snapshot

    def _updated(self, pool: PoolKey) -> None:
        if pool == self.pool:
            self._show()

    def _show(self) -> None:
        held = self.held()
        snapshot = None if held is None else held.snapshot
        self.chart.set_caption(self._title(held), held is not None and held.error is not None)
        self.chart.setToolTip(self._title_tip(held))
        self._show_figures(held)
        self.chart.set_snapshot(snapshot, "" if snapshot else self._chart_words(held))
        self._show_typed(snapshot)
        self.floor_minus.setEnabled(
            snapshot is not None and self._floor_minus(snapshot) is not None
        )
        self.percent.setEnabled(self.floor_minus.isEnabled())
        self.top_plus.setEnabled(snapshot is not None and top_bid_plus_step(snapshot) is not None)

    def _title(self, held: PoolMarket | None) -> str:
        """ "Market: pixel-punks", with how old the figures are when the last read failed."""
        if self.pool is None:
            return strings.MARKET_TITLE
        title = strings.MARKET_BOX.format(pool=self.pool)
        if self._pool_count > 1:
            title += " " + strings.MARKET_FIRST_OF.format(count=self._pool_count)
        if held is not None and held.error is not None and held.snapshot is not None:
            when = datetime.fromtimestamp(held.snapshot.fetched_at_ms / 1000).strftime("%H:%M")
            title += " · " + strings.MARKET_STALE.format(time=when)
        return title

    def _title_tip(self, held: PoolMarket | None) -> str:
        if held is None or held.error is None:
            return ""
        return strings.MARKET_STALE_WHY.format(reason=failure_text(held.error))

    def _show_figures(self, held: PoolMarket | None) -> None:
        snapshot = None if held is None else held.snapshot
        if snapshot is None:
            text, role = "", "hint"
            if held is not None and held.error is not None:
                reason = failure_text(held.error).rstrip(".")
                text, role = strings.MARKET_UNAVAILABLE.format(reason=reason), "error"
            _say(self.figures, text, role)
            return
        rune = snapshot.is_rune

        def price(value: float | None) -> str:
            return strings.MARKET_NONE if value is None else strings.market_price(value, rune)

        parts = [
            strings.MARKET_FLOOR.format(price=price(snapshot.floor)),
            strings.MARKET_TOP_BID.format(price=price(snapshot.top_bid)),
        ]
        if snapshot.spread is not None:
            parts.append(strings.MARKET_SPREAD.format(price=price(snapshot.spread)))
        best = snapshot.my_ranks[0] if snapshot.my_ranks else None
        yours = (
            strings.MARKET_YOUR_NONE
            if best is None
            else strings.MARKET_YOUR_BIDS.format(rank=strings.rank_text(best, rune))
        )
        _say(self.figures, " · ".join(parts) + "\n" + yours, "")

    def summary(self) -> str:
        """The figures' first line: the floor, top bid and spread (or why there are none)."""
        return self.figures.text().split("\n")[0]

    def yours(self) -> str:
        """The figures' second line: our best bid's rank."""
        lines = self.figures.text().split("\n")
        return lines[1] if len(lines) > 1 else ""

    def _chart_words(self, held: PoolMarket | None) -> str:
        if self.pool is None:
            return strings.MARKET_NO_POOL
        if held is None:
            return strings.MARKET_LOADING
        return strings.MARKET_CHART_NONE  # the lines above say why

    def _show_typed(self, snapshot: MarketSnapshot | None) -> None:
        typed = self._typed
        if snapshot is None or typed is None:
            _say(self.typed, "", "")
            self.chart.set_typed_price(None)
            return
        price, units, rune = typed
        unit_price = price / units if rune else float(price)
        rank = rank_for_price(snapshot, unit_price, units)
        text = strings.MARKET_TYPED_RANK.format(
            price=strings.market_price(unit_price, rune), rank=strings.rank_text(rank, rune)
        )
        _say(self.typed, text, "")
        self.chart.set_typed_price(unit_price)

    # -- shortcuts ----------------------------------------------------------------------------

    def _floor_minus(self, snapshot: MarketSnapshot) -> int | None:
        return floor_minus_percent(snapshot, self.percent.value())

    def _fill_floor_minus(self) -> None:
        snapshot = self._snapshot()
        price = None if snapshot is None else self._floor_minus(snapshot)
        if price is not None:
            self.price_chosen.emit(price)

    def _fill_top_plus(self) -> None:
        snapshot = self._snapshot()
        price = None if snapshot is None else top_bid_plus_step(snapshot)
        if price is not None:
            self.price_chosen.emit(price)
