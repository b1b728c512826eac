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
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMenu,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.core.bid_request import Trait
from app.core.market_snapshot import (
    MarketSnapshot,
    floor_minus_percent,
    pays_the_floor,
    rank_for_price,
    top_bid_plus_step,
)
from app.core.pools import PoolKey
from app.ui import strings
from app.ui.profile_session import failure_text
from app.ui.widgets import message_label, plain_tooltip, set_message
from app.ui.widgets.depth_chart import DepthChart

if TYPE_CHECKING:
    from app.services.market import PoolMarket
    from app.ui.state.market_state import MarketState
    from app.ui.tabs.bid_preview import BidDraft

FLOOR_PERCENTS = (2, 5, 10, 20)  # the "Floor − x %" presets
# The figures' two sentences, each wrapping to two lines where the prices are long.
FIGURES_LINES = 4


def draft_pools(draft: BidDraft) -> list[PoolKey]:
    """The pools a bid form's draft bids in, as the market names them: a rune's, the
    collection's, or one per trait."""
    target = draft.target.strip()
    if not target:
        return []
    if draft.runes or not draft.traits:
        return [PoolKey(target)]
    return [PoolKey(target, Trait(t, v)) for t, v in draft.traits]


def _fixed_lines(label: QLabel, lines: int) -> QLabel:
    """`label` `lines` lines tall whatever it says (longer text: its tooltip has it all)."""
    label.setWordWrap(lines > 1)
    # Its text never sets the panel's width (a long rank, a rune's name): cut, never wider.
    policy = label.sizePolicy()
    policy.setHorizontalPolicy(QSizePolicy.Policy.Ignored)
    label.setSizePolicy(policy)
    label.setFixedHeight(label.fontMetrics().lineSpacing() * lines + 2)
    label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
    return label


def _say(label: QLabel, text: str, role: str) -> None:
    """`text` in `label`, its tooltip too; the label keeps its room when empty."""
    set_message(label, text, role)
    label.setVisible(True)
    label.setToolTip(plain_tooltip(text))  # it may quote the service: never markup


class BidMarketPanel(QWidget):
    price_chosen = Signal(int)  # a shortcut's price, for the price field

    def __init__(
        self,
        state: MarketState,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.state = state
        self.pool: PoolKey | None = None
        self._pool_count = 0
        self._typed: tuple[int, int, bool] | None = None  # price, units, rune
        # The floor, top bid and spread, then our best rank; or, instead of both, why there
        # are no figures (in the same lines: nothing below moves).
        self.heading = _fixed_lines(QLabel(), 1)  # the pool, and how old its figures are
        heading_font = self.heading.font()
        heading_font.setBold(True)
        self.heading.setFont(heading_font)
        self.figures = _fixed_lines(message_label("hint"), FIGURES_LINES)
        # The preview's line (the tab places it there): where the typed price would rank.
        self.line = _fixed_lines(message_label("hint"), 1)
        self.typed = _fixed_lines(QLabel(), 2)
        self.chart = DepthChart()
        self.chart.setAccessibleName(strings.MARKET_TITLE)
        # The shortcuts: a menu of prices from the market, each saying what it fills in.
        self.shortcuts = QMenu(self)
        self.floor_minus = {
            percent: self.shortcuts.addAction("", partial(self._fill_floor_minus, percent))
            for percent in FLOOR_PERCENTS
        }
        self.top_plus = self.shortcuts.addAction("", self._fill_top_plus)
        self.price_button = QToolButton()
        self.price_button.setText(strings.MARKET_PRICE_MENU)
        self.price_button.setToolTip(strings.MARKET_PRICE_MENU_TIP)
        self.price_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.price_button.setMenu(self.shortcuts)
        self.shortcuts.aboutToShow.connect(self._name_shortcuts)

        button_row = QHBoxLayout()
        button_row.addWidget(self.price_button)
        button_row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setSpacing(4)
        layout.addWidget(self.heading)
        layout.addWidget(self.figures)
        layout.addWidget(self.typed)
        layout.addLayout(button_row)
        layout.addWidget(self.chart, 1)
        state.updated.connect(self._updated)
        state.session.changed.connect(self._show)  # locked, connected: why nothing is read
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
        _say(self.heading, self._title(held), "")
        self.heading.setToolTip(plain_tooltip(self._title_tip(held) or self.heading.text()))
        self._show_figures(held)
        self.chart.set_snapshot(snapshot, "" if snapshot else self._chart_words(held))
        self._show_typed(snapshot)
        self._name_shortcuts()

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
        if held is None:  # not read yet: being read, or why it is not
            return self.state.why_not() or strings.MARKET_LOADING
        return strings.MARKET_CHART_NONE  # the lines above say why

    def _show_typed(self, snapshot: MarketSnapshot | None) -> None:
        typed = self._typed
        if snapshot is None or typed is None:
            _say(self.typed, "", "")
            self.chart.set_typed_price(None)
            self._show_line(snapshot, None)
            return
        price, units, rune = typed
        unit_price = price / units if rune else float(price)
        rank = rank_for_price(snapshot, unit_price, units)
        shown = strings.market_price(unit_price, rune)
        text = strings.MARKET_TYPED_RANK.format(price=shown, rank=strings.rank_text(rank, rune))
        line = strings.MARKET_LINE_TYPED.format(price=shown, rank=strings.rank_cell(rank, rune))
        floor = snapshot.floor
        warn = floor is not None and pays_the_floor(snapshot, unit_price)
        if floor is not None and warn:  # the confirmation shows this label too
            floor_text = strings.market_price(floor, rune)
            text += "\n" + strings.MARKET_PAYS_FLOOR.format(floor=floor_text)
            line = strings.MARKET_LINE_PAYS_FLOOR.format(floor=floor_text)
        _say(self.typed, text, "warning" if warn else "")
        self.chart.set_typed_price(unit_price)
        self._show_line(snapshot, line, "warning" if warn else "hint")

    def _show_line(
        self, snapshot: MarketSnapshot | None, typed: str | None, typed_role: str = "hint"
    ) -> None:
        """The preview's line, short: the typed price's rank, else the floor and top bid,
        else why the market is not known (nothing while no pool is chosen)."""
        held = self.held()
        if snapshot is not None and typed is not None:
            text, role = typed, typed_role
        elif snapshot is not None:
            rune = snapshot.is_rune

            def price(value: float | None) -> str:
                return strings.MARKET_NONE if value is None else strings.market_price(value, rune)

            figures = {"floor": price(snapshot.floor), "top": price(snapshot.top_bid)}
            text, role = strings.MARKET_LINE_FIGURES.format(**figures), "hint"
        elif held is not None and held.error is not None:
            text, role = strings.MARKET_LINE_UNAVAILABLE, "error"
        else:
            text, role = "", "hint"
        _say(self.line, text, role)

    # -- shortcuts ----------------------------------------------------------------------------

    def shortcut_prices(self) -> dict[str, int | None]:
        """Each shortcut's price now, by its words (None: the market gives none)."""
        snapshot = self._snapshot()
        prices: dict[str, int | None] = {}
        for percent in FLOOR_PERCENTS:
            price = None if snapshot is None else floor_minus_percent(snapshot, percent)
            prices[strings.MARKET_FLOOR_MINUS.format(percent=percent)] = price
        top = None if snapshot is None else top_bid_plus_step(snapshot)
        prices[strings.MARKET_TOP_PLUS_STEP] = top
        return prices

    def _name_shortcuts(self) -> None:
        """Each action says the price it fills in, and is off when there is none."""
        actions = [*self.floor_minus.values(), self.top_plus]
        snapshot = self._snapshot()
        for action, (words, price) in zip(actions, self.shortcut_prices().items(), strict=True):
            shown = strings.MARKET_NONE if price is None else strings.market_price(price)
            pays = price is not None and snapshot is not None and pays_the_floor(snapshot, price)
            template = strings.MARKET_SHORTCUT_PAYS_FLOOR if pays else strings.MARKET_SHORTCUT
            action.setText(template.format(what=words, price=shown))
            action.setEnabled(price is not None)
        self.price_button.setEnabled(any(action.isEnabled() for action in actions))

    def _fill_floor_minus(self, percent: int) -> None:
        snapshot = self._snapshot()
        price = None if snapshot is None else floor_minus_percent(snapshot, percent)
        if price is not None:
            self.price_chosen.emit(price)

    def _fill_top_plus(self) -> None:
        snapshot = self._snapshot()
        price = None if snapshot is None else top_bid_plus_step(snapshot)
        if price is not None:
            self.price_chosen.emit(price)
