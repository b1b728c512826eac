"""The signing gate: a PSBT reviewed and decided (`guard`), and the signer's requests for
exactly what the verdict approved, for that very PSBT (`approved_sign_requests`), an
ANYONECANPAY signature only once the ledger of live ones has recorded it.
"""

from __future__ import annotations

from app.core.acp_composition import AcpSignature, commitment
from app.core.psbt_review import SIGHASH_ANYONECANPAY, Review, review
from app.core.psbt_review_context import ReviewContext
from app.core.signing_policy import Intent, Verdict, evaluate
from app.wallet.acp_ledger import AcpLedger
from app.wallet.psbt_fixes import FixedPSBT
from app.wallet.psbt_reader import psbt_digest, unsigned_txid, view_of
from app.wallet.psbt_signer import SignRequest


class VerdictMismatchError(Exception):
    """The verdict does not allow signing this PSBT (refused, or reviewed another one)."""


def guard(psbt: FixedPSBT, context: ReviewContext, intent: Intent) -> tuple[Review, Verdict]:
    """Review `psbt` on the context's network and decide with the intent's policy: the Review
    is for the dialog, the Verdict for `approved_sign_requests`."""
    reviewed = review(view_of(psbt, context.network), context)
    return reviewed, evaluate(reviewed, intent)


def approved_sign_requests(
    psbt: FixedPSBT,
    verdict: Verdict,
    ledger: AcpLedger | None = None,
    label: str = "",
    claim: str | None = None,
) -> list[SignRequest]:
    """The signer's requests for exactly what `verdict` approved, for this very PSBT.

    Refuses when the verdict was a refusal or was reached on another transaction (the PSBT
    changed between review and signing). An ANYONECANPAY request is returned only once its
    signature is recorded in `ledger`, which refuses one that would combine with a live
    signature of ours (`AcpCollisionError`), under `claim` (its batch's: `AcpLedger.record`)."""
    if not verdict.approved:
        raise VerdictMismatchError(f"the {verdict.flow} policy refused this PSBT")
    if psbt_digest(psbt) != verdict.psbt_digest:
        raise VerdictMismatchError(
            f"the PSBT changed after review (txid now {unsigned_txid(psbt)}, reviewed "
            f"{verdict.txid})"
        )
    acp = [p for p in verdict.to_sign if p.sighash & SIGHASH_ANYONECANPAY]
    if acp:
        if ledger is None:
            raise VerdictMismatchError(
                "an ANYONECANPAY signature is made only once it is recorded in the signature "
                "ledger, and none is open"
            )
        ledger.record([_acp_signature(psbt, p.input_index, label) for p in acp], claim)
    return [SignRequest(p.input_index, p.sighash) for p in verdict.to_sign]


def _acp_signature(psbt: FixedPSBT, index: int, label: str) -> AcpSignature:
    version = 2 if psbt.tx_version is None else psbt.tx_version
    locktime = 0 if psbt.locktime is None else psbt.locktime
    outputs = [(int(out.value), bytes(out.script_pubkey.data)) for out in psbt.outputs]
    inp = psbt.inputs[index]
    return AcpSignature(
        f"{inp.txid.hex()}:{inp.vout}", commitment(version, locktime, outputs), label
    )
