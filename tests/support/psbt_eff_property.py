"""The guard's fuzz property, shared by tests/core/test_guard_fuzz.py and
benchmarks/bench_guard_fuzz.py: a mutated PSBT is refused, or our signatures on it are
harmless.

    outcome = run_flow("withdraw", ops)        # ops from psbt_mutations.mutation_lists()
    outcome = run_bulk(3, ops)                 # ops from psbt_mut_bulk.batch_ops()
    outcome = run_offline("secure_listing", ops)  # ops from psbt_mut_offline.offline_ops()
    assert not outcome.failed, outcome.report()

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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import cache, partial
from math import floor
from pathlib import Path
from typing import Any

from embit import ec
from hypothesis import strategies as st

from app.core.acp_composition import acp_signatures, collisions
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
from app.services.psbt_signed import (
    SignedPsbtMismatchError,
    approved_signatures_only,
    check_signed,
)
from app.wallet.acp_ledger import AcpLedger, AcpLedgerError
from app.wallet.psbt_fixes import FixedPSBT
from app.wallet.psbt_io import PsbtDecodeError, parse_psbt, psbt_to_bytes
from app.wallet.psbt_signer import PsbtSigningError, SigningKey, SignRequest, sign_psbt
from app.wallet.psbt_view import VerdictMismatchError, approved_sign_requests, guard
from tests.support.psbt_eff_signatures import kernel_verdicts, our_valid_signatures
from tests.support.psbt_effects import (
    OPEN,
    OURS,
    Allowance,
    Difference,
    Effect,
    claimed_utxos,
    claims_hold,
    commitment,
    compare,
    effect_of,
    outpoint_of,
)
from tests.support.psbt_mut_bulk import (
    MAX_ITEMS,
    ORDINALS_KINDS,
    BatchCase,
    batch_ops,
    bulk_batch,
)
from tests.support.psbt_mut_offline import offline_ops
from tests.support.psbt_mutations import Case, Op, Setup, apply_all, flow_setup, mutation_lists
from tests.support.psbt_scenarios import FASTEST

FLOWS = (
    "funding",
    "withdraw",
    "inscription_bid",
    "inscription_bid_taproot",
    "secure_listing",
    "secure_listing_runes",
)
OFFLINE_FLOWS = ("withdraw", "inscription_bid", "inscription_bid_taproot", "secure_listing")


class Kind(StrEnum):
    PARSE = "refused by parse_psbt"
    VERDICT = "refused by the policy"
    SIGNER = "refused by the signing gate or signer"
    COLLISION = "refused by the ANYONECANPAY collision check"
    CHECK_SIGNED = "refused by check_signed"
    HARMLESS = "approved, harmless"
    HARMFUL = "APPROVED AND HARMFUL"
    INCONSISTENT = "INCONSISTENT"  # a check disagrees with an independent one
    CRASH = "CRASH"


@dataclass
class Outcome:
    kind: Kind
    ops: Sequence[Op]
    detail: str = ""
    differences: list[Difference] = field(default_factory=list)
    consented_fee: bool = False
    signed: FixedPSBT | None = field(default=None, repr=False)  # what was signed, if anything
    kernel: tuple[int, int] = (0, 0)  # our signatures Bitcoin Core judged, of those we made

    @property
    def failed(self) -> bool:
        return self.kind in (Kind.HARMFUL, Kind.INCONSISTENT, Kind.CRASH)

    @property
    def refused(self) -> bool:
        return self.kind not in (Kind.HARMLESS, Kind.HARMFUL, Kind.INCONSISTENT, Kind.CRASH)

    def report(self) -> str:
        lines = [f"{self.kind}: {self.detail}", "mutations:"]
        lines += [f"  {op!r}" for op in self.ops]
        lines += [f"  {d!r}" for d in self.differences]
        return "\n".join(lines)


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
    return effect_of(signed.tx, claimed_utxos(signed), sigs, case.world, setup.owners)


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
    effect = effect_of(signed.tx, claimed_utxos(signed), sigs, case.world, ref.setup.owners)
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


# --- a batch of secure listings ----------------------------------------------------------------


def _combinable(signed: Sequence[tuple[FixedPSBT, Verdict]]) -> list[tuple[str, str]]:
    """Pairs of our ANYONECANPAY signatures on different coins whose (version, lock time,
    outputs) are equal: one transaction can carry both and pay those outputs once. Computed
    from the transactions themselves, independently of app.core.acp_composition."""
    seen: dict[str, str] = {}
    pairs = []
    for psbt, verdict in signed:
        tx = psbt.tx
        for i, h in signatures_of(verdict):
            if not h & 0x80:
                continue
            outpoint, commit = outpoint_of(tx, i), commitment(tx)
            other = seen.setdefault(commit, outpoint)
            if other != outpoint:
                pairs.append((other, outpoint))
    return pairs


def run_bulk(n: int, ops: Sequence[Op], ordinals_kind: str = "p2tr") -> Outcome:
    """A batch of `n` listings, some mutated: each refused or approved; the approved ones
    must pass the collision check exactly when no two of their signatures combine, and what is
    signed must be harmless, item by item and together."""
    batch = BatchCase(bulk_batch(n, ordinals_kind))
    ref = partial(bulk_reference, n, ordinals_kind=ordinals_kind)
    for op in ops:
        op.apply(batch)
    decided = []
    refused, unparsed = [], []
    for k, case in enumerate(batch.cases):
        try:
            psbt = parse_psbt(case.data)
        except PsbtDecodeError as exc:
            unparsed.append(f"item {k}: {exc}")
            continue
        try:
            reviewed, verdict = guard(psbt, case.context, ref(k).intent)
        except Exception as exc:
            return Outcome(Kind.CRASH, ops, f"item {k}: guard raised {type(exc).__name__}: {exc}")
        if verdict.approved:
            decided.append((k, psbt, reviewed, verdict))
        else:
            refused.append(f"item {k}: {', '.join(verdict.codes)}")
    new = [s for _, _, r, v in decided for s in acp_signatures(r, v, "fuzz")]
    found = collisions(new, [])
    pairs = _combinable([(psbt, v) for _, psbt, _, v in decided])
    if bool(found) != bool(pairs):
        what = "misses" if pairs else "invents"
        return Outcome(Kind.INCONSISTENT, ops, f"the collision check {what} {pairs or found}")
    if refused or unparsed:  # prepare_listings refuses the whole batch on the first one
        kind = Kind.VERDICT if refused else Kind.PARSE
        return Outcome(kind, ops, "; ".join(unparsed + refused))
    if found:
        return Outcome(Kind.COLLISION, ops, found[0].refusal().message)
    outcome = _sign_batch(ref, batch, decided, ops)
    outcome.detail = f"a batch of {n} listings, ordinals {ordinals_kind}:\n{outcome.detail}"
    return outcome


def _sign_batch(
    ref: Callable[[int], Reference],
    batch: BatchCase,
    decided: list[tuple[int, FixedPSBT, Review, Verdict]],
    ops: Sequence[Op],
) -> Outcome:
    details, differences = [], []
    signed: list[tuple[int, FixedPSBT, Verdict]] = []
    kernel = (0, 0)
    with tempfile.TemporaryDirectory() as folder:
        ledger = AcpLedger(Path(folder) / "ledger.json")  # shared by the batch, as the app's
        for k, psbt, _, verdict in decided:
            outcome = judge(ref(k), psbt, verdict, batch.cases[k], ops, ledger)
            if outcome.refused:
                return Outcome(outcome.kind, ops, f"item {k}: {outcome.detail}")
            if outcome.failed:
                outcome.detail = f"item {k}: {outcome.detail}"
                return outcome
            assert outcome.signed is not None
            signed.append((k, outcome.signed, verdict))
            kernel = (kernel[0] + outcome.kernel[0], kernel[1] + outcome.kernel[1])
            details.append(f"item {k}: {outcome.detail}")
            differences += outcome.differences
    composed = _composed(ref, batch, signed)
    kind = Kind.HARMFUL if any(d.harmful for d in composed) else Kind.HARMLESS
    return Outcome(kind, ops, "\n".join(details), differences + composed, kernel=kernel)


def _sold_items(effects: Sequence[Effect]) -> dict[str, str]:
    """Items as several honest sales leave them: sold (open) if any sale sells it."""
    items: dict[str, str] = {}
    for e in effects:
        for name, where in e.items.items():
            if items.get(name) != OPEN:
                items[name] = where
    return items


def _composed(
    ref: Callable[[int], Reference],
    batch: BatchCase,
    signed: list[tuple[int, FixedPSBT, Verdict]],
) -> list[Difference]:
    """A fixed (ALL) signature's transaction that spends another coin of ours is void alone,
    but not if another listing's ANYONECANPAY signature on that coin commits to the same
    outputs: then it is one purchase of several items, judged against their honest sales."""
    acp: dict[str, list[tuple[str, int]]] = {}
    for k, psbt, verdict in signed:
        tx = psbt.tx
        for i, h in signatures_of(verdict):
            if h & 0x80:
                acp.setdefault(outpoint_of(tx, i), []).append((commitment(tx), k))
    found = []
    world, setup = batch.cases[0].world, batch.batch.items[0]
    for k, psbt, verdict in signed:
        sigs = signatures_of(verdict)
        if any(h & 0x80 for _, h in sigs):
            continue  # two ANYONECANPAY signatures: the collision check's business
        tx, ours = psbt.tx, {i for i, _ in sigs}
        helpers = {
            j: other
            for j in range(len(tx.vin))
            if j not in ours
            for commit, other in acp.get(outpoint_of(tx, j), [])
            if commit == commitment(tx)
        }
        if not helpers:
            continue
        claimed = claimed_utxos(psbt)
        for j in helpers:  # the other signature was made on its own (true) UTXO data
            coin = world.get(outpoint_of(tx, j))
            claimed[j] = coin.txout if coin else claimed[j]
        together = sigs + [(j, 0x81) for j in helpers]
        effect = effect_of(tx, claimed, together, world, setup.owners)
        sold = [ref(m).effect for m in {k, *helpers.values()}]
        baseline = Effect(
            sent={r: sum(e.sent.get(r, 0) for e in sold) for r in OURS},
            received={r: sum(e.received.get(r, 0) for e in sold) for r in OURS},
            items=_sold_items(sold),
        )
        for d in compare(baseline, effect, Allowance(tip=setup.tip), world, setup.owners):
            prefix = f"item {k}'s ALL signature with items {sorted(set(helpers.values()))}'s"
            found.append(Difference(d.harmful, f"{prefix} ANYONECANPAY ones: {d.text}"))
    return found


# --- offline import ------------------------------------------------------------------------------


def run_offline(name: str, ops: Sequence[Op]) -> Outcome:
    """The honest PSBT of `name`, signed offline, comes back through `ops`: the import must
    refuse any change of the transaction and any signature of ours it does not approve, and
    what it submits (approved_signatures_only) must have the honest effect (or none)."""
    ref = reference(name)
    case = apply_all(ref.setup.new_case(psbt_to_bytes(ref.signed)), list(ops))
    try:
        returned = parse_psbt(case.data)
    except PsbtDecodeError as exc:
        return Outcome(Kind.PARSE, ops, str(exc))
    unsigned = parse_psbt(ref.setup.honest_bytes)
    try:
        # What import_signed hands to submit: the reviewed PSBT with the approved signatures.
        clean = approved_signatures_only(unsigned, returned, ref.verdict)
    except SignedPsbtMismatchError as exc:
        return Outcome(Kind.CHECK_SIGNED, ops, str(exc))
    except Exception as exc:
        return Outcome(Kind.CRASH, ops, f"check_signed raised {type(exc).__name__}: {exc}")
    submitted = parse_psbt(psbt_to_bytes(clean))
    found = our_valid_signatures(submitted, unsigned, ref.key, case.world, ref.setup.owners)
    # DEFAULT and ALL commit to the same thing (BIP-341): one is no extra over the other.
    approved = {(i, h or 0x01) for i, h in signatures_of(ref.verdict)}
    tx = submitted.tx
    effect = effect_of(tx, claimed_utxos(unsigned), sorted(found), case.world, ref.setup.owners)
    differences = compare(ref.effect, effect, Allowance(tip=ref.setup.tip))
    extra = {(i, h or 0x01) for i, h in found} - approved
    if extra:
        differences.append(
            Difference(True, f"carries signatures of ours it was not approved for: {sorted(extra)}")
        )
    detail = f"accepted; our valid signatures {sorted(found)}; effect {effect.describe()}"
    kind = Kind.HARMFUL if any(d.harmful for d in differences) else Kind.HARMLESS
    return Outcome(kind, ops, detail, differences)


# --- the fuzz targets: one per flow ---------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """A flow to fuzz: hypothesis draws `strategy`, `run` turns the draw into an Outcome."""

    name: str
    strategy: st.SearchStrategy[Any]
    run: Callable[[Any], Outcome]


def _single(name: str) -> Target:
    return Target(name, mutation_lists(), lambda ops: run_flow(name, ops))


def targets() -> dict[str, Target]:
    """Every flow of issue 12: the six single-PSBT flows, a bulk listing, offline import."""
    found = {name: _single(name) for name in FLOWS}
    found["secure_listing_bulk"] = Target(
        "secure_listing_bulk",
        st.tuples(st.integers(2, MAX_ITEMS), batch_ops(), st.sampled_from(ORDINALS_KINDS)),
        lambda draw: run_bulk(*draw),
    )
    found["offline_import"] = Target(
        "offline_import",
        st.tuples(st.sampled_from(OFFLINE_FLOWS), offline_ops()),
        lambda draw: run_offline(*draw),
    )
    return found
