"""The fair share of the bid rate across pools: round robin, resumed where a tick stopped."""

from __future__ import annotations

from collections import Counter

import pytest

from app.core.bid_request import Trait
from app.core.pools import PoolKey
from app.core.strategy_plan import PlanAction
from app.core.strategy_schedule import FairScheduler

A, B, C = PoolKey("aa"), PoolKey("bb"), PoolKey("cc", Trait("hat", "red"))


def wants(pool: PoolKey, count: int) -> list[PlanAction]:
    return [PlanAction("place", pool, 1_000 * (i + 1), 1, "r") for i in range(count)]


def test_each_pool_gets_a_turn_before_any_gets_a_second() -> None:
    taken = FairScheduler(3).take(wants(A, 10) + wants(B, 10) + wants(C, 10))
    assert [a.pool for a in taken] == [A, B, C]


def test_a_budget_smaller_than_the_pools_rotates_across_ticks() -> None:
    scheduler = FairScheduler(2)
    served: Counter[PoolKey] = Counter()
    for _ in range(3):  # the plan asks for the same again each tick
        served.update(a.pool for a in scheduler.take(wants(A, 10) + wants(B, 10) + wants(C, 10)))
    assert served == {A: 2, B: 2, C: 2}


@pytest.mark.parametrize(("units", "ticks"), [(1, 7), (4, 5), (5, 9)])
def test_over_ticks_no_pool_gets_more_than_one_turn_ahead(units: int, ticks: int) -> None:
    scheduler = FairScheduler(units)
    served: Counter[PoolKey] = Counter()
    for _ in range(ticks):
        served.update(a.pool for a in scheduler.take(wants(A, 50) + wants(B, 50) + wants(C, 50)))
    assert sum(served.values()) == units * ticks
    assert max(served.values()) - min(served.values()) <= 1


def test_a_pool_with_little_to_do_leaves_its_share_to_the_others() -> None:
    taken = FairScheduler(6).take(wants(A, 1) + wants(B, 10))
    assert Counter(a.pool for a in taken) == {A: 1, B: 5}


def test_cancels_are_not_scheduled_and_order_within_a_pool_is_kept() -> None:
    cancel = PlanAction("cancel", A, 5_000, 1, "r", bid_id="x")
    taken = FairScheduler(10).take([cancel, *wants(A, 3)])
    assert [a.price for a in taken] == [1_000, 2_000, 3_000]


def test_a_tick_allows_at_least_one_unit() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        FairScheduler(0)
