"""What our ANYONECANPAY signatures allow together.

A SIGHASH_ALL|ANYONECANPAY signature commits to its own input (outpoint, amount, script,
nSequence) and to the transaction's version, lock time and every output, but to no other
input. So two such signatures of ours whose (version, lock time, outputs) are identical are
BOTH valid in one transaction that spends both inputs and carries that output list once: a
buyer takes two listed items and the seller is paid once. Conversely, signatures whose
commitments differ can never share a transaction (a transaction has one output list).

So the rule is exact: no two live ANYONECANPAY signatures of ours (their input still unspent)
may have the same commitment with different inputs. Two signatures on the same input cannot
share a transaction (an input is spent once), so re-listing one item collides with nothing;
nor can a coin and one created by the transaction spending it (an item relisted on the
output of the move that ended its listing: `AcpSignature.spent_by`).
`app.wallet.acp_ledger` keeps the live signatures; this module computes and compares.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from app.core.policy_verdict import Refusal, RefusalCode, Verdict
from app.core.psbt_review import SIGHASH_ANYONECANPAY, Review
from app.core.psbt_view import PsbtView


@dataclass(frozen=True)
class AcpSignature:
    """One ANYONECANPAY signature of ours: the input it signs and what else it commits to."""

    outpoint: str
    commitment: str  # hex SHA-256 of version, lock time and the serialized outputs
    label: str = ""  # what the user did, e.g. "List inscription ... for 100,000 sats"
    # The txid of our own transaction spending this coin (the move that ended its listing;
    # "" when none). Until it is buried the signature counts as live, but a coin that very
    # transaction creates exists only while this one is spent: the two never share a spend.
    spent_by: str = ""
    # Which `AcpLedger.record` call added the entry ("": shared, or of an older version): only
    # that call's flow may `withdraw` it, and only while no other flow recorded it too.
    claim: str = field(default="", compare=False, repr=False)

    def never_spent_with(self, outpoint: str) -> bool:
        """`outpoint` is an output of the transaction that spends this signature's coin."""
        return bool(self.spent_by) and outpoint.partition(":")[0] == self.spent_by


@dataclass(frozen=True)
class Collision:
    """`new` and `other` can be satisfied by one transaction that pays their outputs once."""

    new: AcpSignature
    other: AcpSignature
    other_is_live: bool  # signed before (still valid) rather than in the same batch

    def refusal(self) -> Refusal:
        when = (
            "signed earlier and still valid (its coin is not spent for good)"
            if self.other_is_live
            else ("in this same batch")
        )
        what = f" ({self.other.label})" if self.other.label else ""
        return Refusal(
            RefusalCode.ACP_SIGNATURE_COLLISION,
            f"This signature on {self.new.outpoint} would commit to exactly the outputs of "
            f"another ANYONECANPAY signature on {self.other.outpoint}{what}, {when}: one "
            "transaction could spend both coins and pay those outputs once, so a buyer would "
            "get both items for one price. Nothing is signed; ask the service for listings "
            "whose outputs differ.",
        )


def _compact_size(n: int) -> bytes:
    if n < 0xFD:
        return bytes([n])
    if n <= 0xFFFF:
        return b"\xfd" + n.to_bytes(2, "little")
    if n <= 0xFFFFFFFF:
        return b"\xfe" + n.to_bytes(4, "little")
    return b"\xff" + n.to_bytes(8, "little")


def commitment(version: int, locktime: int, outputs: Sequence[tuple[int, bytes]]) -> str:
    """SHA-256 over what an ALL|ANYONECANPAY signature fixes besides its own input: version,
    lock time and the (value, scriptPubKey) outputs, serialized as in the transaction."""
    data = bytearray()
    data += (version & 0xFFFFFFFF).to_bytes(4, "little")
    data += locktime.to_bytes(4, "little")
    data += _compact_size(len(outputs))
    for value, script_pubkey in outputs:
        data += value.to_bytes(8, "little")
        data += _compact_size(len(script_pubkey)) + script_pubkey
    return hashlib.sha256(bytes(data)).hexdigest()


def commitment_of(view: PsbtView) -> str:
    return commitment(
        view.version, view.locktime, [(o.value, o.script_pubkey) for o in view.outputs]
    )


def acp_signatures(review: Review, verdict: Verdict, label: str = "") -> tuple[AcpSignature, ...]:
    """The ANYONECANPAY signatures `verdict` allows on `review`'s PSBT."""
    commitment = commitment_of(review.view)
    return tuple(
        AcpSignature(review.inputs[p.input_index].outpoint, commitment, label)
        for p in verdict.to_sign
        if p.sighash & SIGHASH_ANYONECANPAY
    )


def collisions(new: Sequence[AcpSignature], live: Sequence[AcpSignature]) -> tuple[Collision, ...]:
    """Every new signature that one transaction could satisfy together with a live one, or
    with an earlier new one (in order: the first of two colliding new signatures is kept)."""
    found: list[Collision] = []
    live_by_commitment: dict[str, list[AcpSignature]] = {}
    for sig in live:
        live_by_commitment.setdefault(sig.commitment, []).append(sig)
    batch: dict[str, list[AcpSignature]] = {}
    for sig in new:
        clash = next(
            (
                o
                for o in live_by_commitment.get(sig.commitment, ())
                if o.outpoint != sig.outpoint and not o.never_spent_with(sig.outpoint)
            ),
            None,
        )
        if clash is not None:
            found.append(Collision(sig, clash, other_is_live=True))
        else:
            earlier = next(
                (o for o in batch.get(sig.commitment, ()) if o.outpoint != sig.outpoint), None
            )
            if earlier is not None:
                found.append(Collision(sig, earlier, other_is_live=False))
        batch.setdefault(sig.commitment, []).append(sig)
    return tuple(found)
