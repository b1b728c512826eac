"""The strategy "Keep this bid…" starts from (issue 17): the Bid tab's form as a strategy that
keeps that bid placed. Each pool the bid would touch (the collection, each trait, or the rune)
gets a fixed price at the form's price and a budget of its bids with their maker fee
(price + fee, times the quantity); the total budget is their sum, the maximum of bids the
form's bids. A rune's price is per unit: the form's total over its units, exactly.

`KeepBidButton` is the Bid tab's "Keep this bid…": it opens the editor with that strategy and,
once approved, shows the Strategies tab (when the window has one)."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QLabel, QPushButton

from app.core.pools import MakerFee, bid_cost
from app.core.strategy_rules import FixedPrice, PoolStrategy
from app.core.strategy_settings import StrategyLimits
from app.ui import strings
from app.ui.async_tools import async_slot
from app.ui.dialogs.psbt_review_flow import signing_context
from app.ui.dialogs.strategy_editor import edit_strategy
from app.ui.profile_session import NotReadyError, failure_text, profile_session
from app.ui.tabs.bid_market_panel import draft_pools
from app.ui.widgets import set_message

if TYPE_CHECKING:
    from app.services.strategy_engine import StrategyConfig
    from app.ui.context import AppContext
    from app.ui.controller import AppController
    from app.ui.tabs.bid_form import BidForm
    from app.ui.tabs.bid_preview import BidDraft

STRATEGIES_TAB = "strategies"


@dataclass(frozen=True)
class KeptBid:
    config: StrategyConfig
    rune_units: int | None  # the units a rune's prices are typed for (the form's)


def strategy_from_bid(draft: BidDraft, maker_fee: MakerFee) -> KeptBid | None:
    """The strategy keeping `draft`'s bid; None while it has no pool, price or quantity."""
    from app.services.strategy_engine import StrategyConfig

    pools = draft_pools(draft)
    if not pools or not draft.price or draft.quantity < 1:
        return None
    if draft.runes:  # one bid for all the units: its price is the total
        unit = Fraction(draft.price, draft.quantity)
        price = unit.numerator if unit.denominator == 1 else unit
        cost = bid_cost(draft.price, maker_fee)
        strategy = PoolStrategy(pools[0], FixedPrice(price), cost, rune=True)
        limits = StrategyLimits(cost, 1)
        return KeptBid(StrategyConfig("", (strategy,), limits), draft.quantity)
    budget = bid_cost(draft.price, maker_fee) * draft.quantity
    strategies = tuple(
        PoolStrategy(pool, FixedPrice(draft.price), budget, rune=False) for pool in pools
    )
    limits = StrategyLimits(budget * len(pools), draft.quantity * len(pools))
    return KeptBid(StrategyConfig("", strategies, limits), None)


class KeepBidButton(QPushButton):
    """The Bid tab's "Keep this bid…": the editor prefilled from `form` (a locked wallet asks
    for its password first); why it cannot open is said in `result`."""

    def __init__(
        self, context: AppContext, controller: AppController, form: BidForm, result: QLabel
    ) -> None:
        super().__init__(strings.KEEP_BID)
        self.context = context
        self.controller = controller
        self.form = form
        self.result = result
        self.session = profile_session(context)
        self.setToolTip(strings.KEEP_BID_TIP)
        self.setEnabled(False)  # the tab enables it once the form holds a valid bid
        self.clicked.connect(self.keep)

    @async_slot()
    async def keep(self) -> None:
        from app.services.errors import NetError, ServiceError

        now_ms = self.session.clock.now_ms()
        draft = self.form.draft(now_ms)
        made = strategy_from_bid(draft, self.session.maker_fee)
        if made is None or not self.isEnabled():
            return
        # The strategy renews short bids instead: the editor says the form's expiry is not used.
        expiry_ms = None if draft.expiry_ms is None else draft.expiry_ms - now_ms
        try:
            await signing_context(self.context, self.controller)  # locked: unlock first
            approved = await edit_strategy(
                self.context,
                self,
                draft=made.config,
                rune_units=made.rune_units,
                bid_tab_expiry_ms=expiry_ms,
            )
        except (NotReadyError, ServiceError, NetError) as exc:
            set_message(self.result, strings.KEEP_BID_NOT_READY.format(reason=failure_text(exc)))
            return
        show_tab = getattr(self.window(), "show_tab", None)
        if approved is not None and callable(show_tab):
            with contextlib.suppress(KeyError):  # a window without the Strategies tab
                show_tab(STRATEGIES_TAB)
