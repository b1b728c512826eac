"""Shared by the strategy tests: a market, and the open bids once a plan's actions are applied."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import count

from app.core.market_snapshot import BidKindName, MarketBid, MarketListing, MarketSnapshot
from app.core.market_snapshot import build_snapshot as build
from app.core.pools import PoolKey
from app.core.strategy_plan import PoolPlan
from app.core.strategy_targets import HeldBid

ME = "bc1qme"


def market(
    pool: PoolKey,
    *,
    floor: float | None,
    bids: Iterable[tuple[float, int]] = (),
    fetched_at_ms: int = 0,
    rune: bool = False,
) -> MarketSnapshot:
    kind: BidKindName = "rune" if rune else ("trait" if pool.trait else "collection")
    rows = [
        MarketBid(f"r{i}", price, units, "bc1qrival", kind, pool.trait, None)
        for i, (price, units) in enumerate(bids)
    ]
    listings = [] if floor is None else [MarketListing("l1", "x", floor, "bc1pseller")]
    return build(
        pool,
        rows,
        listings,
        own_addresses=frozenset({ME}),
        own_bid_ids=frozenset(),
        fetched_at_ms=fetched_at_ms,
        rune=rune,
    )


_NEW_IDS = count()


def applied(plan: PoolPlan, open_bids: tuple[HeldBid, ...], now_ms: int) -> tuple[HeldBid, ...]:
    """The pool's open bids once the plan's actions went through: cancelled and renewed bids
    gone; each placed or renewed bid open with a new id (an ordinals request lists as
    `quantity` bids of one; a rune bid as one)."""
    rune = plan.target.is_rune
    gone = {a.bid_id for a in plan.actions if a.kind in ("cancel", "renew")}
    after = [b for b in open_bids if b.bid_id not in gone]
    for action in plan.actions:
        if action.kind == "cancel":
            continue
        assert action.bid_expiry_ms is not None
        pieces = [action.quantity] if rune else [1] * action.quantity
        for units in pieces:
            new_id = f"new{next(_NEW_IDS)}"
            after.append(HeldBid(new_id, action.price, units, action.bid_expiry_ms, now_ms))
    return tuple(after)
