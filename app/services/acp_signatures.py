"""Our live ANYONECANPAY signatures, kept against the chain and checked before review.

    await forget_spent_signatures(ctx, sample=16) # entries whose input the chain shows spent
    await live_signatures(ctx)                    # what the ledger holds now (None: no ledger)
    await refuse_live_collisions(ctx, plans)      # at review: the first colliding plan refused

`app.wallet.acp_ledger` records each signature when it is made (and refuses a collision then,
whatever a review said earlier); this module lets the review say so first, naming the item,
and keeps the ledger short: an entry ends only when its input is spent by a transaction
buried under `SPEND_DEPTH` blocks, that the chain source serves and that really spends it (a
mempool spend can be evicted, a shallow block reorganised away, and the signature would be
valid again). A chain that cannot be asked keeps every entry (a possible false refusal, never
a missed collision). A review asks the chain about the live entries its new signatures collide
with (only those can change its verdict) and about a bounded random sample of the others (so
the ledger still shrinks), not about every entry: a seller with hundreds of live listings
would otherwise wait for hundreds of round trips at each review.
"""

from __future__ import annotations

import asyncio
import io
import logging
import random
from collections.abc import Sequence
from pathlib import Path

from embit.transaction import Transaction

from app.core.acp_composition import AcpSignature, Collision, acp_signatures
from app.net.errors import NetError
from app.services.context import ServiceContext
from app.services.errors import ServiceError
from app.services.psbt_flow import PsbtPlan, PsbtRefusedError, refused
from app.wallet.acp_ledger import LEDGER_FILE, AcpLedger, AcpLedgerError

log = logging.getLogger(__name__)

SPEND_DEPTH = 6  # confirmations before a spent coin's signature is taken as dead


def ledger_of(data_dir: Path) -> AcpLedger:
    """This machine's ledger (one for all its profiles: see app.wallet.acp_ledger)."""
    return AcpLedger(data_dir / LEDGER_FILE)


async def forget_spent_signatures(ctx: ServiceContext, sample: int | None = None) -> int:
    """Drop the ledger entries whose input the chain shows spent; returns how many. `sample`:
    ask about at most that many of the live inputs, chosen at random (None: every one)."""
    ledger = ctx.acp_ledger
    if ledger is None:
        return 0
    live = await ctx.run_cpu(_live, ledger)
    outpoints = list(dict.fromkeys(sig.outpoint for sig in live))
    if sample is not None and len(outpoints) > sample:
        outpoints = random.sample(outpoints, sample)
    return await _forget_spent(ctx, ledger, outpoints)


async def live_signatures(ctx: ServiceContext) -> tuple[AcpSignature, ...] | None:
    """The ledger's live entries, read in the executor; None when no ledger is open. Raises
    `ServiceError` when it cannot be read."""
    ledger = ctx.acp_ledger
    return None if ledger is None else await ctx.run_cpu(_live, ledger)


async def refuse_live_collisions(ctx: ServiceContext, plans: Sequence[PsbtPlan]) -> None:
    """`refuse_colliding`, once the chain was asked whether the live signatures the plans
    collide with are spent (a spent one is forgotten and no longer refuses)."""
    ledger = ctx.acp_ledger
    new = [sig for plan in plans for sig in acp_signatures(plan.review, plan.verdict, plan.label)]
    if new and ledger is not None:
        found = await ctx.run_cpu(_check, ledger, new)
        colliding = list(dict.fromkeys(c.other.outpoint for c in found if c.other_is_live))
        if colliding:
            await _forget_spent(ctx, ledger, colliding)
    await ctx.run_cpu(refuse_colliding, ledger, plans)


async def _forget_spent(ctx: ServiceContext, ledger: AcpLedger, outpoints: list[str]) -> int:
    answers = await asyncio.gather(*(_is_spent(ctx, o) for o in outpoints))
    spent = [o for o, is_spent in zip(outpoints, answers, strict=True) if is_spent]
    return await ctx.run_cpu(ledger.forget, spent) if spent else 0


async def _is_spent(ctx: ServiceContext, outpoint: str) -> bool:
    """Spent by a transaction `SPEND_DEPTH` blocks deep whose inputs include `outpoint`
    (checked in the transaction itself, whose txid its bytes must hash to)."""
    txid, _, vout = outpoint.partition(":")
    esplora = ctx.clients.esplora
    try:
        spend = await esplora.outspend(txid, int(vout))
        if not (spend.spent and spend.confirmed and spend.txid):
            return False
        status, tip, raw_hex = await asyncio.gather(
            esplora.tx_status(spend.txid), esplora.tip_height(), esplora.tx_hex(spend.txid)
        )
        raw = bytes.fromhex(raw_hex)
    except (NetError, ValueError) as exc:
        log.info("cannot tell whether %s is spent (%s): kept", outpoint, type(exc).__name__)
        return False
    if status.block_height is None or tip - status.block_height + 1 < SPEND_DEPTH:
        return False
    try:
        tx = Transaction.read_from(io.BytesIO(raw))
    except Exception:
        return False
    spends = any(i.txid.hex() == txid and i.vout == int(vout) for i in tx.vin)
    return tx.txid().hex() == spend.txid and spends


def _live(ledger: AcpLedger) -> tuple[AcpSignature, ...]:
    try:
        return ledger.live()
    except AcpLedgerError as exc:
        raise _unreadable(exc) from None


def _check(ledger: AcpLedger, new: Sequence[AcpSignature]) -> tuple[Collision, ...]:
    try:
        return ledger.check(new)
    except AcpLedgerError as exc:
        raise _unreadable(exc) from None


def _unreadable(exc: AcpLedgerError) -> ServiceError:
    return ServiceError(
        f"The record of your ANYONECANPAY signatures cannot be read ({exc}); nothing is "
        "signed with ANYONECANPAY until it can."
    )


def refuse_colliding(ledger: AcpLedger | None, plans: Sequence[PsbtPlan]) -> None:
    """Raise `PsbtRefusedError` for the first plan whose ANYONECANPAY signature would combine
    with a live one of ours or with an earlier plan's (CPU and a file read: use an executor)."""
    new = [sig for plan in plans for sig in acp_signatures(plan.review, plan.verdict, plan.label)]
    if not new:
        return
    if ledger is None:
        raise ServiceError(
            "No record of ANYONECANPAY signatures is open for this wallet, so none is made."
        )
    found = _check(ledger, new)
    if not found:
        return
    first = found[0]
    plan = next(p for p in plans if first.new in acp_signatures(p.review, p.verdict, p.label))
    refusals = [c.refusal() for c in found if c.new == first.new]
    raise PsbtRefusedError(plan.review, refused(plan.verdict, refusals), plan.label)
