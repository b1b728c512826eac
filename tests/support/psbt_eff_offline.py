"""Offline import under the guard's fuzz property (`run_offline`): the honest PSBT of a flow,
signed offline, comes back mutated (tests.support.psbt_mut_offline); the import must refuse it
or submit only the approved signatures, with the honest effect (or none).
"""

from __future__ import annotations

from collections.abc import Sequence

from app.services.psbt_signed import SignedPsbtMismatchError, approved_signatures_only
from app.wallet.psbt_io import PsbtDecodeError, parse_psbt, psbt_to_bytes
from tests.support.psbt_eff_compare import Allowance, Difference, compare
from tests.support.psbt_eff_flow import reference, signatures_of
from tests.support.psbt_eff_model import claimed_utxos
from tests.support.psbt_eff_outcome import Kind, Outcome
from tests.support.psbt_eff_signatures import our_valid_signatures
from tests.support.psbt_effects import effect_of
from tests.support.psbt_mutations import Op, apply_all


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
    effect = effect_of(
        tx, claimed_utxos(unsigned), sorted(found), case.world, ref.setup.owners, ref.setup.labels
    )
    differences = compare(ref.effect, effect, Allowance(tip=ref.setup.tip))
    extra = {(i, h or 0x01) for i, h in found} - approved
    if extra:
        differences.append(
            Difference(True, f"carries signatures of ours it was not approved for: {sorted(extra)}")
        )
    detail = f"accepted; our valid signatures {sorted(found)}; effect {effect.describe()}"
    kind = Kind.HARMFUL if any(d.harmful for d in differences) else Kind.HARMLESS
    return Outcome(kind, ops, detail, differences)
