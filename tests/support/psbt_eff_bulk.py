"""A batch of secure listings under the guard's fuzz property (`run_bulk`): each listing
refused or approved; the approved ones must pass the ANYONECANPAY collision check exactly when
no two of their signatures combine, and what is signed must be harmless, item by item and
together (an ALL signature helped by other listings' ANYONECANPAY ones).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from app.core.acp_composition import acp_signatures, collisions
from app.core.psbt_review import Review
from app.core.signing_policy import Verdict
from app.wallet.acp_ledger import AcpLedger
from app.wallet.psbt_fixes import FixedPSBT
from app.wallet.psbt_io import PsbtDecodeError, parse_psbt
from app.wallet.signing_gate import guard
from tests.support.psbt_eff_compare import Allowance, Difference, compare
from tests.support.psbt_eff_flow import Reference, bulk_reference, judge, signatures_of
from tests.support.psbt_eff_model import OPEN, OURS, Effect, claimed_utxos, commitment, outpoint_of
from tests.support.psbt_eff_outcome import Kind, Outcome
from tests.support.psbt_effects import effect_of
from tests.support.psbt_mut_bulk import BatchCase, bulk_batch
from tests.support.psbt_mutations import Op


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
