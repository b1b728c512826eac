"""What a running strategy tells the user (issue 17): a fill, an outbid, a pool stopped (its
budget spent, or the floor out of its band), told once per change, from what each tick saw.

- **filled**: the pool's fills cost more than after the last tick (the bid log's
  `spent_by_pool`, so a fill found at any tick, or by the start's reconcile, is told once),
  with what is left to bid: the least of the pool's budget and the total budget, less fills
  and open bids (the plan's exposure);
- **outbid**: ours was on top after the last check and a bid is strictly higher now. "On
  top" is the snapshot's rank, or a bid placed at that check above the snapshot's top bid
  (the snapshot is read before the check's actions). Told again only after ours is back on
  top, with what the strategy did: re-bid (`rebid`), or held at its cap (`cap`) when the
  top bid is above it: the case the user must act on;
- **budget_spent** / **stopped**: the pool's plan turned STOP (from BID or HOLD), with the
  plan's reason; a budget spent is told apart (the pool stopped for want of room,
  `PoolTarget.room_short`, and its tightest limit a budget, `PoolRoom.limit`), with the
  room left and what one bid cost at the pool's last bidding check (0: not known).

Pure bookkeeping, no I/O: the host feeds it each `TickReport`, the engine's last market
snapshot per pool and the spent figures.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

from app.core.market_snapshot import MarketSnapshot
from app.core.pools import PoolKey
from app.core.strategy_plan import PoolPlan
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
    budget_left: int = 0  # filled: what is left to bid; budget_spent: the room left
    reason: str = ""  # stopped, budget_spent: the plan's words
    rebid: float = 0  # outbid: the unit price the strategy bid at this check (0: none)
    cap: float = 0  # outbid: the strategy's cap, when the top bid is above it (0: not)
    bid_cost: int = 0  # budget_spent: one bid's cost at the last bidding check (0: unknown)


class NoticeTracker:
    def __init__(
        self, policy_id: str, config: StrategyConfig, spent_at_start: Mapping[str, int]
    ) -> None:
        self.policy_id = policy_id
        self._budgets = {s.pool: s.budget_sats for s in config.pools}
        self._total_budget = config.limits.total_budget_sats
        self._bid_costs: dict[PoolKey, int] = {}  # one bid's cost, at the last BID plan
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
        plans = {p.target.pool: p for p in report.plan.pools} if report.plan else {}
        total_left = self._total_budget - sum(spent.get(str(p), 0) for p in self._budgets)
        if report.plan is not None:
            total_left -= report.plan.exposure_sats
        for pool, budget in self._budgets.items():
            now, before = spent.get(str(pool), 0), self._spent.get(str(pool), 0)
            plan = plans.get(pool)
            if now > before:
                pool_left = budget - now - (plan.exposure_sats if plan is not None else 0)
                out.append(
                    StrategyNotice(
                        "filled",
                        self.policy_id,
                        pool,
                        pool in self._runes,
                        now - before,
                        budget_left=min(pool_left, total_left),
                    )
                )
            self._spent[str(pool)] = now
            out.extend(self._outbid(pool, snapshot_of(pool), report, plan))
        for plan in plans.values():
            target = plan.target
            was = self._status.get(target.pool)
            self._status[target.pool] = target.status
            if target.status == "bid" and plan.active_bids > 0:
                self._bid_costs[target.pool] = -(-plan.exposure_sats // plan.active_bids)
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
                        budget_left=plan.room.sats if budget_gone else 0,
                        bid_cost=self._bid_costs.get(target.pool, 0) if budget_gone else 0,
                    )
                )
        return out

    def _outbid(
        self,
        pool: PoolKey,
        snapshot: MarketSnapshot | None,
        report: TickReport,
        plan: PoolPlan | None,
    ) -> list[StrategyNotice]:
        rebid = _best_placed(pool, report, pool in self._runes)
        if snapshot is None or (not snapshot.my_ranks and rebid is None):
            return []  # no bid of ours in the book: nothing to be outbid on
        best = snapshot.my_ranks[0] if snapshot.my_ranks else None
        was_on_top = self._on_top.get(pool)
        top = snapshot.top_bid
        # The snapshot is read before the check's actions: a bid placed now above its top
        # bid is on top from now on.
        self._on_top[pool] = (best is not None and best.is_top) or (
            rebid is not None and (top is None or rebid > top)
        )
        if not was_on_top or top is None or best is None or best.is_top:
            return []  # none of ours in the book is not an outbid (a fill, a cancel)
        cap = float(plan.target.hold_cap) if plan is not None else 0.0
        return [
            StrategyNotice(
                "outbid",
                self.policy_id,
                pool,
                pool in self._runes,
                top=top,
                ours=best.unit_price,
                rebid=rebid or 0,
                cap=cap if 0 < cap < top else 0,
            )
        ]


def _best_placed(pool: PoolKey, report: TickReport, rune: bool) -> float | None:
    """The highest unit price of the bids placed (or renewed) in the pool at this check."""
    prices = [
        r.action.price / r.action.quantity if rune else r.action.price
        for r in report.results
        if r.done and r.action.pool == pool and r.action.kind != "cancel" and r.action.quantity
    ]
    return max(prices, default=None)
