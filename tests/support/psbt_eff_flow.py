"""One flow under the guard's fuzz property: its honest reference, signed, and the run of one
mutated PSBT of it.

Each run mirrors the app: parse_psbt (refusal: PsbtDecodeError), guard (view_of + review +
the flow's policy), a verdict refused only for its fee re-decided with the user's consent
(app.services.psbt_flow.accept_fee), the signing gate with a fresh ANYONECANPAY ledger
(approved_sign_requests), the real signer on a fresh parse, check_signed as sign_plan does.
What got signed is then judged by its effect on the ground truth (tests.support.psbt_effects)
against the honest scenario's, and every signature we made is checked by Bitcoin Core's
interpreter against the true coins: it must accept exactly those the effect model says can
be valid.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import floor
from pathlib import Path

from embit import ec

from app.core.policy_verdict import FeeConsent
from app.core.psbt_review import Review
from app.core.signing_policy import (
    InscriptionBidIntent,
    Intent,
    SecureListingIntent,
    Verdict,
    WithdrawIntent,
    with_fee_consent,
)
from app.services.psbt_signed import SignedPsbtMismatchError, check_signed
from app.wallet.acp_ledger import AcpLedger, AcpLedgerError
from app.wallet.psbt_fixes import FixedPSBT
from app.wallet.psbt_io import PsbtDecodeError, parse_psbt, psbt_to_bytes
from app.wallet.psbt_signer import PsbtSigningError, SigningKey, SignRequest, sign_psbt
from app.wallet.signing_gate import VerdictMismatchError, approved_sign_requests, guard
from tests.support.psbt_eff_compare import Allowance, compare
from tests.support.psbt_eff_model import Effect, claimed_utxos, outpoint_of
from tests.support.psbt_eff_outcome import Kind, Outcome
from tests.support.psbt_eff_signatures import kernel_verdicts
from tests.support.psbt_effects import claims_hold, effect_of
from tests.support.psbt_mut_bulk import bulk_batch
from tests.support.psbt_mut_case import Case, Setup, flow_setup
from tests.support.psbt_mutations import Op, apply_all
from tests.support.psbt_scenarios import FASTEST

# --- the honest reference of each flow ---------------------------------------------------------


@dataclass(frozen=True)
class Reference:
    """An honest flow, signed: its setup, verdict, signed PSBT and effect, and what the user
    approved besides (the fee bounds)."""

    setup: Setup
    intent: Intent
    verdict: Verdict
    signed: FixedPSBT
    effect: Effect

    @property
    def key(self) -> ec.PrivateKey:
        return self.setup.scenario.signer

    def allowance(self, consented_fee: int | None = None) -> Allowance:
        intent, honest_fee = self.intent, self.effect.fee or 0
        if isinstance(intent, SecureListingIntent):
            sold = frozenset({intent.runes_outpoint} if intent.runes_outpoint else ())
            return Allowance(None, 0, self.setup.tip, sold_outputs=sold)
        # The fee's share is of the amount moved: a bid's price (its postage comes back to us).
        moved = intent.price if isinstance(intent, InscriptionBidIntent) else intent.amount
        fees = intent.fees
        cap = min(fees.max_fee, floor(fees.max_share * Fraction(moved)))
        extra = max(0, cap - honest_fee)
        max_rate: Fraction | None = min(fees.max_rate, fees.market_cap(FASTEST))
        if consented_fee is not None:  # the user saw this fee and accepted it
            extra, max_rate = max(extra, consented_fee - honest_fee), None
        group = "your bidding wallet" if isinstance(intent, WithdrawIntent) else "your wallet"
        return Allowance(group, extra, self.setup.tip, max_rate=max_rate)


def signatures_of(verdict: Verdict) -> list[tuple[int, int]]:
    return [(p.input_index, p.sighash) for p in verdict.to_sign]


def effect_of_signed(signed: FixedPSBT, verdict: Verdict, setup: Setup, case: Case) -> Effect:
    sigs = signatures_of(verdict)
    return effect_of(signed.tx, claimed_utxos(signed), sigs, case.world, setup.owners, setup.labels)


def _sign(psbt: FixedPSBT, verdict: Verdict, key: ec.PrivateKey, ledger: AcpLedger) -> FixedPSBT:
    """What sign_plan does: sign a fresh parse of the reviewed PSBT, then check the result."""
    signed = parse_psbt(psbt_to_bytes(psbt))
    requests = approved_sign_requests(signed, verdict, ledger, "fuzz")
    sign_psbt(signed, SigningKey(key), requests)
    check_signed(parse_psbt(psbt_to_bytes(psbt)), signed, verdict)
    return signed


def _honest_reference(setup: Setup) -> Reference:
    intent = setup.scenario.intent
    psbt = parse_psbt(setup.honest_bytes)
    _, verdict = guard(psbt, setup.context, intent)
    assert verdict.approved, verdict.reasons()
    with tempfile.TemporaryDirectory() as folder:
        signed = _sign(psbt, verdict, setup.scenario.signer, AcpLedger(Path(folder) / "l.json"))
    case = setup.new_case()
    effect = effect_of_signed(signed, verdict, setup, case)
    assert effect.void is None, effect.void
    return Reference(setup, intent, verdict, signed, effect)


@cache
def reference(name: str) -> Reference:
    return _honest_reference(flow_setup(name))


@cache
def bulk_reference(n: int, k: int, ordinals_kind: str = "p2tr") -> Reference:
    return _honest_reference(bulk_batch(n, ordinals_kind).items[k])


# --- one PSBT of a flow ------------------------------------------------------------------------


def _kernel_check(
    unsigned: FixedPSBT,
    signed: FixedPSBT,
    sigs: list[tuple[int, int]],
    key: ec.PrivateKey,
    case: Case,
) -> tuple[str | None, int]:
    """Bitcoin Core must accept exactly the signatures the effect model says can be valid.
    Returns the disagreement (None) and how many signatures the interpreter judged: all of
    ours but those spending a coin that does not exist in a fixed transaction (void anyway)
    and those whose witness our finaliser cannot build."""
    tx = signed.tx
    fixed = not any(h & 0x80 for _, h in sigs)
    if fixed and any(outpoint_of(tx, i) not in case.world for i in range(len(tx.vin))):
        return None, 0
    verdicts = kernel_verdicts(unsigned, signed, [i for i, _ in sigs], key, case.world)
    claimed = claimed_utxos(signed)
    for i, h in sigs:
        if i not in verdicts:
            continue
        model = claims_hold(tx, claimed, case.world, i, h) is None
        if verdicts[i] != model:
            return (
                f"input {i}: Bitcoin Core {'accepts' if verdicts[i] else 'rejects'} our "
                f"signature, the effect model says it {'can' if model else 'cannot'} be valid"
            ), len(verdicts)
    return None, len(verdicts)


def decide(psbt: FixedPSBT, case: Case, intent: Intent) -> tuple[Review, Verdict, int | None]:
    """guard(); a verdict refused only for its fee is decided again with the user's consent
    to that fee (returned third), as accept_fee does after the user agreed."""
    reviewed, verdict = guard(psbt, case.context, intent)
    if verdict.approved or not verdict.needs_fee_consent or reviewed.fee is None:
        return reviewed, verdict, None
    consent = FeeConsent(reviewed.view.digest, reviewed.fee)
    reviewed, verdict = guard(psbt, case.context, with_fee_consent(intent, consent))
    return reviewed, verdict, reviewed.fee


def judge(
    ref: Reference,
    psbt: FixedPSBT,
    verdict: Verdict,
    case: Case,
    ops: Sequence[Op],
    ledger: AcpLedger,
    consented_fee: int | None = None,
) -> Outcome:
    """Sign what `verdict` approved and judge the effect against the honest one."""
    try:
        signed = _sign(psbt, verdict, ref.key, ledger)
    except (PsbtSigningError, VerdictMismatchError, AcpLedgerError) as exc:
        return Outcome(Kind.SIGNER, ops, f"{type(exc).__name__}: {exc}")
    except SignedPsbtMismatchError as exc:
        return Outcome(Kind.CHECK_SIGNED, ops, str(exc))
    return _judge_signed(ref, psbt, signed, signatures_of(verdict), case, ops, consented_fee)


def _judge_signed(
    ref: Reference,
    unsigned: FixedPSBT,
    signed: FixedPSBT,
    sigs: list[tuple[int, int]],
    case: Case,
    ops: Sequence[Op],
    consented_fee: int | None = None,
) -> Outcome:
    mismatch, checked = _kernel_check(unsigned, signed, sigs, ref.key, case)
    kernel = (checked, len(sigs))
    if mismatch:
        return Outcome(Kind.INCONSISTENT, ops, mismatch, kernel=kernel)
    effect = effect_of(
        signed.tx, claimed_utxos(signed), sigs, case.world, ref.setup.owners, ref.setup.labels
    )
    differences = compare(
        ref.effect, effect, ref.allowance(consented_fee), case.world, ref.setup.owners
    )
    bad = [d for d in differences if d.harmful]
    consent = " (after the user's fee consent)" if consented_fee is not None else ""
    detail = f"signed {sigs}{consent}; effect {effect.describe()}"
    if bad:
        detail += f"\n  honest effect {ref.effect.describe()}"
    kind = Kind.HARMFUL if bad else Kind.HARMLESS
    return Outcome(kind, ops, detail, differences, consented_fee is not None, signed, kernel)


def run_unguarded(name: str, ops: Sequence[Op], sigs: list[tuple[int, int]]) -> Outcome:
    """No guard: sign `sigs` ((input, sighash) pairs) on the mutated PSBT of flow `name` and
    judge the effect, as for an approved one. For tests of the judge itself: it must call a
    harmful signature harmful whatever a policy would have said."""
    ref = reference(name)
    case = apply_all(ref.setup.new_case(), list(ops))
    psbt = parse_psbt(case.data)
    signed = parse_psbt(psbt_to_bytes(psbt))
    for i, _ in sigs:
        signed.inputs[i].sighash_type = None
    sign_psbt(signed, SigningKey(ref.key), [SignRequest(i, h) for i, h in sigs])
    return _judge_signed(ref, psbt, signed, sigs, case, ops)


def run_case(ref: Reference, case: Case, ops: Sequence[Op]) -> Outcome:
    try:
        psbt = parse_psbt(case.data)
    except PsbtDecodeError as exc:
        return Outcome(Kind.PARSE, ops, str(exc))
    try:
        _, verdict, consented = decide(psbt, case, ref.intent)
    except Exception as exc:  # a policy must never raise on a hostile PSBT
        return Outcome(Kind.CRASH, ops, f"guard raised {type(exc).__name__}: {exc}")
    if not verdict.approved:
        return Outcome(Kind.VERDICT, ops, ", ".join(verdict.codes))
    with tempfile.TemporaryDirectory() as folder:
        ledger = AcpLedger(Path(folder) / "ledger.json")
        return judge(ref, psbt, verdict, case, ops, ledger, consented)


def run_flow(name: str, ops: Sequence[Op]) -> Outcome:
    """Mutate the honest PSBT and facts of flow `name`; refused or harmless?"""
    ref = reference(name)
    case = apply_all(ref.setup.new_case(), list(ops))
    return run_case(ref, case, ops)
