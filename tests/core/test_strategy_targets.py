"""A strategy's target per pool: each kind's price on the grid, caps, sizing, hold and stop."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

import pytest

from app.core.bid_request import Trait
from app.core.market_snapshot import (
    BidKindName,
    MarketBid,
    MarketListing,
    MarketSnapshot,
    build_snapshot,
)
from app.core.pools import MakerFee, PoolKey
from app.core.strategy_rules import (
    AboveTopBid,
    BelowFloor,
    FixedPrice,
    FloorBand,
    InvalidStrategy,
    Ladder,
    LadderStep,
    PoolStrategy,
    StrategyRule,
)
from app.core.strategy_targets import HeldBid, PoolRoom, PoolTarget, TargetLevel, compute_target

PUPPETS = PoolKey("bitcoin-puppets")
BLUE = PoolKey("bitcoin-puppets", Trait("Background", "Blue"))
DOG = PoolKey("DOG•GO•TO•THE•MOON")
ME = "bc1qme"
NO_FEE = MakerFee(0, 0)
ONE_PCT = MakerFee(100, 0)
ROOM = PoolRoom(200_000, 10, "the pool's budget")
NOW = 100_000
MAX_AGE = 120_000


def market(
    pool: PoolKey = PUPPETS,
    floor: float | None = 60_000,
    bids: Iterable[tuple[float, int]] = ((40_000, 2),),
    mine: Iterable[tuple[float, int]] = (),
    fetched_at_ms: int = NOW - 1_000,
) -> MarketSnapshot:
    kind: BidKindName = "rune" if pool == DOG else ("trait" if pool.trait else "collection")
    rows = [
        MarketBid(f"r{i}", price, units, "bc1qrival", kind, pool.trait, None)
        for i, (price, units) in enumerate(bids)
    ]
    rows += [
        MarketBid(f"m{i}", price, units, ME, kind, pool.trait, None)
        for i, (price, units) in enumerate(mine)
    ]
    listings = [] if floor is None else [MarketListing("l1", "x", floor, "bc1pseller")]
    return build_snapshot(
        pool,
        rows,
        listings,
        own_addresses=frozenset({ME}),
        own_bid_ids=frozenset(),
        fetched_at_ms=fetched_at_ms,
    )


def target(
    rule: StrategyRule,
    snap: MarketSnapshot | None,
    *,
    pool: PoolKey = PUPPETS,
    room: PoolRoom = ROOM,
    fee: MakerFee = NO_FEE,
    manual: tuple[HeldBid, ...] = (),
    band: FloorBand | None = None,
) -> PoolTarget:
    strategy = PoolStrategy(pool, rule, 1_000_000, floor_band=band)
    return compute_target(
        strategy, snap, room, fee=fee, manual_bids=manual, now_ms=NOW, max_market_age_ms=MAX_AGE
    )


def prices(t: PoolTarget) -> list[tuple[int, int]]:
    return [(lv.price, lv.quantity) for lv in t.levels]


def test_fixed_price_sized_by_the_room_with_the_maker_fee() -> None:
    t = target(FixedPrice(45_000), market(), fee=ONE_PCT)
    # 45,000 + 1 % = 45,450 a bid: 4 fit in 200,000.
    assert t.status == "bid"
    assert t.levels == (
        TargetLevel(45_000, 4, Fraction(45_000), Fraction(45_000), 200_000, "the fixed price"),
    )
    assert t.reason == "4 bids at 45,000 sats (the fixed price)."


def test_fixed_price_needs_no_market_but_the_room_of_active_bids_bounds_it() -> None:
    t = target(FixedPrice(10_000), None, room=PoolRoom(200_000, 3, "the maximum of bids"))
    assert (t.status, prices(t)) == ("bid", [(10_000, 3)])


def test_a_fixed_price_off_the_grid_is_rounded_down_to_a_step() -> None:
    t = target(FixedPrice(Fraction(45_999)), None)
    assert prices(t) == [(45_000, 4)]


def test_the_users_own_bid_in_the_pool_is_a_ceiling() -> None:
    manual = (HeldBid("hand", 40_000, 1, NOW + 10**6, 0),)
    t = target(FixedPrice(45_000), None, manual=manual)
    assert prices(t) == [(40_000, 5)]
    assert t.levels[0].why == "the fixed price, held at your own bid at 40,000 sats in this pool"
    assert t.hold_cap == 40_000


@pytest.mark.parametrize(
    ("floor", "percent", "cap", "expected", "why"),
    [
        (60_000, 10, 100_000, 54_000, "10 % below the floor of 60,000 sats"),
        (55_555, 10, 100_000, 49_000, "10 % below the floor of 55,555 sats"),
        (
            60_000,
            10,
            52_500,
            52_000,
            "10 % below the floor of 60,000 sats, held at the cap of 52,500 sats",
        ),
        (60_000, Fraction(25, 2), 100_000, 52_000, "12.5 % below the floor of 60,000 sats"),
    ],
)
def test_below_the_floor(
    floor: float, percent: Fraction | int, cap: int, expected: int, why: str
) -> None:
    t = target(BelowFloor(percent, cap), market(floor=floor))
    assert t.status == "bid"
    assert (t.levels[0].price, t.levels[0].why) == (expected, why)
    assert t.levels[0].quantity == 200_000 // expected


@pytest.mark.parametrize(
    ("snap", "reason"),
    [
        (
            None,
            "Holding: no market data; a price relative to the market is not set on missing data.",
        ),
        (
            market(fetched_at_ms=NOW - MAX_AGE - 1),
            "Holding: the market data is stale; a price relative to the market is not set on "
            "missing data.",
        ),
        (market(floor=None), "Holding: no listing, so no floor to bid below."),
    ],
)
def test_below_the_floor_does_not_act_on_missing_data(
    snap: MarketSnapshot | None, reason: str
) -> None:
    t = target(BelowFloor(10, 100_000), snap)
    assert (t.status, t.levels, t.reason) == ("hold", (), reason)
    assert t.hold_cap == 100_000


def test_a_snapshot_exactly_max_age_old_is_still_fresh() -> None:
    t = target(BelowFloor(10, 100_000), market(fetched_at_ms=NOW - MAX_AGE))
    assert t.status == "bid"


@pytest.mark.parametrize(
    ("bids", "mine", "cap", "share", "floor", "expected", "why"),
    [
        (
            [(40_000, 2)],
            [],
            50_000,
            90,
            60_000,
            41_000,
            "one step above the top competing bid of 40,000 sats",
        ),
        (
            [(40_500, 1)],
            [],
            50_000,
            90,
            60_000,
            41_000,
            "one step above the top competing bid of 40,500 sats",
        ),
        # Our own bids (the strategy's or by hand) are never competition: no outbidding them.
        (
            [(40_000, 2)],
            [(47_000, 1)],
            50_000,
            90,
            60_000,
            41_000,
            "one step above the top competing bid of 40,000 sats",
        ),
        (
            [(46_000, 1)],
            [],
            45_000,
            90,
            60_000,
            45_000,
            "one step above the top competing bid of 46,000 sats, held at the cap of 45,000 sats,"
            " below the top bid of 46,000 sats: your bids will not be on top",
        ),
        (
            [(40_000, 1)],
            [],
            50_000,
            90,
            44_000,
            39_000,
            "one step above the top competing bid "
            "of 40,000 sats, held at 90 % of the floor of 44,000 sats, below the top bid of"
            " 40,000 sats: your bids will not be on top",
        ),
    ],
)
def test_above_the_top_competing_bid(
    bids: list[tuple[float, int]],
    mine: list[tuple[float, int]],
    cap: int,
    share: int,
    floor: float,
    expected: int,
    why: str,
) -> None:
    t = target(AboveTopBid(cap, share), market(floor=floor, bids=bids, mine=mine))
    assert (t.status, t.levels[0].price, t.levels[0].why) == ("bid", expected, why)


def test_above_the_top_bid_without_competition_waits_or_opens() -> None:
    alone = market(bids=())
    assert target(AboveTopBid(50_000, 90), alone).reason == "Holding: no competing bid to follow."
    t = target(AboveTopBid(50_000, 90, opening_unit_price=30_500), alone)  # to the grid
    assert prices(t) == [(30_000, 6)]
    assert t.levels[0].why == "the opening price (no competing bid)"


def test_above_the_top_bid_needs_a_floor_for_its_share() -> None:
    t = target(AboveTopBid(50_000, 90), market(floor=None))
    assert (t.status, t.reason) == (
        "hold",
        "Holding: no listing, so no floor to keep the price under.",
    )


def test_a_trait_pool_prices_like_a_collection() -> None:
    t = target(AboveTopBid(50_000, 90), market(pool=BLUE), pool=BLUE)
    assert prices(t) == [(41_000, 4)]


def test_ladder_levels_share_the_room() -> None:
    ladder = Ladder(
        (
            LadderStep(BelowFloor(20, 100_000), 50),
            LadderStep(BelowFloor(30, 100_000), 30),
            LadderStep(AboveTopBid(100_000, 90), 20),
        )
    )
    t = target(ladder, market())
    # 48,000 with 100,000 sats: 2; 42,000 with 60,000: 1; 41,000 with 40,000: none.
    assert t.status == "bid"
    assert [(lv.price, lv.quantity, lv.room_sats) for lv in t.levels] == [
        (48_000, 2, 100_000),
        (42_000, 1, 60_000),
    ]
    assert t.reason == (
        "2 bids at 48,000 sats (20 % below the floor of 60,000 sats); 1 bid at 42,000 sats "
        "(30 % below the floor of 60,000 sats) (one step above the top competing bid of "
        "40,000 sats: no bid fits, the pool's budget)."
    )


def test_ladder_steps_on_one_price_are_one_level_with_their_shares_added() -> None:
    ladder = Ladder(
        (LadderStep(BelowFloor(10, 50_000), 40), LadderStep(BelowFloor(20, 50_000), 40))
    )
    t = target(ladder, market(floor=100_000))
    # Both steps are held at the cap of 50,000: one level with 80 % of the room.
    assert [(lv.price, lv.quantity, lv.room_sats) for lv in t.levels] == [(50_000, 3, 160_000)]


def test_a_ladder_step_without_a_price_is_skipped_and_said() -> None:
    ladder = Ladder(
        (LadderStep(AboveTopBid(100_000, 90), 50), LadderStep(BelowFloor(20, 100_000), 50))
    )
    t = target(ladder, market(bids=()))
    assert prices(t) == [(48_000, 2)]
    assert t.reason.endswith("(a step has no price (no competing bid to follow)).")


def test_rune_prices_are_per_unit_and_the_bid_is_one_total() -> None:
    snap = market(pool=DOG, floor=0.5, bids=[(0.35, 100_000)])
    t = target(AboveTopBid(Fraction(45, 100), 90), snap, pool=DOG)
    # 199,999 / 0.35 -> 571,425 units; one sat above 0.35 x 571,425 = 199,998.75.
    (level,) = t.levels
    assert (level.price, level.quantity) == (199_999, 571_425)
    assert level.unit_price > Fraction(35, 100)
    assert t.reason == (
        "One bid of 571,425 units for 199,999 sats (just above the top competing bid of "
        "0.35 sats a unit)."
    )
    below = target(BelowFloor(10, 1), snap, pool=DOG)
    assert prices(below) == [(199_999, 444_444)]  # 0.45 a unit: 200,000 / 0.45 = 444,444.4


def test_a_rune_bid_under_the_minimum_total_stops_the_pool() -> None:
    snap = market(pool=DOG, floor=0.5, bids=[(0.35, 100_000)])
    t = target(FixedPrice(Fraction(1, 2)), snap, pool=DOG, room=PoolRoom(9_999, 5, "x"))
    assert t.status == "stop"
    assert t.reason == "Stopped: the fixed price: its room buys less than 10,000 sats."


def test_an_ordinals_price_under_one_step_stops_the_pool() -> None:
    t = target(BelowFloor(50, 100_000), market(floor=1_500))
    assert t.status == "stop"
    assert "below the lowest price, 1,000 sats" in t.reason
    assert not t.room_short


def test_no_room_stops_the_pool_and_names_the_limit() -> None:
    room = PoolRoom(30_000, 10, "the pool rule: the balance of 30,000 sats")
    t = target(FixedPrice(45_000), None, room=room)
    assert (t.status, t.reason) == (
        "stop",
        "Stopped: the fixed price: no bid fits, the pool rule: the balance of 30,000 sats.",
    )
    assert t.room_short  # the notices tell a budget spent from the floor band


def test_the_floor_band() -> None:
    band = FloorBand(min_floor=50_000, max_floor=70_000)
    assert target(FixedPrice(45_000), market(floor=60_000), band=band).status == "bid"
    t = target(FixedPrice(45_000), market(floor=71_000), band=band)
    assert (t.status, t.reason) == (
        "stop",
        "Stopped: the floor of 71,000 sats is outside the band (at least 50,000 sats, at most "
        "70,000 sats).",
    )
    assert not t.room_short
    assert target(FixedPrice(45_000), market(floor=49_000), band=band).status == "stop"
    held = target(FixedPrice(45_000), None, band=band)
    assert (held.status, held.reason) == (
        "hold",
        "Holding: no market data, so the floor band cannot be checked.",
    )


def test_a_market_of_another_pool_is_refused() -> None:
    with pytest.raises(InvalidStrategy, match="of pool bitcoin-puppets"):
        target(FixedPrice(45_000), market(), pool=BLUE)
    ordinals_read = build_snapshot(
        DOG,
        [],
        [],
        own_addresses=frozenset(),
        own_bid_ids=frozenset(),
        fetched_at_ms=NOW,
        rune=False,
    )
    with pytest.raises(InvalidStrategy, match="is an ordinals pool, the strategy's not"):
        target(FixedPrice(1), ordinals_read, pool=DOG)


@pytest.mark.parametrize(
    "build",
    [
        lambda: FixedPrice(0),
        lambda: BelowFloor(100, 10_000),
        lambda: BelowFloor(-1, 10_000),
        lambda: AboveTopBid(10_000, 0),
        lambda: AboveTopBid(10_000, 101),
        lambda: AboveTopBid(10_000, 90, opening_unit_price=0),
        lambda: Ladder(()),
        lambda: Ladder((LadderStep(FixedPrice(1_000), 60), LadderStep(FixedPrice(2_000), 41))),
        lambda: LadderStep(FixedPrice(1_000), 0),
        lambda: PoolStrategy(PUPPETS, FixedPrice(1_000), -1),
    ],
)
def test_settings_out_of_range_are_refused(build: object) -> None:
    with pytest.raises(InvalidStrategy):
        build()  # type: ignore[operator]


def test_a_ladder_whose_steps_all_wait_for_the_market_holds() -> None:
    ladder = Ladder(
        (LadderStep(AboveTopBid(100_000, 90), 50), LadderStep(AboveTopBid(90_000, 80), 50))
    )
    t = target(ladder, market(bids=()))
    assert (t.status, t.levels) == ("hold", ())
    assert t.reason == (
        "Holding: a step has no price (no competing bid to follow); a step has no price (no "
        "competing bid to follow)."
    )
    assert t.hold_cap == 100_000


def test_a_ladder_on_missing_data_holds_even_with_a_fixed_step() -> None:
    ladder = Ladder((LadderStep(FixedPrice(10_000), 50), LadderStep(BelowFloor(10, 90_000), 50)))
    t = target(ladder, None)
    assert t.status == "hold"
    assert t.reason.startswith("Holding: no market data")
