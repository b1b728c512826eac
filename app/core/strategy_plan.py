"""From a strategy's open bids to its targets: what to place, cancel and renew (issue 17).

Pure and deterministic: `plan_strategy` takes every pool's strategy and state, the live balance,
the limits and `now_ms`, and returns the actions in a fixed order, each with its reason in plain
words (the dry run and the journal print them). The rules (docs/strategies.md):

- Room. A pool's bids (maker fee included) fit within the least of: its budget less what its
  fills cost; the total budget less all fills and the pools planned before it (pools in
  `PoolKey.sort_key` order); the balance less the user's other bids in the pool (the pool rule);
  and the bids left of `max_active_bids`. So a plan never commits more than the budgets, even if
  every bid fills.
- STOP cancels the pool's bids; HOLD (missing or stale market) keeps those within the caps and
  the room, places and renews nothing (a renewal would be a new price on missing data).
- BID: each open bid joins the level nearest its unit price when within `update_threshold` of
  it (runes: its units too), never above the level's cap; otherwise it is cancelled and the
  level's slot re-placed at the target (cancel-and-replace). A level keeps its bids by time
  priority (not expiring first, nearest the target, oldest, id) while they fit its room; one
  expiring within `renew_before_ms` is renewed: a new bid message with a new timestamp (spec
  retry rule 1) at the target, the old one cancelled. Missing slots (after a fill, or new) are
  placed within the room left.
- Idempotent: the target does not depend on the open bids, so once the actions are applied a
  new plan for the same market keeps every bid and acts no more.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final, Literal

from app.core import limits
from app.core.market_snapshot import MarketSnapshot
from app.core.pools import MakerFee, PoolKey, bid_cost
from app.core.strategy_rules import InvalidStrategy, PoolStrategy
from app.core.strategy_settings import LifecycleSettings, StrategyLimits
from app.core.strategy_targets import (
    HeldBid,
    PoolRoom,
    PoolTarget,
    TargetLevel,
    TargetStatus,
    compute_target,
    percent,
    sats,
)

ActionKind = Literal["cancel", "renew", "place"]
_KIND_ORDER: Final = {"cancel": 0, "renew": 1, "place": 2}


@dataclass(frozen=True)
class PoolState:
    """What the engine knows of one pool this tick."""

    snapshot: MarketSnapshot | None  # None: not read yet (a relative rule then holds)
    open_bids: tuple[HeldBid, ...] = ()  # this strategy's open bids in the pool
    manual_bids: tuple[HeldBid, ...] = ()  # the user's other open bids in the pool
    spent_sats: int = 0  # what the pool's fills cost so far (maker fee included)


@dataclass(frozen=True)
class PlanAction:
    kind: ActionKind
    pool: PoolKey
    price: int  # wire price (per item; a rune bid's total)
    quantity: int  # bids placed (ordinals), or units (runes); the cancelled bid's quantity
    reason: str
    bid_id: str | None = None  # the bid cancelled, or renewed (replaced)
    bid_expiry_ms: int | None = None  # a placed or renewed bid's expiry

    def sort_key(self) -> tuple[int, tuple[str, bool, str, str], int, str]:
        return (_KIND_ORDER[self.kind], self.pool.sort_key(), -self.price, self.bid_id or "")


@dataclass(frozen=True)
class PoolPlan:
    target: PoolTarget
    room: PoolRoom
    kept: tuple[str, ...]  # ids of the open bids kept as they are
    actions: tuple[PlanAction, ...]
    exposure_sats: int  # what the pool's bids commit once the actions are applied
    active_bids: int

    @property
    def pool(self) -> PoolKey:
        return self.target.pool

    @property
    def status(self) -> TargetStatus:
        return self.target.status


@dataclass(frozen=True)
class StrategyPlan:
    pools: tuple[PoolPlan, ...]
    actions: tuple[PlanAction, ...]  # every pool's, in the order to apply them
    exposure_sats: int
    active_bids: int


def plan_strategy(
    pools: Sequence[tuple[PoolStrategy, PoolState]],
    *,
    balance_sats: int,
    budgets: StrategyLimits,
    fee: MakerFee,
    settings: LifecycleSettings,
    now_ms: int,
) -> StrategyPlan:
    """Every pool's plan, pools in `PoolKey.sort_key` order, actions cancel, renew, place."""
    if balance_sats < 0:
        raise InvalidStrategy(f"the balance must not be negative, got {balance_sats}")
    _check_unique(pools)
    total_left = budgets.total_budget_sats - sum(state.spent_sats for _, state in pools)
    bids_left = budgets.max_active_bids
    plans: list[PoolPlan] = []
    for strategy, state in sorted(pools, key=lambda p: p[0].pool.sort_key()):
        room = pool_room(strategy, state, balance_sats, fee, total_left, bids_left)
        target = compute_target(
            strategy,
            state.snapshot,
            room,
            fee=fee,
            manual_bids=state.manual_bids,
            now_ms=now_ms,
            max_market_age_ms=settings.max_market_age_ms,
        )
        plan = plan_pool(target, state, room, fee=fee, settings=settings, now_ms=now_ms)
        plans.append(plan)
        total_left -= plan.exposure_sats
        bids_left -= plan.active_bids
    actions = sorted((a for p in plans for a in p.actions), key=PlanAction.sort_key)
    return StrategyPlan(
        tuple(plans),
        tuple(actions),
        sum(p.exposure_sats for p in plans),
        sum(p.active_bids for p in plans),
    )


def _check_unique(pools: Sequence[tuple[PoolStrategy, PoolState]]) -> None:
    seen_pools: set[PoolKey] = set()
    seen_ids: set[str] = set()
    for strategy, state in pools:
        if strategy.pool in seen_pools:
            raise InvalidStrategy(f"pool {strategy.pool} has two strategies")
        seen_pools.add(strategy.pool)
        if state.spent_sats < 0:
            raise InvalidStrategy(f"pool {strategy.pool}: spent sats must not be negative")
        for bid in state.open_bids + state.manual_bids:
            if bid.bid_id in seen_ids:
                raise InvalidStrategy(f"bid id {bid.bid_id!r} appears twice")
            if bid.quantity < 1 or bid.price < 0:
                raise InvalidStrategy(f"bid {bid.bid_id!r} has no quantity or a negative price")
            seen_ids.add(bid.bid_id)


def pool_room(
    strategy: PoolStrategy,
    state: PoolState,
    balance_sats: int,
    fee: MakerFee,
    total_left: int,
    bids_left: int,
) -> PoolRoom:
    """The tightest of the pool's limits (see the module docstring), named in words."""
    rune = strategy.is_rune
    manual = sum(b.cost(rune, fee) for b in state.manual_bids)
    pool_left = strategy.budget_sats - state.spent_sats
    candidates = [
        (
            pool_left,
            f"the pool's budget: {sats(state.spent_sats)} of {sats(strategy.budget_sats)}"
            f" spent, {sats(max(0, pool_left))} left",
            "pool_budget",
        ),
        (
            total_left,
            f"the total budget: {sats(max(0, total_left))} left after fills and the "
            f"pools before this one",
            "total_budget",
        ),
        (
            balance_sats - manual,
            f"the pool rule: the balance of {sats(balance_sats)} less "
            f"{sats(manual)} for your other bids in this pool",
            "balance",
        ),
    ]
    room_sats, bound_by, limit = min(candidates, key=lambda c: c[0])
    bids = max(0, bids_left)
    if bids == 0:
        bound_by, limit = "the maximum of active bids is reached", "max_bids"
    return PoolRoom(max(0, room_sats), bids, bound_by, limit)


def plan_pool(
    target: PoolTarget,
    state: PoolState,
    room: PoolRoom,
    *,
    fee: MakerFee,
    settings: LifecycleSettings,
    now_ms: int,
) -> PoolPlan:
    """One pool's actions from its target and open bids (see the module docstring)."""
    planner = _PoolPlanner(target, room, fee, settings, now_ms)
    if target.status == "stop":
        for bid in state.open_bids:
            planner.cancel(bid, target.reason)
    elif target.status == "hold":
        planner.hold(state.open_bids)
    else:
        matched = planner.match(state.open_bids)
        for level, bids in zip(target.levels, matched, strict=True):
            planner.level(level, bids)
        if state.spent_sats > 0:  # say why slots are open again
            note = f" After fills costing {sats(state.spent_sats)}, within the budget left."
            planner.note_placements(note)
    actions = tuple(sorted(planner.actions, key=PlanAction.sort_key))
    kept = tuple(sorted(planner.kept))
    return PoolPlan(target, room, kept, actions, planner.sats, planner.bids)


@dataclass
class _PoolPlanner:
    """One pool's plan being made: what its bids commit so far, what it keeps and does."""

    target: PoolTarget
    room: PoolRoom
    fee: MakerFee
    settings: LifecycleSettings
    now_ms: int
    sats: int = 0  # committed by the bids kept, renewed and placed so far (maker fee included)
    bids: int = 0
    kept: list[str] = field(default_factory=list)
    actions: list[PlanAction] = field(default_factory=list)

    @property
    def rune(self) -> bool:
        return self.target.is_rune

    def fits(self, cost: int, count: int, sats_limit: int) -> bool:
        return self.sats + cost <= sats_limit and self.bids + count <= self.room.bids

    def take(self, cost: int, count: int) -> None:
        self.sats += cost
        self.bids += count

    def cancel(self, bid: HeldBid, reason: str) -> None:
        pool = self.target.pool
        self.actions.append(
            PlanAction("cancel", pool, bid.price, bid.quantity, reason, bid_id=bid.bid_id)
        )

    def note_placements(self, note: str) -> None:
        self.actions = [
            dataclasses.replace(a, reason=a.reason + note) if a.kind == "place" else a
            for a in self.actions
        ]

    def hold(self, open_bids: tuple[HeldBid, ...]) -> None:
        """Keep what is within the caps and the room, oldest first; place and renew nothing."""
        rune, cap = self.rune, self.target.hold_cap
        for bid in sorted(open_bids, key=lambda b: (b.placed_at_ms, b.bid_id)):
            unit = bid.unit_price(rune)
            cost, count = bid.cost(rune, self.fee), bid.bid_count(rune)
            if unit > cap:
                self.cancel(
                    bid, f"Priced {sats(unit)}{_per(rune)}, above the cap of {sats(cap)}: cancel."
                )
            elif not self.fits(cost, count, self.room.sats):
                self.cancel(bid, f"Keeping it would pass {self.room.bound_by}: cancel.")
            else:
                self.take(cost, count)
                self.kept.append(bid.bid_id)

    def match(self, open_bids: tuple[HeldBid, ...]) -> list[list[HeldBid]]:
        """Each open bid on the nearest level within the threshold; the others cancelled."""
        levels, rune = self.target.levels, self.rune
        threshold = self.settings.update_threshold
        matched: list[list[HeldBid]] = [[] for _ in levels]
        for bid in sorted(open_bids, key=lambda b: b.bid_id):
            unit = bid.unit_price(rune)
            near = sorted(range(len(levels)), key=lambda i: (abs(unit - levels[i].unit_price), i))
            chosen = next((i for i in near if _within(bid, levels[i], threshold, rune)), None)
            if chosen is None:
                self.cancel(bid, _moved_reason(bid, levels[near[0]], threshold, rune))
            else:
                matched[chosen].append(bid)
        return matched

    def level(self, level: TargetLevel, bids: list[HeldBid]) -> None:
        """Keep or renew the level's bids in time priority, cancel the rest, place what is
        missing, all within its slots and its share of the room."""
        rune, now = self.rune, self.now_ms
        slots = 1 if rune else level.quantity
        limit = self.sats + level.room_sats
        renew_before = self.settings.renew_before_ms

        def priority(b: HeldBid) -> tuple[bool, Fraction, int, str]:
            due = b.expires_at_ms - now <= renew_before
            return (due, abs(b.unit_price(rune) - level.unit_price), b.placed_at_ms, b.bid_id)

        used = 0
        for bid in sorted(bids, key=priority):
            due = bid.expires_at_ms - now <= renew_before
            count = bid.bid_count(rune)
            cost = count * bid_cost(level.price, self.fee) if due else bid.cost(rune, self.fee)
            units = 1 if rune else bid.quantity
            if used + units > slots:
                self.cancel(
                    bid,
                    f"The level at {sats(level.price)} wants {_bids(slots, rune)} "
                    f"and has more: cancel.",
                )
            elif not self.fits(cost, count, limit):
                self.cancel(
                    bid,
                    f"Keeping it would pass the level's share of the room "
                    f"({self.room.bound_by}): cancel.",
                )
            else:
                used += units
                self.take(cost, count)
                if due:
                    self.renew(bid, level)
                else:
                    self.kept.append(bid.bid_id)
        self.place_missing(level, slots - used, limit, used)

    def renew(self, bid: HeldBid, level: TargetLevel) -> None:
        left = max(0, (bid.expires_at_ms - self.now_ms) // 1000)
        reason = (
            f"Expires in {left} s (renewed {self.settings.renew_before_ms // 1000} s before it "
            f"lapses): a new bid message with a new timestamp (spec retry rule 1), at the "
            f"target {sats(level.price)}."
        )
        quantity = level.quantity if self.rune else bid.quantity
        self.actions.append(
            PlanAction(
                "renew",
                self.target.pool,
                level.price,
                quantity,
                reason,
                bid_id=bid.bid_id,
                bid_expiry_ms=self.now_ms + self.settings.bid_lifetime_ms,
            )
        )

    def place_missing(self, level: TargetLevel, missing: int, limit: int, held: int) -> None:
        if missing <= 0:
            return
        rune = self.rune
        per = bid_cost(level.price, self.fee)
        if rune:
            placing = 1 if self.fits(per, 1, limit) else 0
        else:
            placing = min(missing, max(0, limit - self.sats) // per, self.room.bids - self.bids)
        if placing <= 0:
            return
        if rune:
            reason = f"No bid open at this level: place {level.describe(rune)}."
        else:
            reason = (
                f"Open: {held:,} of the {_bids(level.quantity, rune)} wanted at "
                f"{sats(level.price)}; place {placing:,} ({level.why})."
            )
            if placing < missing:
                reason += f" {missing - placing:,} more would pass {self.room.bound_by}."
        expiry = self.now_ms + self.settings.bid_lifetime_ms
        remaining = placing
        while remaining > 0:  # a request places at most MAX_BIDS_PER_REQUEST bids
            quantity = level.quantity if rune else min(remaining, limits.MAX_BIDS_PER_REQUEST)
            self.actions.append(
                PlanAction(
                    "place", self.target.pool, level.price, quantity, reason, bid_expiry_ms=expiry
                )
            )
            remaining -= 1 if rune else quantity
        self.take(placing * per, placing)


def _within(bid: HeldBid, level: TargetLevel, threshold: Fraction, rune: bool) -> bool:
    unit = bid.unit_price(rune)
    if unit > level.max_unit_price:
        return False
    if abs(unit - level.unit_price) > threshold * level.unit_price:
        return False
    return not rune or abs(bid.quantity - level.quantity) <= threshold * level.quantity


def _moved_reason(bid: HeldBid, level: TargetLevel, threshold: Fraction, rune: bool) -> str:
    unit = bid.unit_price(rune)
    if unit > level.max_unit_price:
        return (
            f"Priced {sats(unit)}{_per(rune)}, above what the strategy may pay now "
            f"({sats(level.max_unit_price)}): cancel."
        )
    if rune and abs(bid.quantity - level.quantity) > threshold * level.quantity:
        return (
            f"{bid.quantity:,} units where the target is {level.quantity:,} (more than "
            f"{percent(threshold * 100)} apart): cancel and place the target."
        )
    return (
        f"The target moved from {sats(unit)} to {sats(level.unit_price)}{_per(rune)} "
        f"(more than the {percent(threshold * 100)} threshold): cancel and place the target."
    )


def _per(rune: bool) -> str:
    return " a unit" if rune else " an item"


def _bids(count: int, rune: bool) -> str:
    if rune:
        return "one bid"
    return f"{count:,} bid" + ("" if count == 1 else "s")
