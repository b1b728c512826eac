"""Cancelling a strategy's own bids (issue 17): the engine's cancels (a target that moved, a
renewal, a pool stopped) and the user taking a stopped strategy's bids back.

Only bids the strategy's journal entries hold are ever cancelled (the user's other bids are
the plan's ceiling, never touched). Each is written to the bid log as `cancelling` before the
request and `cancelled` after it, so a fill racing the cancel is told apart at the next
reconcile; an entry whose bids are all gone is ended at once, its exposure freed. A cancel is
signed by the bid's own address like any of the user's cancels (`cancel.cancel_bids`), not
under the strategy's policy: it needs no approval, and commits nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.core.strategy_plan import PlanAction
from app.services.cancel import cancel_bids
from app.services.context import ServiceContext
from app.services.errors import NetError, ServiceError
from app.services.open_bids import fetch_open_bids, pool_key_of
from app.services.strategy_bid_log import StrategyBidLog
from app.services.strategy_journal import StrategyJournal
from app.services.strategy_reconcile import OwnBid, end_if_all_gone, own_bids


@dataclass(frozen=True)
class ActionResult:
    action: PlanAction
    done: bool
    detail: str  # bid ids placed or cancelled, or why not


async def cancel_strategy_bids(
    ctx: ServiceContext,
    journal: StrategyJournal,
    bid_log: StrategyBidLog,
    policy_id: str,
    actions: Sequence[PlanAction],
    own: Mapping[str, OwnBid],
) -> list[ActionResult]:
    """Cancel `actions`' bids, each one of `own` (the strategy's listed bids)."""
    ids = [a.bid_id for a in actions if a.bid_id is not None]
    foreign = [i for i in ids if i not in own]
    if foreign:  # only what the journal holds as the strategy's: never happens
        raise ServiceError(f"the strategy may cancel only its own bids, not {foreign}")
    now = ctx.clock.now_ms()

    def write_intents() -> None:
        for a in actions:
            assert a.bid_id is not None
            bid_log.set_state(policy_id, a.bid_id, str(a.pool), "cancelling", 0, a.reason, now)

    await ctx.run_cpu(write_intents)
    try:
        report = await asyncio.shield(cancel_bids(ctx, ids))
    except (NetError, ServiceError) as exc:
        # The next reconcile sees which are gone; the rest go back to open.
        return [ActionResult(a, False, type(exc).__name__) for a in actions]
    by_id = {i.bid_id: i for i in report.items}
    done = ctx.clock.now_ms()

    def write_results() -> None:
        for a in actions:
            item = by_id.get(a.bid_id or "")
            if item is not None and item.cancelled:
                assert a.bid_id is not None
                bid_log.set_state(policy_id, a.bid_id, str(a.pool), "cancelled", 0, a.reason, done)
        # An entry whose bids are all gone commits nothing more: its exposure is freed for
        # the placements that follow (a renewal, a cancel-and-replace).
        entries = {own[i].entry.entry_id: own[i].entry for i in ids}
        for entry in entries.values():
            end_if_all_gone(journal, bid_log, entry, done)

    await asyncio.shield(ctx.run_cpu(write_results))
    return [
        ActionResult(
            a,
            bool(by_id.get(a.bid_id or "") and by_id[a.bid_id or ""].cancelled),
            f"bid {a.bid_id}",
        )
        for a in actions
    ]


async def withdraw_strategy_bids(
    ctx: ServiceContext,
    journal: StrategyJournal,
    bid_log: StrategyBidLog,
    policy_id: str,
    reason: str,
) -> list[ActionResult]:
    """Cancel every open bid the strategy `policy_id` placed; needs neither its strategy
    file nor its policy (a revoked or unreadable one still gets its bids back)."""
    listed = await fetch_open_bids(ctx)
    ours = await ctx.run_cpu(lambda: own_bids(journal, policy_id, listed))
    actions = [
        PlanAction("cancel", pool, own.listed.price or 0, 1, reason, bid_id)
        for bid_id, own in sorted(ours.items())
        if (pool := pool_key_of(own.listed)) is not None
    ]
    if not actions:
        return []
    return await cancel_strategy_bids(ctx, journal, bid_log, policy_id, actions, ours)
