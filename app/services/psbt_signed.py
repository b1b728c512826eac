"""A signed PSBT against its review: the same transaction, signed exactly where approved.

    check_signed(unsigned, signed, verdict)                 # raises SignedPsbtMismatchError
    clean = approved_signatures_only(unsigned, signed, verdict)   # what an import submits

`check_signed` follows every signature of ours `sign_plan` makes and every file an offline
signer returns. An offline file may carry more than signature fields (unknown and proprietary
keys, which embit keeps; the key origins the export added): `approved_signatures_only` rebuilds
the PSBT from the reviewed one and copies the approved inputs' signatures alone (and a
P2SH-P2WPKH input's redeem script the reviewed one lacked), so nothing else can reach the
service (a signature of ours hidden in an unknown key, say SIGHASH_NONE, would let anyone take
the coin; our master fingerprint and paths would tell it about the other wallet). Each copied
signature is verified (`psbt_signature_check`): a signature changed on the way, or made over
another transaction, is refused before it is sent.
"""

from __future__ import annotations

from embit.hashes import hash160
from embit.script import Script

from app.core.signing_policy import Verdict
from app.services.errors import ServiceError
from app.wallet.psbt_fixes import FixedInput, FixedPSBT
from app.wallet.psbt_reader import unsigned_txid
from app.wallet.psbt_signature_check import (
    SignatureCheckError,
    check_signatures,
    recover_final_signatures,
)
from app.wallet.psbt_signer import MissingUtxoError, spent_output


class SignedPsbtMismatchError(ServiceError):
    """A signed PSBT is not the reviewed transaction signed exactly where approved."""


def check_signed(unsigned: FixedPSBT, signed: FixedPSBT, verdict: Verdict) -> None:
    """`signed` is `unsigned`'s transaction (same unsigned txid as `verdict`), each input's UTXO
    data unchanged, new signatures exactly on the approved inputs with the approved hash type."""
    txid = unsigned_txid(signed)
    if txid != verdict.txid or len(signed.inputs) != len(unsigned.inputs):
        raise SignedPsbtMismatchError(
            f"The signed PSBT is transaction {txid}, not the reviewed {verdict.txid}: it is "
            "not submitted."
        )
    approved = {p.input_index: p.sighash for p in verdict.to_sign}
    for i, (before, after) in enumerate(zip(unsigned.inputs, signed.inputs, strict=True)):
        if _utxo_bytes(before) != _utxo_bytes(after) and _utxo_bytes(before) is not None:
            raise SignedPsbtMismatchError(f"Input {i}'s UTXO data changed after review.")
        new = _signatures(after) - _signatures(before)
        if i not in approved and new:
            raise SignedPsbtMismatchError(f"Input {i} was signed but was not approved.")
        if i in approved and not new:
            raise SignedPsbtMismatchError(f"Input {i} was approved but is not signed.")
        wrong = {t for t in (_hash_type(s) for s in new) if t != approved.get(i)}
        if wrong:
            raise SignedPsbtMismatchError(
                f"Input {i} is signed with hash type {', '.join(hex(t) for t in wrong)}, not "
                f"the approved {hex(approved[i])}."
            )


def _utxo_bytes(inp: FixedInput) -> bytes | None:
    return None if inp.witness_utxo is None else bytes(inp.witness_utxo.serialize())


def _signatures(inp: FixedInput) -> set[bytes]:
    """Every signature an input carries: partial, taproot key/script path, or finalised."""
    found = {bytes(s) for s in inp.partial_sigs.values()}
    found |= {bytes(s) for s in inp.taproot_sigs.values()}
    if inp.tap_key_sig is not None:
        found.add(bytes(inp.tap_key_sig))
    if inp.final_scriptwitness is not None:
        found |= {bytes(x) for x in inp.final_scriptwitness.items if _looks_like_signature(x)}
    return found


def _looks_like_signature(item: bytes) -> bool:
    return len(item) in (64, 65) or (9 <= len(item) <= 73 and item[:1] == b"\x30")


def _hash_type(sig: bytes) -> int:
    """A Schnorr signature of 64 bytes is SIGHASH_DEFAULT; otherwise the trailing byte."""
    return 0 if len(sig) == 64 else sig[-1]


def approved_signatures_only(unsigned: FixedPSBT, signed: FixedPSBT, verdict: Verdict) -> FixedPSBT:
    """The reviewed PSBT with only the approved inputs' signatures (partial, taproot key
    path, taproot script path) copied from `signed`, after `check_signed` on both; an input
    the other wallet finalised gives its signature back from the final witness. Every copied
    signature must verify against this transaction with the key it names."""
    check_signed(unsigned, signed, verdict)
    clean: FixedPSBT = FixedPSBT.parse(unsigned.serialize())
    for permission in verdict.to_sign:
        i = permission.input_index
        try:
            recover_final_signatures(signed, i)
        except SignatureCheckError as exc:
            raise SignedPsbtMismatchError(
                f"Input {i}: {exc.reason}; nothing is submitted."
            ) from None
        source, target = signed.inputs[i], clean.inputs[i]
        target.partial_sigs = dict(source.partial_sigs)
        target.taproot_sigs = dict(source.taproot_sigs)
        target.tap_key_sig = source.tap_key_sig
        if target.redeem_script is None:
            target.redeem_script = _redeem_script_of_p2sh_p2wpkh(clean, i, source)
    check_signed(unsigned, clean, verdict)  # a final witness this app cannot read is not kept
    for permission in verdict.to_sign:
        try:
            check_signatures(clean, permission.input_index)
        except SignatureCheckError as exc:
            raise SignedPsbtMismatchError(
                f"Input {exc.input_index}'s signature is not valid ({exc.reason}): it was "
                "changed, or made for another transaction. Nothing is submitted."
            ) from None
    return clean


def _redeem_script_of_p2sh_p2wpkh(
    clean: FixedPSBT, index: int, source: FixedInput
) -> Script | None:
    """The signed file's redeem script of a P2SH-P2WPKH input the reviewed PSBT lacks it for
    (the export gave it to the signer): checking the signature and finalising need it, and it
    says nothing the signature's key does not (0014, then that key's hash). None otherwise."""
    redeem = None if source.redeem_script is None else bytes(source.redeem_script.data)
    try:
        utxo = spent_output(clean, index)
    except MissingUtxoError:
        return None
    spk = b"" if utxo is None else bytes(utxo.script_pubkey.data)
    if redeem is None or len(redeem) != 22 or redeem[:2] != b"\x00\x14":
        return None
    if len(spk) != 23 or spk[:2] != b"\xa9\x14" or spk[22] != 0x87:
        return None
    return Script(redeem) if hash160(redeem) == spk[2:22] else None
