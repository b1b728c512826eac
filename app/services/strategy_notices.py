"""What a running strategy tells the user (issue 17): a fill, an outbid, a pool stopped (its
budget spent, or the floor out of its band), told once per change, from what each tick saw.

- **filled**: the pool's fills cost more than after the last tick (the bid log's
  `spent_by_pool`, so a fill found at any tick, or by the start's reconcile, is told once);
- **outbid**: the pool's best bid of ours was the top bid at the last tick and is not now
  (another bid is strictly higher); told again only after ours is back on top;
- **budget_spent** / **stopped**: the pool's plan turned STOP (from BID or HOLD), with the
  plan's reason; a budget spent is told apart (the pool stopped for want of room,
  `PoolTarget.room_short`, and its tightest limit a budget, `PoolRoom.limit`).

Pure bookkeeping, no I/O: the host feeds it each `TickReport`, the engine's last market
snapshot per pool and the spent figures.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

from app.core.market_snapshot import MarketSnapshot
from app.core.pools import PoolKey
from app.services.strategy_engine import StrategyConfig, TickReport

NoticeKind = Literal["filled", "outbid", "budget_spent", "stopped"]
_BUDGET_LIMITS = ("pool_budget", "total_budget")


@dataclass(frozen=True)
class StrategyNotice:
    kind: NoticeKind
    policy_id: str
    pool: PoolKey
    is_rune: bool = False  # prices per rune unit, not per item
    sats: int = 0  # filled: what the fills cost
    top: float = 0  # outbid: the top bid's unit price (per item, or per rune unit)
    ours: float = 0  # outbid: our best bid's unit price
    budget_left: int = 0  # filled: what is left of the pool's budget
    reason: str = ""  # stopped, budget_spent: the plan's words


class NoticeTracker:
    def __init__(
        self, policy_id: str, config: StrategyConfig, spent_at_start: Mapping[str, int]
    ) -> None:
        self.policy_id = policy_id
        self._budgets = {s.pool: s.budget_sats for s in config.pools}
        self._runes = {s.pool for s in config.pools if s.is_rune}
        self._spent = dict(spent_at_start)
        self._on_top: dict[PoolKey, bool] = {}
        self._status: dict[PoolKey, str] = {}

    def notices(
        self,
        report: TickReport,
        snapshot_of: Callable[[PoolKey], MarketSnapshot | None],
        spent: Mapping[str, int],
    ) -> list[StrategyNotice]:
        out: list[StrategyNotice] = []
        for pool, budget in self._budgets.items():
            now, before = spent.get(str(pool), 0), self._spent.get(str(pool), 0)
            if now > before:
                out.append(
                    StrategyNotice(
                        "filled",
                        self.policy_id,
                        pool,
                        pool in self._runes,
                        now - before,
                        budget_left=budget - now,
                    )
                )
            self._spent[str(pool)] = now
            out.extend(self._outbid(pool, snapshot_of(pool)))
        if report.plan is not None:
            for plan in report.plan.pools:
                target = plan.target
                was = self._status.get(target.pool)
                self._status[target.pool] = target.status
                if target.status == "stop" and was != "stop":
                    budget_gone = target.room_short and plan.room.limit in _BUDGET_LIMITS
                    kind: NoticeKind = "budget_spent" if budget_gone else "stopped"
                    out.append(
                        StrategyNotice(
                            kind,
                            self.policy_id,
                            target.pool,
                            target.pool in self._runes,
                            reason=target.reason,
                        )
                    )
        return out

    def _outbid(self, pool: PoolKey, snapshot: MarketSnapshot | None) -> list[StrategyNotice]:
        if snapshot is None or not snapshot.my_ranks:
            return []  # no bid of ours in the book: nothing to be outbid on
        best = snapshot.my_ranks[0]
        was_on_top = self._on_top.get(pool)
        self._on_top[pool] = best.is_top
        if was_on_top and not best.is_top and snapshot.top_bid is not None:
            return [
                StrategyNotice(
                    "outbid",
                    self.policy_id,
                    pool,
                    pool in self._runes,
                    top=snapshot.top_bid,
                    ours=best.unit_price,
                )
            ]
        return []
