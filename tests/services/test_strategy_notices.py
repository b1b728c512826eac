"""What a running strategy tells (NoticeTracker), from its checks alone (no I/O): a pool that
stops because its budget is spent is told as such; one stopped by its floor band is not, even
when its tightest limit is a budget."""

from __future__ import annotations

from fractions import Fraction

from app.core.pools import PoolKey
from app.core.strategy_plan import PoolPlan, StrategyPlan
from app.core.strategy_rules import FixedPrice, PoolStrategy
from app.core.strategy_settings import StrategyLimits
from app.core.strategy_targets import PoolRoom, PoolTarget
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
