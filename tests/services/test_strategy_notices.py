"""What a running strategy tells (NoticeTracker), from its checks alone (no I/O): a pool that
stops because its budget is spent is told as such; one stopped by its floor band is not, even
when its tightest limit is a budget; an outbid after the strategy re-bid to the top is told,
with what the strategy did; a fill tells what is left to bid."""

from __future__ import annotations

from fractions import Fraction

from app.core.market_snapshot import BidRank, MarketSnapshot
from app.core.pools import PoolKey
from app.core.strategy_plan import PlanAction, PoolPlan, StrategyPlan
from app.core.strategy_rules import FixedPrice, PoolStrategy
from app.core.strategy_settings import StrategyLimits
from app.core.strategy_targets import PoolRoom, PoolTarget
from app.services.strategy_cancel import ActionResult
from app.services.strategy_engine import StrategyConfig, TickReport
from app.services.strategy_notices import NoticeTracker
from app.services.strategy_reconcile import ReconcileReport

PUNKS = PoolKey("pixel-punks")


def _stopped(reason: str, room_short: bool) -> TickReport:
    target = PoolTarget(PUNKS, "stop", (), reason, Fraction(0), False, room_short)
    plan = PoolPlan(target, PoolRoom(500, 4, "the pool's budget", "pool_budget"), (), (), 0, 0)
    return TickReport(1_000, ReconcileReport(), StrategyPlan((plan,), (), 0, 0))


def _tracker() -> NoticeTracker:
    pools = (PoolStrategy(PUNKS, FixedPrice(13_000), 84_000, rune=False),)
    return NoticeTracker(
        "pixel-pals", StrategyConfig("pixel-pals", pools, StrategyLimits(84_000, 6)), {}
    )


def test_a_budget_spent_is_told_apart_from_a_floor_out_of_its_band() -> None:
    band = "Stopped: the floor of 53,000 sats is outside the band (at most 1,000 sats)."
    (notice,) = _tracker().notices(_stopped(band, room_short=False), lambda _pool: None, {})
    assert (notice.kind, notice.reason) == ("stopped", band)
    spent = "Stopped: the fixed price: no bid fits, the pool's budget."
    (notice,) = _tracker().notices(_stopped(spent, room_short=True), lambda _pool: None, {})
    assert (notice.kind, notice.reason) == ("budget_spent", spent)


def test_a_stop_is_told_once() -> None:
    tracker = _tracker()
    report = _stopped("Stopped: the fixed price: no bid fits, the pool's budget.", True)
    assert len(tracker.notices(report, lambda _pool: None, {})) == 1
    assert tracker.notices(report, lambda _pool: None, {}) == []


def _snapshot(top: float | None, ours: float | None) -> MarketSnapshot:
    ranks: tuple[BidRank, ...] = ()
    if ours is not None:
        on_top = top is None or ours >= top
        below = 0 if on_top or top is None else top - ours
        ranks = (BidRank("b1", ours, 1 if on_top else 2, 2, below, on_top),)
    return MarketSnapshot(PUNKS, 30_000, top, (), (), 2, 1, None, ranks, 1_000, 0)


def _bidding(cap: int, placed_at: int | None, exposure: int = 13_000) -> TickReport:
    target = PoolTarget(PUNKS, "bid", (), "bid", Fraction(cap), False)
    plan = PoolPlan(target, PoolRoom(84_000, 6, "the pool's budget", "pool_budget"), (), (),
                    exposure, 1)  # fmt: skip
    results: tuple[ActionResult, ...] = ()
    if placed_at is not None:
        action = PlanAction("place", PUNKS, placed_at, 1, "place 1")
        results = (ActionResult(action, True, "b2"),)
    return TickReport(1_000, ReconcileReport(), StrategyPlan((plan,), (), exposure, 1), results)


def test_a_bid_placed_above_the_top_counts_as_on_top_so_the_next_outbid_is_told() -> None:
    tracker = _tracker()
    # Ours (11,000) is below a rival's 12,000 when read; the check re-bids at 12,100.
    assert tracker.notices(_bidding(20_000, 12_100), lambda _p: _snapshot(12_000, 11_000), {}) == []
    # The next read: a rival at 25,000, above the cap of 20,000; the strategy holds.
    (notice,) = tracker.notices(_bidding(20_000, None), lambda _p: _snapshot(25_000, 12_100), {})
    assert (notice.kind, notice.top, notice.ours, notice.cap) == ("outbid", 25_000, 12_100, 20_000)
    # Not told again while ours stays below.
    assert tracker.notices(_bidding(20_000, None), lambda _p: _snapshot(25_000, 12_100), {}) == []


def test_an_outbid_below_the_cap_says_the_strategy_bid_again() -> None:
    tracker = _tracker()
    tracker.notices(_bidding(20_000, None), lambda _p: _snapshot(12_000, 13_000), {})
    (notice,) = tracker.notices(_bidding(20_000, 14_100), lambda _p: _snapshot(14_000, 13_000), {})
    assert (notice.rebid, notice.cap) == (14_100, 0)


def test_a_fill_tells_the_least_of_the_pool_and_total_budget_left_after_open_bids() -> None:
    pools = (PoolStrategy(PUNKS, FixedPrice(13_000), 84_000, rune=False),)
    config = StrategyConfig("pixel-pals", pools, StrategyLimits(60_000, 6))
    tracker = NoticeTracker("pixel-pals", config, {})
    report = _bidding(20_000, None, exposure=21_000)
    (notice,) = tracker.notices(report, lambda _p: None, {str(PUNKS): 21_000})
    # pool: 84,000 - 21,000 - 21,000 = 42,000; total: 60,000 - 21,000 - 21,000 = 18,000
    assert (notice.kind, notice.budget_left) == ("filled", 18_000)


def test_a_budget_spent_carries_the_room_left_and_one_bid_s_cost() -> None:
    tracker = _tracker()
    tracker.notices(_bidding(20_000, None, exposure=21_000), lambda _p: None, {})
    target = PoolTarget(PUNKS, "stop", (), "no bid fits", Fraction(20_000), False, True)
    room = PoolRoom(18_000, 5, "the total budget", "total_budget")
    plan = PoolPlan(target, room, (), (), 0, 0)
    report = TickReport(2_000, ReconcileReport(), StrategyPlan((plan,), (), 0, 0))
    (notice,) = tracker.notices(report, lambda _p: None, {})
    assert (notice.kind, notice.budget_left, notice.bid_cost) == ("budget_spent", 18_000, 21_000)


def test_ours_gone_from_the_book_is_not_an_outbid() -> None:
    tracker = _tracker()
    tracker.notices(_bidding(20_000, None), lambda _p: _snapshot(12_000, 13_000), {})
    # Ours filled (or cancelled): none in the book, a rival's on top: not an outbid.
    assert tracker.notices(_bidding(20_000, None), lambda _p: _snapshot(12_000, None), {}) == []
