"""A strategy's dry run: what its plan would place, renew, cancel and keep, and why (issue 17).

Data first (`dry_run` gives one `DryRunPool` per pool, each line with its reason), text second
(`dry_run_text`, what the command line prints and the journal records). Nothing is signed: the
plan is only read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from app.core.strategy_plan import PlanAction, PoolPlan, StrategyPlan
from app.core.strategy_targets import sats

_VERBS: Final = {"cancel": "Cancel", "renew": "Renew", "place": "Place"}


@dataclass(frozen=True)
class DryRunLine:
    kind: str  # "place", "renew" or "cancel"
    what: str  # e.g. "3 bids at 50,000 sats, expiring in 30 min"
    reason: str


@dataclass(frozen=True)
class DryRunPool:
    pool: str
    status: str  # "bid", "hold" or "stop"
    target: str  # the target's reason: the levels and how their prices were found
    room: str  # the tightest limit, in words
    kept: int  # open bids kept as they are
    lines: tuple[DryRunLine, ...]
    exposure_sats: int
    active_bids: int


def dry_run(plan: StrategyPlan, now_ms: int) -> tuple[DryRunPool, ...]:
    """The plan pool by pool, in the plan's order."""
    return tuple(_pool(p, now_ms) for p in plan.pools)


def _pool(plan: PoolPlan, now_ms: int) -> DryRunPool:
    lines = tuple(
        DryRunLine(a.kind, _what(a, plan.target.is_rune, now_ms), a.reason) for a in plan.actions
    )
    return DryRunPool(
        str(plan.pool),
        plan.status,
        plan.target.reason,
        plan.room.bound_by,
        len(plan.kept),
        lines,
        plan.exposure_sats,
        plan.active_bids,
    )


def _what(action: PlanAction, rune: bool, now_ms: int) -> str:
    if rune:
        amount = f"one bid of {action.quantity:,} units for {sats(action.price)}"
    else:
        amount = f"{_n(action.quantity, 'bid')} at {sats(action.price)}"
    if action.bid_id is not None:
        amount += f" (bid {action.bid_id})"
    if action.bid_expiry_ms is not None:
        amount += f", expiring in {_duration(action.bid_expiry_ms - now_ms)}"
    return amount


def _n(count: int, noun: str) -> str:
    return f"{count:,} {noun}" + ("" if count == 1 else "s")


def _duration(ms: int) -> str:
    minutes, seconds = divmod(max(0, ms) // 1000, 60)
    if minutes and seconds:
        return f"{minutes} min {seconds} s"
    return f"{minutes} min" if minutes else f"{seconds} s"


def dry_run_text(plan: StrategyPlan, now_ms: int) -> str:
    """The dry run as lines of text: each pool, its target, then each action and its reason."""
    out: list[str] = []
    for pool in dry_run(plan, now_ms):
        # A hold's or stop's reason starts with "Holding:" or "Stopped:" (the status in words).
        said = f"Bidding: {pool.target}" if pool.status == "bid" else pool.target
        out.append(f"{pool.pool}: {said}")
        out.append(f"  Tightest limit: {pool.room}. Open bids kept as they are: {pool.kept:,}.")
        for line in pool.lines:
            out.append(f"  {_VERBS[line.kind]} {line.what}: {line.reason}")
        if not pool.lines:
            out.append("  Nothing to do.")
        out.append(
            f"  After it: {_n(pool.active_bids, 'open bid')} committing {sats(pool.exposure_sats)}."
        )
    out.append(
        f"Total: {_n(len(plan.actions), 'action')}; {_n(plan.active_bids, 'open bid')} committing "
        f"{sats(plan.exposure_sats)}."
    )
    return "\n".join(out)
