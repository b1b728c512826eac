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


@dataclass
class _Tally:
    sats: int = 0
    bids: int = 0
    kept: list[str] = field(default_factory=list)
    actions: list[PlanAction] = field(default_factory=list)


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
        ),
        (
            total_left,
            f"the total budget: {sats(max(0, total_left))} left after fills and the "
            f"pools before this one",
        ),
        (
            balance_sats - manual,
            f"the pool rule: the balance of {sats(balance_sats)} less "
            f"{sats(manual)} for your other bids in this pool",
        ),
    ]
    room_sats, bound_by = min(candidates, key=lambda c: c[0])
    bids = max(0, bids_left)
    if bids == 0:
        bound_by = "the maximum of active bids is reached"
    return PoolRoom(max(0, room_sats), bids, bound_by)


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
    tally = _Tally()
    if target.status == "stop":
        for bid in state.open_bids:
            tally.actions.append(_cancel(target.pool, bid, target.reason))
    elif target.status == "hold":
        _plan_hold(target, state.open_bids, room, fee, tally)
    else:
        matched = _match(target, state.open_bids, settings, tally)
        for level, bids in zip(target.levels, matched, strict=True):
            _plan_level(target, level, bids, room, fee, settings, now_ms, tally)
        if state.spent_sats > 0:  # say why slots are open again
            note = f" After fills costing {sats(state.spent_sats)}, within the budget left."
            tally.actions = [_with_note(a, note) if a.kind == "place" else a for a in tally.actions]
    actions = tuple(sorted(tally.actions, key=PlanAction.sort_key))
    return PoolPlan(target, room, tuple(sorted(tally.kept)), actions, tally.sats, tally.bids)


def _with_note(action: PlanAction, note: str) -> PlanAction:
    return dataclasses.replace(action, reason=action.reason + note)


def _cancel(pool: PoolKey, bid: HeldBid, reason: str) -> PlanAction:
    return PlanAction("cancel", pool, bid.price, bid.quantity, reason, bid_id=bid.bid_id)


def _plan_hold(
    target: PoolTarget, open_bids: tuple[HeldBid, ...], room: PoolRoom, fee: MakerFee, tally: _Tally
) -> None:
    rune = target.is_rune
    for bid in sorted(open_bids, key=lambda b: (b.placed_at_ms, b.bid_id)):
        unit = bid.unit_price(rune)
        if unit > target.hold_cap:
            cap = sats(target.hold_cap)
            reason = f"Priced {sats(unit)}{_per(rune)}, above the cap of {cap}: cancel."
            tally.actions.append(_cancel(target.pool, bid, reason))
        elif not _fits(tally, bid.cost(rune, fee), bid.bid_count(rune), room.sats, room):
            reason = f"Keeping it would pass {room.bound_by}: cancel."
            tally.actions.append(_cancel(target.pool, bid, reason))
        else:
            _take(tally, bid.cost(rune, fee), bid.bid_count(rune))
            tally.kept.append(bid.bid_id)


def _fits(tally: _Tally, cost: int, count: int, sats_limit: int, room: PoolRoom) -> bool:
    return tally.sats + cost <= sats_limit and tally.bids + count <= room.bids


def _take(tally: _Tally, cost: int, count: int) -> None:
    tally.sats += cost
    tally.bids += count


def _match(
    target: PoolTarget, open_bids: tuple[HeldBid, ...], settings: LifecycleSettings, tally: _Tally
) -> list[list[HeldBid]]:
    """Each open bid on the nearest level within the threshold; the others cancelled."""
    rune = target.is_rune
    threshold = settings.update_threshold
    matched: list[list[HeldBid]] = [[] for _ in target.levels]
    for bid in sorted(open_bids, key=lambda b: b.bid_id):
        unit = bid.unit_price(rune)
        near = sorted(
            range(len(target.levels)), key=lambda i: (abs(unit - target.levels[i].unit_price), i)
        )
        chosen = next(
            (i for i in near if _within(bid, unit, target.levels[i], threshold, rune)), None
        )
        if chosen is not None:
            matched[chosen].append(bid)
            continue
        level = target.levels[near[0]]
        tally.actions.append(
            _cancel(target.pool, bid, _moved_reason(unit, bid, level, threshold, rune))
        )
    return matched


def _within(
    bid: HeldBid, unit: Fraction, level: TargetLevel, threshold: Fraction, rune: bool
) -> bool:
    if unit > level.max_unit_price:
        return False
    if abs(unit - level.unit_price) > threshold * level.unit_price:
        return False
    return not rune or abs(bid.quantity - level.quantity) <= threshold * level.quantity


def _moved_reason(
    unit: Fraction, bid: HeldBid, level: TargetLevel, threshold: Fraction, rune: bool
) -> str:
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


def _plan_level(
    target: PoolTarget,
    level: TargetLevel,
    bids: list[HeldBid],
    room: PoolRoom,
    fee: MakerFee,
    settings: LifecycleSettings,
    now_ms: int,
    tally: _Tally,
) -> None:
    rune = target.is_rune
    pool = target.pool
    slots = 1 if rune else level.quantity
    target_cost = bid_cost(level.price, fee)
    expiry = now_ms + settings.bid_lifetime_ms

    def expiring(b: HeldBid) -> bool:
        return b.expires_at_ms - now_ms <= settings.renew_before_ms

    level_start = tally.sats
    used = 0
    for bid in sorted(
        bids,
        key=lambda b: (
            expiring(b),
            abs(b.unit_price(rune) - level.unit_price),
            b.placed_at_ms,
            b.bid_id,
        ),
    ):
        count = bid.bid_count(rune)
        renew = expiring(bid)
        cost = count * target_cost if renew else bid.cost(rune, fee)
        limit = level_start + level.room_sats
        if used + (1 if rune else bid.quantity) > slots:
            tally.actions.append(
                _cancel(
                    pool,
                    bid,
                    f"The level at {sats(level.price)} wants "
                    f"{_bids(slots, rune)} and has more: cancel.",
                )
            )
        elif not _fits(tally, cost, count, limit, room):
            tally.actions.append(
                _cancel(
                    pool,
                    bid,
                    f"Keeping it would pass the level's share "
                    f"of the room ({room.bound_by}): cancel.",
                )
            )
        elif renew:
            left = max(0, (bid.expires_at_ms - now_ms) // 1000)
            reason = (
                f"Expires in {left} s (renewed {settings.renew_before_ms // 1000} s before "
                f"it lapses): a new bid message with a new timestamp (spec retry rule 1), "
                f"at the target {sats(level.price)}."
            )
            tally.actions.append(
                PlanAction(
                    "renew",
                    pool,
                    level.price,
                    bid.quantity if not rune else level.quantity,
                    reason,
                    bid_id=bid.bid_id,
                    bid_expiry_ms=expiry,
                )
            )
            used += 1 if rune else bid.quantity
            _take(tally, cost, count)
        else:
            used += 1 if rune else bid.quantity
            _take(tally, cost, count)
            tally.kept.append(bid.bid_id)
    _place_missing(
        target, level, slots - used, level_start + level.room_sats, room, fee, expiry, tally, used
    )


def _bids(count: int, rune: bool) -> str:
    if rune:
        return "one bid"
    return f"{count:,} bid" + ("" if count == 1 else "s")


def _place_missing(
    target: PoolTarget,
    level: TargetLevel,
    missing: int,
    limit: int,
    room: PoolRoom,
    fee: MakerFee,
    expiry: int,
    tally: _Tally,
    held: int,
) -> None:
    if missing <= 0:
        return
    rune = target.is_rune
    per = bid_cost(level.price, fee)
    if rune:
        placing = 1 if _fits(tally, per, 1, limit, room) else 0
    else:
        placing = min(missing, max(0, limit - tally.sats) // per, max(0, room.bids - tally.bids))
    if placing == 0:
        return
    if rune:
        reason = f"No bid open at this level: place {level.describe(rune)}."
    else:
        reason = (
            f"Open: {held:,} of the {_bids(level.quantity, rune)} wanted at "
            f"{sats(level.price)}; place {placing:,} ({level.why})."
        )
    if placing < missing and not rune:
        reason += f" {missing - placing:,} more would pass {room.bound_by}."
    remaining = placing
    while remaining > 0:  # a request places at most MAX_BIDS_PER_REQUEST bids
        quantity = level.quantity if rune else min(remaining, limits.MAX_BIDS_PER_REQUEST)
        tally.actions.append(
            PlanAction("place", target.pool, level.price, quantity, reason, bid_expiry_ms=expiry)
        )
        remaining -= 1 if rune else quantity
    _take(tally, placing * per, placing)
