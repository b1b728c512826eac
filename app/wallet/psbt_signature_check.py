"""Signatures made elsewhere, checked before anything is sent: each one must verify, with the
key it names, against the sighash of this very transaction (BIP-143 for segwit v0, BIP-341
for taproot) and the hash type it carries.

    recover_final_signatures(psbt, i)   # a wallet that finalised the input: back to PSBT fields
    check_signatures(psbt, i)           # SignatureCheckError when one does not verify

Wallets often finalise what they sign (Unisat does by default): `recover_final_signatures`
reads the signature back out of the final witness for the input types this app signs with
(P2WPKH, P2SH-P2WPKH, P2TR key path, P2WSH multisig), so the caller can keep only the approved
signatures and submit the reviewed PSBT with them.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict

from embit import ec
from embit.hashes import hash160
from embit.script import Script

from app.wallet.psbt_fixes import FixedInput, FixedPSBT
from app.wallet.psbt_signer import MissingUtxoError, spent_output
from app.wallet.scripts import parse_multisig_script
from app.wallet.secp import ecdsa_verify, is_strict_der, schnorr_verify
from app.wallet.sighash import (
    ECDSA_HASH_TYPES,
    TAPROOT_HASH_TYPES,
    SighashError,
    TaprootSigContext,
    segwit_v0_sighash,
)


class SignatureCheckError(Exception):
    """A signature on input `input_index` does not verify, or cannot be checked."""

    def __init__(self, input_index: int, reason: str) -> None:
        super().__init__(f"input {input_index}: {reason}")
        self.input_index = input_index
        self.reason = reason


def _spent_script(psbt: FixedPSBT, index: int) -> tuple[bytes, int]:
    try:
        utxo = spent_output(psbt, index)
    except MissingUtxoError as exc:
        raise SignatureCheckError(index, exc.reason) from None
    if utxo is None:
        raise SignatureCheckError(index, "its spent output is unknown")
    return bytes(utxo.script_pubkey.data), int(utxo.value)


def _script_code(inp: FixedInput, index: int, spk: bytes, sec: bytes) -> bytes:
    """What a segwit v0 signature of key `sec` commits to for this input's script."""
    if len(spk) == 22 and spk[:2] == b"\x00\x14" and spk[2:] == hash160(sec):
        return b"\x76\xa9\x14" + spk[2:] + b"\x88\xac"
    redeem = None if inp.redeem_script is None else bytes(inp.redeem_script.data)
    if (
        len(spk) == 23
        and redeem is not None
        and hash160(redeem) == spk[2:22]
        and redeem == b"\x00\x14" + hash160(sec)
    ):
        return b"\x76\xa9\x14" + redeem[2:] + b"\x88\xac"
    witness = None if inp.witness_script is None else bytes(inp.witness_script.data)
    if (
        len(spk) == 34
        and spk[:2] == b"\x00\x20"
        and witness is not None
        and hashlib.sha256(witness).digest() == spk[2:]
    ):
        multisig = parse_multisig_script(witness)
        if multisig is not None and sec in multisig[1]:
            return witness
    raise SignatureCheckError(index, f"key {sec.hex()} does not belong to the spent script")


def check_signatures(psbt: FixedPSBT, index: int) -> int:
    """Verify every signature input `index` carries (partial, taproot key path, taproot
    script path); returns how many. Raises `SignatureCheckError` naming the first bad one."""
    inp: FixedInput = psbt.inputs[index]
    spk, amount = _spent_script(psbt, index)
    tx = psbt.tx
    checked = 0
    for pub, sig in inp.partial_sigs.items():
        sec, raw = bytes(pub.sec()), bytes(sig)
        hash_type, der = raw[-1], raw[:-1]
        if hash_type not in ECDSA_HASH_TYPES or not is_strict_der(der):
            raise SignatureCheckError(index, f"the signature of key {sec.hex()} is malformed")
        message = segwit_v0_sighash(
            tx, index, _script_code(inp, index, spk, sec), amount, hash_type
        )
        if not ecdsa_verify(der, message, sec):
            raise SignatureCheckError(index, f"the signature of key {sec.hex()} does not verify")
        checked += 1
    taproot: list[tuple[tuple[bytes, bytes] | None, bytes]] = []
    if inp.tap_key_sig is not None:
        taproot.append((None, bytes(inp.tap_key_sig)))
    for (pub, leaf), sig in inp.taproot_sigs.items():
        taproot.append(((bytes(pub.xonly()), bytes(leaf)), bytes(sig)))
    if taproot:
        context = _taproot_context(psbt, index)
        for where, sig in taproot:
            _check_schnorr(context, index, spk, where, sig)
            checked += 1
    return checked


def _taproot_context(psbt: FixedPSBT, index: int) -> TaprootSigContext:
    spent = []
    for j in range(len(psbt.inputs)):
        try:
            out = spent_output(psbt, j)
        except MissingUtxoError:
            out = None
        if out is None:
            raise SignatureCheckError(index, f"a taproot signature needs input {j}'s UTXO data")
        spent.append(out)
    try:
        return TaprootSigContext(psbt.tx, spent)
    except SighashError as exc:
        raise SignatureCheckError(index, str(exc)) from None


def _check_schnorr(
    context: TaprootSigContext,
    index: int,
    spk: bytes,
    where: tuple[bytes, bytes] | None,
    sig: bytes,
) -> None:
    hash_type = 0 if len(sig) == 64 else sig[-1]
    if len(sig) not in (64, 65) or hash_type not in TAPROOT_HASH_TYPES or sig[64:] == b"\x00":
        raise SignatureCheckError(index, "a taproot signature is malformed")
    if where is None:
        if len(spk) != 34 or spk[:2] != b"\x51\x20":
            raise SignatureCheckError(index, "a taproot signature on an input that is not taproot")
        message, key = context.sighash(index, hash_type), spk[2:]
    else:
        key, leaf = where
        message = context.sighash(index, hash_type, leaf_hash=leaf)
    if not schnorr_verify(sig[:64], message, key):
        raise SignatureCheckError(index, "the taproot signature does not verify")


def recover_final_signatures(psbt: FixedPSBT, index: int) -> bool:
    """Move the signature of a finalised single-key or P2WSH multisig input back into its
    PSBT fields (partial signature or PSBT_IN_TAP_KEY_SIG); False when there was nothing to
    recover (not finalised, already has its fields, or a form this app does not read)."""
    inp: FixedInput = psbt.inputs[index]
    final = inp.final_scriptwitness
    if final is None or inp.partial_sigs or inp.tap_key_sig is not None or inp.taproot_sigs:
        return False
    items = [bytes(x) for x in final.items]
    spk, _amount = _spent_script(psbt, index)
    if len(spk) == 34 and spk[:2] == b"\x51\x20":
        if len(items) == 1 and len(items[0]) in (64, 65):
            inp.tap_key_sig = items[0]
            return True
        return False
    if len(spk) == 22 and spk[:2] == b"\x00\x14":
        return _recover_single_key(inp, items, spk[2:])
    if len(spk) == 23 and spk[:2] == b"\xa9\x14":
        redeem = _pushed_redeem_script(inp)
        if redeem is None or hash160(redeem) != spk[2:22] or redeem[:2] != b"\x00\x14":
            return False
        if inp.redeem_script is None:
            inp.redeem_script = Script(redeem)
        return _recover_single_key(inp, items, redeem[2:])
    if len(spk) == 34 and spk[:2] == b"\x00\x20":
        return _recover_multisig(psbt, index, inp, items, spk)
    return False


def _recover_single_key(inp: FixedInput, items: list[bytes], key_hash: bytes) -> bool:
    if len(items) != 2 or hash160(items[1]) != key_hash:
        return False
    inp.partial_sigs = OrderedDict([(ec.PublicKey.parse(items[1]), items[0])])
    return True


def _pushed_redeem_script(inp: FixedInput) -> bytes | None:
    script_sig = None if inp.final_scriptsig is None else bytes(inp.final_scriptsig.data)
    if script_sig is None or not script_sig or script_sig[0] != len(script_sig) - 1:
        return None
    return script_sig[1:]


def _recover_multisig(
    psbt: FixedPSBT, index: int, inp: FixedInput, items: list[bytes], spk: bytes
) -> bool:
    """["", sig..., witness script]: each signature matched to the key it verifies with."""
    if len(items) < 3 or items[0] != b"" or hashlib.sha256(items[-1]).digest() != spk[2:]:
        return False
    multisig = parse_multisig_script(items[-1])
    if multisig is None:
        return False
    if inp.witness_script is None:
        inp.witness_script = Script(items[-1])
    _spk, amount = _spent_script(psbt, index)
    tx = psbt.tx
    found: OrderedDict[ec.PublicKey, bytes] = OrderedDict()
    for sig in items[1:-1]:
        if not sig or sig[-1] not in ECDSA_HASH_TYPES:
            return False
        message = segwit_v0_sighash(tx, index, items[-1], amount, sig[-1])
        signer = next((k for k in multisig[1] if ecdsa_verify(sig[:-1], message, k)), None)
        if signer is None:
            return False  # check_signatures will say which input does not verify
        found[ec.PublicKey.parse(signer)] = sig
    inp.partial_sigs = found
    return True
