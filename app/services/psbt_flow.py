"""The one path every PSBT flow takes: intent -> view -> review -> verdict -> sign -> submit.

    plan = await review_online(ctx, served_base64, WithdrawIntent(...), KeyRole.PAYMENT, label)
    # the GUI draws plan.review and plan.verdict here, and asks the user
    signed = await ctx.run_cpu(sign_plan, plan, ctx.signing_keys())
    await submit(signed.base64)

- The facts a review weighs the PSBT against come from ord (what each input carries: an
  outpoint ord does not know stays "unknown", so the policy refuses wherever that matters; ord
  unreachable raises `OrdUnavailableError`) and Esplora (each input's amount and script on the
  chain, so a PSBT lying about them is caught; the tip, for lock times; the fee estimates,
  for fee bounds relative to the market).
- A refused verdict raises `PsbtRefusedError`, which carries the Review and the Verdict for
  the dialog; nothing is signed and nothing is sent. A verdict refused only for its fee
  (`Verdict.needs_fee_consent`) comes back as an unapproved plan instead: the dialog shows the
  fee and, if the user accepts it, `accept_fee` re-decides the same PSBT with that consent.
- `sign_plan` signs exactly the verdict's (input, sighash) list on a fresh parse of the very
  PSBT reviewed (an ANYONECANPAY signature only once the signature ledger recorded it), then
  `check_signed` confirms the result is the same transaction signed only there (the same check
  imports offline-signed files).
"""

from __future__ import annotations

import asyncio
import io
import logging
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from embit.transaction import Transaction

from app.core.acp_composition import AcpSignature, acp_signatures
from app.core.policy_verdict import FeeConsent
from app.core.psbt_review import Review
from app.core.psbt_review_context import KnownUtxo, OutpointContents, ReviewContext
from app.core.psbt_review_time import ChainTip
from app.core.signing_policy import Flow, Intent, Refusal, Verdict, flow_of, with_fee_consent
from app.net.errors import BadResponse, HttpError, NetError, NotFound
from app.services.context import CancelToken, ReviewFacts, ServiceContext
from app.services.errors import OrdUnavailableError, PolicyRefusedError, ServiceError
from app.services.psbt_signed import SignedPsbtMismatchError, check_signed
from app.wallet.acp_ledger import AcpCollisionError, AcpLedger, AcpLedgerError
from app.wallet.addresses import KeyRole
from app.wallet.keys import WalletKeys
from app.wallet.psbt_fixes import FixedPSBT
from app.wallet.psbt_io import PsbtDecodeError, parse_psbt, psbt_to_base64
from app.wallet.psbt_signer import PsbtSigningError, SigningKey, sign_psbt
from app.wallet.signing_gate import approved_sign_requests, guard

log = logging.getLogger(__name__)

Progress = Callable[[int, int], None]  # (items done, items in all)


class ServicePsbtError(ServiceError):
    """The service answered with something that is not a PSBT we can read."""


class ChainUnavailableError(ServiceError):
    """Esplora could not be asked what the spent coins hold: nothing is signed."""


class PsbtRefusedError(PolicyRefusedError):
    """The guard refused this PSBT; `review` and `verdict` are there for the dialog."""

    def __init__(self, review: Review, verdict: Verdict, label: str = "") -> None:
        super().__init__(verdict, review, label)
        self.review: Review = review  # never None here (the base class allows None)


class OperationCancelledError(ServiceError):
    """The user cancelled; `done` items were completed before the cancel took effect."""

    def __init__(self, done: int, total: int) -> None:
        self.done = done
        self.total = total
        super().__init__(f"Cancelled after {done} of {total}; nothing else was signed or sent.")


@dataclass(frozen=True)
class PsbtPlan:
    """A reviewed PSBT: what the dialog shows and what `sign_plan` signs. Its verdict is
    approved, or refused only for its fee (`verdict.needs_fee_consent`), which `accept_fee`
    turns into an approved plan once the user accepts that fee; `sign_plan` signs only an
    approved one.

    `psbt_base64` is the PSBT exactly as served, `intent` what the user asked (the policy's
    input), `signer` the key role that signs it."""

    psbt_base64: str
    review: Review
    verdict: Verdict
    intent: Intent
    signer: KeyRole
    label: str

    @property
    def flow(self) -> Flow:
        return self.verdict.flow

    @property
    def txid(self) -> str:
        return self.verdict.txid

    @property
    def needs_fee_consent(self) -> bool:
        return self.verdict.needs_fee_consent

    def psbt(self) -> FixedPSBT:
        """A fresh parse: signing never changes the reviewed copy."""
        return parse_psbt(self.psbt_base64)


@dataclass(frozen=True)
class SignedPsbt:
    plan: PsbtPlan
    base64: str


def read_served_psbt(text: str, what: str) -> FixedPSBT:
    try:
        return parse_psbt(text)
    except PsbtDecodeError as exc:
        raise ServicePsbtError(
            f"The service's {what} is not a PSBT this wallet can read ({exc}); nothing was signed."
        ) from None


def input_outpoints(psbt: FixedPSBT) -> list[str]:
    return [f"{inp.txid.hex()}:{inp.vout}" for inp in psbt.inputs]


async def gather_facts(ctx: ServiceContext, outpoints: Iterable[str]) -> ReviewFacts:
    """What ord says each outpoint carries and what the chain says it holds; the chain's tip
    and the next block's fee estimate (each None when the chain source cannot say)."""
    wanted = list(dict.fromkeys(outpoints))
    coins, (tip, fastest) = await asyncio.gather(_chain_utxos(ctx, wanted), market_facts(ctx))
    try:
        contents = await ctx.outpoint_contents(wanted)
    except OrdUnavailableError:
        # One output ord cannot describe must not hide the answers for the others.
        answers = await asyncio.gather(*(_contents(ctx, o) for o in wanted))
        contents = {o: c for o, c in zip(wanted, answers, strict=True) if c is not None}
    chain = {o: u for o, u in zip(wanted, coins, strict=True) if u is not None}
    return ReviewFacts(contents, chain, tip, fastest)


async def market_facts(ctx: ServiceContext) -> tuple[ChainTip | None, Fraction | None]:
    """The chain's tip and the next block's fee estimate, asked together."""
    tip, fastest = await asyncio.gather(_chain_tip(ctx), fastest_fee_rate(ctx))
    return tip, fastest


async def _chain_tip(ctx: ServiceContext) -> ChainTip | None:
    """The tip's height and median time past; None (policies that need it refuse) when the
    chain source cannot say."""
    try:
        tip = await ctx.clients.esplora.tip()
    except NetError as exc:
        log.info("the chain's tip is unknown: %s", type(exc).__name__)
        return None
    return ChainTip(tip.height, tip.median_time)


async def fastest_fee_rate(ctx: ServiceContext) -> Fraction | None:
    """The fee estimate (sat/vB) for the next block; None when there is none."""
    try:
        estimates = await ctx.clients.esplora.fee_estimates()
    except NetError as exc:
        log.info("no fee estimate: %s", type(exc).__name__)
        return None
    return Fraction(str(estimates.fastest))


async def _contents(ctx: ServiceContext, outpoint: str) -> OutpointContents | None:
    """ord's answer; None ("unknown") when ord answers but does not describe this output.
    ord unreachable or failing (5xx, transport) raises: refuse rather than guess."""
    try:
        found = await ctx.outpoint_contents([outpoint])
    except OrdUnavailableError as exc:
        cause = exc.__cause__
        if isinstance(cause, HttpError) and cause.status >= 500:
            raise
        if isinstance(cause, NetError) and not isinstance(cause, HttpError | BadResponse):
            raise
        return None
    return found.get(outpoint)


async def _chain_utxos(ctx: ServiceContext, outpoints: Sequence[str]) -> list[KnownUtxo | None]:
    """Each outpoint's coin as the chain holds it; each transaction is asked once, however
    many of its outputs are spent, and once per context (its bytes hash to its txid, so an
    answer never goes stale)."""
    txids = list(dict.fromkeys(o.partition(":")[0] for o in outpoints))
    answers = await asyncio.gather(*(_chain_outputs(ctx, t) for t in txids))
    outputs = dict(zip(txids, answers, strict=True))
    found: list[KnownUtxo | None] = []
    for outpoint in outpoints:
        txid, _, vout_text = outpoint.partition(":")
        coins, vout = outputs[txid], int(vout_text)
        found.append(coins[vout] if coins is not None and 0 <= vout < len(coins) else None)
    return found


async def _chain_outputs(ctx: ServiceContext, txid: str) -> tuple[KnownUtxo, ...] | None:
    """The outputs of transaction `txid`; None when the chain source does not have it or
    answers with another transaction (trust nothing of it)."""
    known = ctx.chain_outputs.get(txid)
    if known is not None:
        return known
    try:
        raw = await ctx.clients.esplora.tx_hex(txid)
    except NotFound:
        return None  # not on the chain: the review cannot vouch for it (and policies see that)
    except NetError as exc:
        raise ChainUnavailableError(
            f"Esplora could not be asked what transaction {txid} holds ({type(exc).__name__}); "
            "nothing was signed."
        ) from exc
    tx = Transaction.read_from(io.BytesIO(bytes.fromhex(raw)))
    if tx.txid().hex() != txid:
        return None
    outputs = tuple(KnownUtxo(int(out.value), bytes(out.script_pubkey.data)) for out in tx.vout)
    ctx.remember_chain_outputs(txid, outputs)
    return outputs


def decide(
    psbt_text: str, context: ReviewContext, intent: Intent, signer: KeyRole, label: str
) -> PsbtPlan:
    """Review `psbt_text` in `context` with the intent's policy (pure CPU work, no I/O).

    Raises `PsbtRefusedError` (with the Review) when the policy refuses for anything but the
    fee; a plan refused only for its fee comes back for the user's consent."""
    psbt = read_served_psbt(psbt_text, f"{flow_of(intent)} PSBT")
    reviewed, verdict = guard(psbt, context, intent)
    if not verdict.approved and not verdict.needs_fee_consent:
        raise PsbtRefusedError(reviewed, verdict, label)
    return PsbtPlan(psbt_to_base64(psbt), reviewed, verdict, intent, signer, label)


def accept_fee(plan: PsbtPlan) -> PsbtPlan:
    """The same PSBT decided again with the user's consent to its fee, bound to this PSBT's
    digest and fee (CPU: pure). Raises `PsbtRefusedError` if anything else refuses it."""
    if plan.verdict.approved:
        return plan
    if plan.review.fee is None or not plan.verdict.needs_fee_consent:
        raise PsbtRefusedError(plan.review, plan.verdict, plan.label)
    consent = FeeConsent(plan.review.view.digest, plan.review.fee)
    intent = with_fee_consent(plan.intent, consent)
    decided = decide(plan.psbt_base64, plan.review.context, intent, plan.signer, plan.label)
    if not decided.verdict.approved:
        raise PsbtRefusedError(decided.review, decided.verdict, plan.label)
    return decided


async def review_online(
    ctx: ServiceContext,
    psbt_text: str,
    intent: Intent,
    signer: KeyRole,
    label: str,
    service: Sequence[tuple[str, str]] = (),
) -> PsbtPlan:
    """Fetch the facts for `psbt_text`'s inputs, then `decide`."""
    psbt = read_served_psbt(psbt_text, f"{flow_of(intent)} PSBT")
    facts = await gather_facts(ctx, input_outpoints(psbt))
    context = ctx.review_context(facts, service)
    return await ctx.run_cpu(decide, psbt_text, context, intent, signer, label)


def sign_plan(
    plan: PsbtPlan, keys: WalletKeys, ledger: AcpLedger | None = None, claim: str | None = None
) -> SignedPsbt:
    """Sign exactly what the verdict approved with the plan's key role (CPU: use an executor).
    An ANYONECANPAY signature is recorded in `ledger` first; one that would combine with a
    live signature of ours is refused (`PsbtRefusedError`), as is a plan whose fee the user
    has not accepted."""
    if not plan.verdict.approved:
        raise PsbtRefusedError(plan.review, plan.verdict, plan.label)
    if ledger is None and acp_signatures(plan.review, plan.verdict):
        raise ServiceError(
            f"The {plan.flow} was not signed: no record of ANYONECANPAY signatures is open on "
            "this machine."
        )
    claim = claim or secrets.token_hex(8)  # its record and its gate's: one claim, one write
    record_acp_signatures(ledger, [plan], claim)  # a collision is refused here, naming the item
    psbt = plan.psbt()
    try:
        requests = approved_sign_requests(psbt, plan.verdict, ledger, plan.label, claim)
    except AcpLedgerError as exc:  # its entry was just recorded: only the file can fail now
        raise ServiceError(
            f"The {plan.flow} was not signed: the record of your ANYONECANPAY signatures "
            f"cannot be used ({exc})."
        ) from None
    role_key = keys.payment if plan.signer is KeyRole.PAYMENT else keys.ordinals
    try:
        sign_psbt(psbt, SigningKey(role_key.private_key), requests)
    except PsbtSigningError as exc:
        raise SignedPsbtMismatchError(
            f"The {plan.flow} could not be signed: {exc}. Nothing was sent."
        ) from None
    check_signed(plan.psbt(), psbt, plan.verdict)
    return SignedPsbt(plan, psbt_to_base64(psbt))


def record_acp_signatures(
    ledger: AcpLedger | None, plans: Sequence[PsbtPlan], claim: str | None = None
) -> tuple[AcpSignature, ...]:
    """Record the ANYONECANPAY signatures `plans` allow, all or none (`PsbtRefusedError` naming
    the first plan that collides); returns the entries added (`AcpLedger.record`). No ledger:
    nothing is recorded, and the signing gate will refuse those signatures."""
    wanted = [
        (p, acp_signatures(p.review, p.verdict, p.label)) for p in plans if p.verdict.approved
    ]
    new = [sig for _, sigs in wanted for sig in sigs]
    if not new or ledger is None:
        return ()
    try:
        return ledger.record(new, claim)
    except AcpCollisionError as exc:
        first = exc.collisions[0]
        plan = next(p for p, sigs in wanted if first.new in sigs)
        refusals = tuple(c.refusal() for c in exc.collisions if c.new == first.new)
        raise PsbtRefusedError(plan.review, refused(plan.verdict, refusals), plan.label) from None
    except AcpLedgerError as exc:
        raise ServiceError(
            f"Nothing was signed: the record of your ANYONECANPAY signatures cannot be used "
            f"({exc})."
        ) from None


def refused(verdict: Verdict, refusals: Sequence[Refusal]) -> Verdict:
    """`verdict` turned into a refusal for `refusals` (a check made after the policy's)."""
    return replace(verdict, to_sign=(), refusals=tuple(refusals))


async def sign_plans(
    ctx: ServiceContext,
    plans: Sequence[PsbtPlan],
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> list[SignedPsbt]:
    """Sign each plan in the executor, one at a time, reporting progress; a cancel (token
    or asyncio) takes effect between items and raises `OperationCancelledError`.

    The batch's ANYONECANPAY signatures are recorded before any is made (a crash mid-batch
    leaves entries for PSBTs never signed: over-reported, never under-reported). A cancel or a
    failure part-way knows which PSBTs were never signed and withdraws exactly their entries;
    those of the PSBTs signed stay, sent or not: the signature exists."""
    keys = ctx.signing_keys()
    # One ledger write for the batch, before any signature; each one's own gate then finds
    # its entry, under the batch's claim (an entry another flow records too is never withdrawn).
    claim = secrets.token_hex(8)
    recorded = await ctx.run_cpu(record_acp_signatures, ctx.acp_ledger, plans, claim)
    signed: list[SignedPsbt] = []
    try:
        for plan in plans:
            if cancel is not None and cancel.cancelled:
                raise OperationCancelledError(len(signed), len(plans))
            # An asyncio cancel lands here, between items: what was signed is simply dropped.
            signed.append(await ctx.run_cpu(sign_plan, plan, keys, ctx.acp_ledger, claim))
            if progress is not None:
                progress(len(signed), len(plans))
    except asyncio.CancelledError:
        # The item handed to the executor may still be signed there: it counts as signed.
        await _withdraw_unsigned(ctx, recorded, plans[: len(signed) + 1])
        raise
    except Exception:  # the item that failed was not signed (its signature, if any, dropped)
        await _withdraw_unsigned(ctx, recorded, plans[: len(signed)])
        raise
    return signed


async def _withdraw_unsigned(
    ctx: ServiceContext, recorded: Sequence[AcpSignature], signed: Sequence[PsbtPlan]
) -> None:
    """Withdraw the entries the batch `recorded` for signatures none of the `signed` plans
    made (one batch can carry one signature twice). A ledger that cannot be written keeps
    them: a false mark, never a missing one; the batch's own error is the one raised."""
    made = {
        (sig.outpoint, sig.commitment)
        for plan in signed
        for sig in acp_signatures(plan.review, plan.verdict, plan.label)
    }
    unmade = [sig for sig in recorded if (sig.outpoint, sig.commitment) not in made]
    if not unmade or ctx.acp_ledger is None:
        return
    try:
        await ctx.run_cpu(ctx.acp_ledger.withdraw, unmade)
    except (AcpLedgerError, RuntimeError) as exc:  # RuntimeError: the executor is shut down
        log.warning("unsigned entries kept in the signature ledger: %s", type(exc).__name__)
