"""The strategy engine's share of the bid rate across pools (issue 17; docs/strategies.md).

The spec allows one bid request per 500 ms per receive address (a trait bid on k traits
counts k), across every pool: the address's pace (`BidPacer`) is one queue that all pools
share. `FairScheduler` decides which pool's placements use it, so a pool with many slots to
fill never starves the others: each tick takes at most `units_per_tick` rate units of
placements and renewals, one action per pool per round (round robin), starting with the pool
after the last one served in the previous tick. What is not taken waits for the next tick,
whose plan asks for it again (a plan is idempotent). Cancels cost no bid rate and are not
scheduled here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from app.core.pools import PoolKey
from app.core.strategy_plan import PlanAction


def rate_units(action: PlanAction) -> int:
    """What a placement or renewal costs of the address's pace: a strategy's pool is a
    collection, a rune or ONE trait, so each request counts 1 (the pacer counts it again)."""
    del action
    return 1


@dataclass
class FairScheduler:
    """Round robin over pools, remembering where the last tick stopped."""

    units_per_tick: int
    last_served: PoolKey | None = None
    served: dict[PoolKey, int] = field(default_factory=dict)  # actions taken, per pool

    def __post_init__(self) -> None:
        if self.units_per_tick < 1:
            raise ValueError(f"a tick must allow at least 1 rate unit, got {self.units_per_tick}")

    def take(self, actions: Sequence[PlanAction]) -> list[PlanAction]:
        """The placements and renewals of `actions` this tick may carry out, in order."""
        queues: dict[PoolKey, list[PlanAction]] = {}
        for action in actions:
            if action.kind != "cancel":
                queues.setdefault(action.pool, []).append(action)
        pools = sorted(queues, key=PoolKey.sort_key)
        if self.last_served is not None:  # start with the pool after the last one served
            after = [p for p in pools if p.sort_key() > self.last_served.sort_key()]
            pools = after + [p for p in pools if p not in after]
        taken: list[PlanAction] = []
        budget = self.units_per_tick
        while budget > 0 and any(queues[p] for p in pools):
            for pool in pools:
                if not queues[pool]:
                    continue
                cost = rate_units(queues[pool][0])
                if cost > budget:
                    return taken
                taken.append(queues[pool].pop(0))
                budget -= cost
                self.last_served = pool
                self.served[pool] = self.served.get(pool, 0) + 1
                if budget <= 0:
                    break
        return taken
