"""A strategy's plan: place, renew, re-place after a fill, cancel-and-replace, stop, hold, the
limits across pools, and the order of the actions."""

from __future__ import annotations

from fractions import Fraction

import pytest

from app.core.bid_request import Trait
from app.core.market_snapshot import MarketBid, MarketListing, MarketSnapshot, build_snapshot
from app.core.pools import MakerFee, PoolKey
from app.core.strategy_plan import PlanAction, PoolState, StrategyPlan, plan_strategy
from app.core.strategy_rules import (
    AboveTopBid,
    FixedPrice,
    FloorBand,
    InvalidStrategy,
    PoolStrategy,
    StrategyRule,
)
from app.core.strategy_settings import LifecycleSettings, StrategyLimits
from app.core.strategy_targets import HeldBid

from .strategy_helpers import applied, market

PUPPETS = PoolKey("bitcoin-puppets")
BLUE = PoolKey("bitcoin-puppets", Trait("Background", "Blue"))
DOG = PoolKey("DOG•GO•TO•THE•MOON")
NO_FEE = MakerFee(0, 0)
NOW = 10_000_000
LIFETIME = 30 * 60_000
EXPIRY = NOW + LIFETIME
SETTINGS = LifecycleSettings()
LIMITS = StrategyLimits(total_budget_sats=1_000_000, max_active_bids=20)
FOLLOW = AboveTopBid(50_000, 90)  # 41,000 against a top bid of 40,000, floor 60,000
WHY = "one step above the top competing bid of 40,000 sats"


def snap(top: float = 40_000, floor: float = 60_000, pool: PoolKey = PUPPETS) -> MarketSnapshot:
    return market(pool, floor=floor, bids=[(top, 2)], fetched_at_ms=NOW - 1_000)


def held(bid_id: str, price: int, expires: int = EXPIRY, placed: int = 0, qty: int = 1) -> HeldBid:
    return HeldBid(bid_id, price, qty, expires, placed)


def plan(
    *pools: tuple[PoolStrategy, PoolState],
    balance: int = 1_000_000,
    limits: StrategyLimits = LIMITS,
    settings: LifecycleSettings = SETTINGS,
    now: int = NOW,
) -> StrategyPlan:
    return plan_strategy(
        pools, balance_sats=balance, budgets=limits, fee=NO_FEE, settings=settings, now_ms=now
    )


def one(
    rule: StrategyRule = FOLLOW,
    market_: MarketSnapshot | None = None,
    open_bids: tuple[HeldBid, ...] = (),
    *,
    budget: int = 200_000,
    spent: int = 0,
    band: FloorBand | None = None,
    settings: LifecycleSettings = SETTINGS,
) -> StrategyPlan:
    strategy = PoolStrategy(PUPPETS, rule, budget, floor_band=band)
    state = PoolState(market_ or snap(), open_bids, spent_sats=spent)
    return plan((strategy, state), settings=settings)


def summary(p: StrategyPlan) -> list[tuple[str, int, int, str | None]]:
    return [(a.kind, a.price, a.quantity, a.bid_id) for a in p.actions]


def replanned(p: StrategyPlan, open_bids: tuple[HeldBid, ...], **kw: object) -> StrategyPlan:
    after = applied(p.pools[0], open_bids, NOW)
    return one(open_bids=after, **kw)  # type: ignore[arg-type]


def test_a_new_pool_places_its_target_and_then_holds_still() -> None:
    p = one()
    assert p.actions == (
        PlanAction(
            "place",
            PUPPETS,
            41_000,
            4,
            f"Open: 0 of the 4 bids wanted at 41,000 sats; place 4 ({WHY}).",
            bid_expiry_ms=EXPIRY,
        ),
    )
    assert (p.exposure_sats, p.active_bids) == (164_000, 4)
    again = replanned(p, ())
    assert again.actions == ()
    assert (again.exposure_sats, again.active_bids, len(again.pools[0].kept)) == (164_000, 4, 4)


def test_bids_at_target_are_kept() -> None:
    bids = tuple(held(f"b{i}", 41_000) for i in range(4))
    p = one(open_bids=bids)
    assert p.actions == ()
    assert p.pools[0].kept == ("b0", "b1", "b2", "b3")


def test_a_bid_about_to_lapse_is_renewed_with_a_new_message() -> None:
    soon = held("b0", 41_000, expires=NOW + 120_000)
    bids = (soon, *(held(f"b{i}", 41_000) for i in range(1, 4)))
    p = one(open_bids=bids)
    assert p.actions == (
        PlanAction(
            "renew",
            PUPPETS,
            41_000,
            1,
            "Expires in 120 s (renewed 180 s before it lapses): a new bid message with a new "
            "timestamp (spec retry rule 1), at the target 41,000 sats.",
            bid_id="b0",
            bid_expiry_ms=EXPIRY,
        ),
    )
    assert p.pools[0].kept == ("b1", "b2", "b3")
    assert replanned(p, bids).actions == ()


def test_a_bid_just_outside_the_renewal_window_is_kept() -> None:
    bids = (held("b0", 41_000, expires=NOW + 180_001),)
    assert summary(one(open_bids=bids, budget=41_000)) == []


def test_after_a_fill_the_slot_is_placed_again_within_the_budget_left() -> None:
    bids = (held("b0", 41_000), held("b1", 41_000))
    p = one(open_bids=bids, spent=41_000)  # 159,000 left: 3 bids
    assert summary(p) == [("place", 41_000, 1, None)]
    assert p.actions[0].reason == (
        f"Open: 2 of the 3 bids wanted at 41,000 sats; place 1 ({WHY}). After fills costing "
        f"41,000 sats, within the budget left."
    )
    assert replanned(p, bids, spent=41_000).actions == ()


def test_a_spent_budget_stops_the_pool() -> None:
    bids = (held("b0", 41_000),)
    p = one(open_bids=bids, spent=180_000)
    assert summary(p) == [("cancel", 41_000, 1, "b0")]
    assert p.actions[0].reason == (
        f"Stopped: {WHY}: no bid fits, the pool's budget: 180,000 sats of 200,000 sats spent, "
        f"20,000 sats left."
    )
    assert p.pools[0].status == "stop"


def test_a_target_that_moved_past_the_threshold_is_cancelled_and_replaced() -> None:
    bids = tuple(held(f"b{i}", 41_000) for i in range(4))
    moved = snap(top=41_000)  # target 42,000: 2.4 % away
    p = one(market_=moved, open_bids=bids)
    assert summary(p) == [
        ("cancel", 41_000, 1, "b0"),
        ("cancel", 41_000, 1, "b1"),
        ("cancel", 41_000, 1, "b2"),
        ("cancel", 41_000, 1, "b3"),
        ("place", 42_000, 4, None),
    ]
    assert p.actions[0].reason == (
        "The target moved from 41,000 sats to 42,000 sats an item (more than the 1 % "
        "threshold): cancel and place the target."
    )
    assert replanned(p, bids, market_=moved).actions == ()


def test_a_move_within_the_threshold_keeps_the_bids() -> None:
    bids = tuple(held(f"b{i}", 41_000) for i in range(4))
    wide = LifecycleSettings(update_threshold=Fraction(5, 100))
    p = one(market_=snap(top=41_000), open_bids=bids, settings=wide, budget=168_000)
    assert summary(p) == []


def test_a_kept_bid_priced_above_the_target_leaves_less_room_for_new_ones() -> None:
    wide = LifecycleSettings(update_threshold=Fraction(5, 100))
    # Room for 2 bids at 41,000 (83,000); the kept one at 43,000 leaves 40,000: none more.
    p = one(open_bids=(held("b0", 43_000),), budget=83_000, settings=wide)
    assert summary(p) == []
    assert (p.exposure_sats, p.pools[0].kept) == (43_000, ("b0",))
    assert one(open_bids=(held("b0", 43_000),), budget=84_000, settings=wide).actions == (
        PlanAction(
            "place",
            PUPPETS,
            41_000,
            1,
            f"Open: 1 of the 2 bids wanted at 41,000 sats; place 1 ({WHY}).",
            bid_expiry_ms=EXPIRY,
        ),
    )


def test_a_bid_above_what_the_strategy_may_pay_is_cancelled_even_within_the_threshold() -> None:
    wide = LifecycleSettings(update_threshold=Fraction(5, 100))
    p = one(market_=snap(top=49_500), open_bids=(held("hi", 51_000),), settings=wide)
    assert summary(p) == [("cancel", 51_000, 1, "hi"), ("place", 50_000, 4, None)]
    assert p.actions[0].reason == (
        "Priced 51,000 sats an item, above what the strategy may pay now (50,000 sats): cancel."
    )


def test_extra_bids_are_cancelled_newest_first() -> None:
    bids = tuple(held(f"b{i}", 41_000, placed=i) for i in range(6))
    p = one(open_bids=bids)
    assert summary(p) == [("cancel", 41_000, 1, "b4"), ("cancel", 41_000, 1, "b5")]
    assert p.actions[0].reason == "The level at 41,000 sats wants 4 bids and has more: cancel."


def test_a_floor_outside_the_band_stops_the_pool() -> None:
    bids = (held("b0", 41_000),)
    p = one(open_bids=bids, band=FloorBand(max_floor=55_000))
    assert summary(p) == [("cancel", 41_000, 1, "b0")]
    assert p.actions[0].reason == (
        "Stopped: the floor of 60,000 sats is outside the band (no lower bound, at most "
        "55,000 sats)."
    )


def test_holding_on_stale_data_keeps_bids_within_the_caps_and_renews_nothing() -> None:
    stale = market(PUPPETS, floor=60_000, bids=[(40_000, 1)], fetched_at_ms=NOW - 200_000)
    bids = (held("soon", 41_000, expires=NOW + 60_000), held("high", 55_000))
    p = one(market_=stale, open_bids=bids)
    assert summary(p) == [("cancel", 55_000, 1, "high")]
    assert (
        p.actions[0].reason == "Priced 55,000 sats an item, above the cap of 50,000 sats: cancel."
    )
    assert p.pools[0].kept == ("soon",)
    assert p.pools[0].target.reason.startswith("Holding: the market data is stale")


def test_max_active_bids_are_shared_by_pools_in_order() -> None:
    limits = StrategyLimits(1_000_000, max_active_bids=5)
    p = plan(
        (PoolStrategy(BLUE, FOLLOW, 200_000), PoolState(snap(pool=BLUE))),
        (PoolStrategy(PUPPETS, FOLLOW, 200_000), PoolState(snap())),
        limits=limits,
    )
    assert [(str(pp.pool), pp.active_bids) for pp in p.pools] == [
        ("bitcoin-puppets", 4),
        ("bitcoin-puppets [Background: Blue]", 1),
    ]
    assert p.active_bids == 5


def test_the_total_budget_is_shared_by_pools_in_order_after_fills() -> None:
    limits = StrategyLimits(total_budget_sats=250_000, max_active_bids=20)
    p = plan(
        (PoolStrategy(PUPPETS, FOLLOW, 200_000), PoolState(snap(), spent_sats=0)),
        (PoolStrategy(BLUE, FOLLOW, 200_000), PoolState(snap(pool=BLUE), spent_sats=5_000)),
        limits=limits,
    )
    # 245,000 left after fills: 164,000 to the first pool, 81,000 to the second (1 bid).
    assert [pp.exposure_sats for pp in p.pools] == [164_000, 41_000]
    assert p.pools[1].room.bound_by == (
        "the total budget: 81,000 sats left after fills and the pools before this one"
    )


def test_the_pool_rule_leaves_room_for_the_users_own_bids_and_never_outbids_them() -> None:
    manual = (held("hand", 30_000),)
    strategy = PoolStrategy(PUPPETS, FOLLOW, 200_000)
    p = plan((strategy, PoolState(snap(), manual_bids=manual)), balance=100_000)
    # 100,000 less the 30,000 of the bid by hand: 2 bids, held at its price.
    assert summary(p) == [("place", 30_000, 2, None)]
    assert "held at your own bid at 30,000 sats in this pool" in p.actions[0].reason
    assert p.pools[0].room.bound_by == (
        "the pool rule: the balance of 100,000 sats less 30,000 sats for your other bids in "
        "this pool"
    )


def test_more_than_a_request_holds_is_placed_in_several_requests() -> None:
    strategy = PoolStrategy(PUPPETS, FixedPrice(1_000), 1_500_000)
    p = plan((strategy, PoolState(None)), limits=StrategyLimits(10**7, 2_000), balance=10**7)
    assert summary(p) == [("place", 1_000, 1_000, None), ("place", 1_000, 500, None)]


def test_actions_are_ordered_cancel_renew_place_then_by_pool_and_price() -> None:
    p = plan(
        (
            PoolStrategy(PUPPETS, FOLLOW, 200_000),
            PoolState(snap(), (held("old", 30_000), held("soon", 41_000, expires=NOW + 1))),
        ),
        (PoolStrategy(BLUE, FOLLOW, 200_000), PoolState(snap(pool=BLUE), (held("x", 10_000),))),
    )
    assert [(a.kind, str(a.pool), a.bid_id) for a in p.actions] == [
        ("cancel", "bitcoin-puppets", "old"),
        ("cancel", "bitcoin-puppets [Background: Blue]", "x"),
        ("renew", "bitcoin-puppets", "soon"),
        ("place", "bitcoin-puppets", None),
        ("place", "bitcoin-puppets [Background: Blue]", None),
    ]


def test_a_rune_bid_whose_units_moved_past_the_threshold_is_replaced() -> None:
    rune_market = market(DOG, floor=1, bids=[(0.5, 10)], fetched_at_ms=NOW, rune=True)
    strategy = PoolStrategy(DOG, FixedPrice(Fraction(1, 2)), 100_000)
    kept = plan((strategy, PoolState(rune_market, (HeldBid("r", 100_000, 200_000, EXPIRY, 0),))))
    assert summary(kept) == []
    smaller = HeldBid("r", 50_000, 100_000, EXPIRY, 0)
    p = plan((strategy, PoolState(rune_market, (smaller,))))
    assert summary(p) == [("cancel", 50_000, 100_000, "r"), ("place", 100_000, 200_000, None)]
    assert p.actions[0].reason == (
        "100,000 units where the target is 200,000 (more than 1 % apart): cancel and place the "
        "target."
    )
    assert p.actions[1].reason == (
        "No bid open at this level: place one bid of 200,000 units for 100,000 sats (the fixed "
        "price)."
    )


@pytest.mark.parametrize(
    ("pools", "balance", "match"),
    [
        (
            [(PoolStrategy(PUPPETS, FOLLOW, 1), PoolState(None))] * 2,
            0,
            "pool bitcoin-puppets has two strategies",
        ),
        (
            [
                (PoolStrategy(PUPPETS, FOLLOW, 1), PoolState(None, (held("a", 1_000),))),
                (PoolStrategy(BLUE, FOLLOW, 1), PoolState(None, (), (held("a", 1_000),))),
            ],
            0,
            "bid id 'a' appears twice",
        ),
        ([], -1, "the balance must not be negative"),
    ],
)
def test_inconsistent_input_is_refused(
    pools: list[tuple[PoolStrategy, PoolState]], balance: int, match: str
) -> None:
    with pytest.raises(InvalidStrategy, match=match):
        plan(*pools, balance=balance)


@pytest.mark.parametrize(
    "settings",
    [
        {"bid_lifetime_ms": 15 * 60_000},
        {"renew_before_ms": 0},
        {"renew_before_ms": 29 * 60_000},
        {"update_threshold": Fraction(1)},
        {"max_market_age_ms": -1},
    ],
)
def test_lifecycle_settings_out_of_range_are_refused(settings: dict[str, object]) -> None:
    with pytest.raises(InvalidStrategy):
        LifecycleSettings(**settings)  # type: ignore[arg-type]


def test_a_rune_bid_is_renewed_at_the_target_units_and_price() -> None:
    rune_market = market(DOG, floor=1, bids=[(0.5, 10)], fetched_at_ms=NOW, rune=True)
    strategy = PoolStrategy(DOG, FixedPrice(Fraction(1, 2)), 100_000)
    due = HeldBid("r", 100_500, 201_000, NOW + 60_000, 0)  # within 1 % of 200,000 units
    p = plan((strategy, PoolState(rune_market, (due,))))
    assert summary(p) == [("renew", 100_000, 200_000, "r")]
    assert p.actions[0].bid_expiry_ms == EXPIRY


def test_our_own_bids_in_the_market_never_move_the_target() -> None:
    p = one()
    after = applied(p.pools[0], (), NOW)
    rows = [MarketBid("rival", 40_000, 2, "bc1qrival", "collection", None, None)]
    rows += [
        MarketBid(b.bid_id, b.price, 1, "bc1qbidding", "collection", None, None) for b in after
    ]
    listings = [MarketListing("l1", "x", 60_000, "bc1pseller")]
    ours = frozenset(b.bid_id for b in after)
    with_ours = build_snapshot(
        PUPPETS, rows, listings, own_addresses=frozenset(), own_bid_ids=ours, fetched_at_ms=NOW
    )
    assert with_ours.top_bid == 40_000
    assert one(market_=with_ours, open_bids=after).actions == ()


def test_no_bid_left_of_the_maximum_stops_the_pool_and_says_so() -> None:
    p = plan(
        (PoolStrategy(PUPPETS, FOLLOW, 200_000), PoolState(snap(), (held("b0", 41_000),))),
        limits=StrategyLimits(1_000_000, max_active_bids=0),
    )
    assert summary(p) == [("cancel", 41_000, 1, "b0")]
    assert p.actions[0].reason == (
        f"Stopped: {WHY}: no bid fits, the maximum of active bids is reached."
    )
