"""Placing a bid a strategy signs: the spec's retry rules (`bid_retry.place_with_retries`: a new
signed message per attempt, the open bids read after an ambiguous answer), every attempt
signed by the `StrategySigner` (so authorized and journaled before it is signed) and its
journal entry completed with the service's answer before the next attempt is signed:

    attempt result                      entry
    PLACED, FOUND_AFTER_ERROR           placed (bid ids added once the open bids list them)
    RATE_LIMITED, NOT_SENT, a refusal   rejected
    NOT_FOUND_AFTER_ERROR               not_placed
    anything else (the open bids        unknown: reconcile with the open bids before acting
    unreadable, cancelled, ...)

    outcome = await place_strategy_bid(ctx, signer, journal, spec, "outbid: top bid 51,000")

A refusal by the policy raises `StrategyRefusedError` (nothing signed for that attempt); the
service's refusal raises `BidRequestRefusedError`, as `bids.place_bid` does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from app.core.bid_request import CollectionBidRequest
from app.net.errors import NetError
from app.net.marketplace_bids import BidListEntry
from app.services.bid_retry import (
    Attempt,
    AttemptResult,
    Placement,
    count_matching,
    matches,
    place_with_retries,
)
from app.services.bids import UNSIGNED, BidSpec, build_request, canonical_spec
from app.services.context import ServiceContext
from app.services.errors import BidRequestRefusedError
from app.services.open_bids import fetch_open_bids
from app.services.strategy_journal import StrategyJournal
from app.services.strategy_signer import BidMessageSigner

_PLACED = (AttemptResult.PLACED, AttemptResult.FOUND_AFTER_ERROR)
_REJECTED = (AttemptResult.RATE_LIMITED, AttemptResult.NOT_SENT)


@dataclass(frozen=True)
class StrategyPlacement:
    """The placed request, its attempts, and one journal entry per attempt (the last one
    placed), with the ids of the bids it placed as the open bids list them."""

    placement: Placement
    entry_ids: tuple[int, ...]
    bid_ids: tuple[str, ...]


async def place_strategy_bid(
    ctx: ServiceContext,
    signer: BidMessageSigner,
    journal: StrategyJournal,
    spec: BidSpec,
    reason: str,
) -> StrategyPlacement:
    """Place `spec` by the retry rules, each attempt signed by `signer` with `reason`."""
    spec = await canonical_spec(ctx, spec)
    before = await fetch_open_bids(ctx)
    baseline = count_matching(before, build_request(ctx, spec, ctx.clock.now_ms(), UNSIGNED))
    made: list[int] = []
    pending: list[int] = []  # the entry of the attempt in flight, until its answer is written

    async def settle(write: Callable[..., None], outcome: str) -> None:
        entry_id = pending.pop()
        # Shielded: a cancellation while writing must not lose the answer already known.
        await asyncio.shield(ctx.run_cpu(write, entry_id, ctx.clock.now_ms(), outcome))

    async def sign(timestamp: int) -> CollectionBidRequest:
        fresh = build_request(ctx, spec, timestamp, UNSIGNED)
        signed = await ctx.run_cpu(signer.sign_bid, fresh, reason)
        made.append(signed.entry_id)
        pending.append(signed.entry_id)
        return signed.request

    async def heard(attempt: Attempt) -> None:
        outcome = attempt.result.value + (f" ({attempt.error})" if attempt.error else "")
        if attempt.result in _PLACED:
            await settle(journal.mark_placed, outcome)
        elif attempt.result in _REJECTED:
            await settle(journal.mark_rejected, outcome)
        else:
            await settle(journal.mark_not_placed, outcome)

    try:
        placement = await place_with_retries(ctx, sign, baseline, on_attempt=heard)
    except BidRequestRefusedError as exc:
        if pending:
            await settle(journal.mark_rejected, f"refused: {exc.error_code or exc.user_message}")
        raise
    except BaseException as exc:
        if pending:
            await settle(journal.mark_unknown, f"{type(exc).__name__}: look at the open bids")
        raise
    entry = await ctx.run_cpu(journal.entry, made[-1])
    claimed = await ctx.run_cpu(journal.claimed_bid_ids)
    bid_ids = await _listed_ids(ctx, placement, before, claimed, entry.bids)
    if bid_ids:
        await ctx.run_cpu(journal.record_bid_ids, made[-1], bid_ids, ctx.clock.now_ms())
    return StrategyPlacement(placement, tuple(made), bid_ids)


async def _listed_ids(
    ctx: ServiceContext,
    placement: Placement,
    before: Sequence[BidListEntry],
    claimed: set[str],
    expected: int,
) -> tuple[str, ...]:
    """The ids of the open bids matching the request that were neither open before it nor
    held by any journal entry; none when the open bids cannot be read now, or when more
    match than the request placed (the user or another strategy bid the same at the same
    moment: which are ours is not known). The entry then stays placed without ids: it
    keeps its exposure until it expires and the strategy never cancels a bid it cannot
    tell is its own."""
    known = {e.bid_id for e in before} | claimed
    try:
        entries = await fetch_open_bids(ctx)
    except NetError:
        return ()
    found = tuple(
        e.bid_id for e in entries if matches(e, placement.request) and e.bid_id not in known
    )
    return found if len(found) <= expected else ()
