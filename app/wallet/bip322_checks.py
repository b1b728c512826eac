"""Our own BIP-322 script checks: does to_sign's input 0 validly spend the address?

Covers P2PKH, P2WPKH, P2SH-P2WPKH, P2TR key path and P2WSH bare multisig, with the policy
rules BIP-322 asks for on top of consensus: the witness key must hash to the address program
(the check whose absence let any key "prove" any P2WPKH address in the Rust crate before
0.0.11), SIGHASH_ALL only (DEFAULT or ALL on taproot), strict DER, low S, compressed witness
keys, NULLDUMMY. Anything else raises SignatureUnsupportedError so the caller can hand it to
another verifier.
"""

from __future__ import annotations

from embit import hashes
from embit.script import Script
from embit.transaction import SIGHASH, Transaction

from app.wallet.addresses import DecodedAddress, ScriptKind
from app.wallet.secp import (
    SignatureInvalidError,
    SignatureUnsupportedError,
    ecdsa_verify,
    is_low_s,
    is_strict_der,
    schnorr_verify,
)

_OP_CHECKMULTISIG = 0xAE


def check_spend(
    decoded: DecodedAddress, tx: Transaction, script_sig: bytes | None, witness: list[bytes]
) -> None:
    """Raise unless input 0 of `tx` spends `decoded` (0 sat). `script_sig` None = simple
    format, where a P2SH-P2WPKH redeem script is implied by the witness key."""
    kind = decoded.kind
    if kind is ScriptKind.P2PKH:
        _check_p2pkh(decoded, tx, script_sig or b"", witness)
        return
    if kind is ScriptKind.P2SH:
        _check_p2sh_p2wpkh(decoded, tx, script_sig, witness)
        return
    if script_sig:
        raise SignatureInvalidError("a native segwit spend must have an empty scriptSig")
    if kind is ScriptKind.P2WPKH:
        _check_p2wpkh(tx, decoded.program, witness)
    elif kind is ScriptKind.P2TR:
        _check_taproot_key_path(decoded, tx, witness)
    else:
        _check_p2wsh_multisig(decoded, tx, witness)


def _check_ecdsa(sig: bytes, pubkey: bytes, digest: bytes) -> None:
    if not sig:
        raise SignatureInvalidError("the signature is empty")
    if sig[-1] != SIGHASH.ALL:
        raise SignatureInvalidError("BIP-322 ECDSA signatures must use SIGHASH_ALL")
    der = sig[:-1]
    if not is_strict_der(der):
        raise SignatureInvalidError("the ECDSA signature is not strict DER")
    if not is_low_s(der):
        raise SignatureInvalidError("the ECDSA signature has a high S value")
    if not ecdsa_verify(der, digest, pubkey):
        raise SignatureInvalidError("the ECDSA signature does not verify")


def _compressed(pubkey: bytes) -> bool:
    return len(pubkey) == 33 and pubkey[0] in (2, 3)


def _check_p2wpkh(tx: Transaction, key_hash: bytes, witness: list[bytes]) -> None:
    if len(witness) != 2:
        raise SignatureInvalidError("a P2WPKH witness has exactly a signature and a key")
    sig, pubkey = witness
    if not _compressed(pubkey):
        raise SignatureInvalidError("segwit v0 keys must be compressed")
    if hashes.hash160(pubkey) != key_hash:
        raise SignatureInvalidError("the witness public key does not match the address")
    script_code = Script(b"\x76\xa9\x14" + key_hash + b"\x88\xac")
    _check_ecdsa(sig, pubkey, tx.sighash_segwit(0, script_code, 0, SIGHASH.ALL))


def _check_p2sh_p2wpkh(
    decoded: DecodedAddress, tx: Transaction, script_sig: bytes | None, witness: list[bytes]
) -> None:
    if script_sig is None:  # simple format: only a [signature, key] witness implies P2WPKH
        if len(witness) != 2 or not _compressed(witness[1]):
            raise SignatureUnsupportedError("only P2SH-P2WPKH is checked among P2SH scripts")
        redeem = b"\x00\x14" + hashes.hash160(witness[1])
    else:
        pushes = parse_pushes(script_sig)
        if pushes is None or len(pushes) != 1:
            raise SignatureUnsupportedError("only P2SH-P2WPKH is checked among P2SH scripts")
        redeem = pushes[0]
    if len(redeem) != 22 or redeem[:2] != b"\x00\x14":
        raise SignatureUnsupportedError("only P2SH-P2WPKH is checked among P2SH scripts")
    if hashes.hash160(redeem) != decoded.program:
        raise SignatureInvalidError("the witness public key does not match the address")
    _check_p2wpkh(tx, redeem[2:], witness)


def _check_taproot_key_path(decoded: DecodedAddress, tx: Transaction, witness: list[bytes]) -> None:
    if len(witness) != 1:
        if len(witness) > 1:
            raise SignatureUnsupportedError("taproot script-path (or annex) spends")
        raise SignatureInvalidError("the taproot witness is empty")
    sig = witness[0]
    if len(sig) == 64:
        hashtype = SIGHASH.DEFAULT
    elif len(sig) == 65 and sig[64] == SIGHASH.ALL:
        hashtype = SIGHASH.ALL  # 0x00 as an explicit byte is invalid under BIP-341
    else:
        raise SignatureInvalidError("a taproot signature is 64 bytes, or 65 ending in 0x01")
    digest = tx.sighash_taproot(0, [Script(decoded.script_pubkey)], [0], hashtype)
    if not schnorr_verify(sig[:64], digest, decoded.program):
        raise SignatureInvalidError("the schnorr signature does not verify")


def parse_multisig(script: bytes) -> tuple[int, list[bytes]] | None:
    """(m, keys) of `OP_m <33-byte key>... OP_n OP_CHECKMULTISIG`, or None."""
    if len(script) < 3 or script[-1] != _OP_CHECKMULTISIG:
        return None
    if not (0x51 <= script[0] <= 0x60 and 0x51 <= script[-2] <= 0x60):
        return None
    m, n = script[0] - 0x50, script[-2] - 0x50
    keys, i = [], 1
    while i < len(script) - 2:
        if script[i] != 33 or i + 34 > len(script) - 2:
            return None
        keys.append(script[i + 1 : i + 34])
        i += 34
    return (m, keys) if len(keys) == n and m <= n else None


def _check_p2wsh_multisig(decoded: DecodedAddress, tx: Transaction, witness: list[bytes]) -> None:
    parsed = parse_multisig(witness[-1]) if witness else None
    if parsed is None:
        raise SignatureUnsupportedError("only bare-multisig P2WSH scripts are checked here")
    m, keys = parsed
    if hashes.sha256(witness[-1]) != decoded.program:
        raise SignatureInvalidError("the witness script does not match the address")
    if len(witness) != m + 2 or witness[0] != b"":
        raise SignatureInvalidError(f"a {m}-of-{len(keys)} witness is a null dummy, {m} sigs")
    if not all(_compressed(key) for key in keys):
        raise SignatureInvalidError("segwit v0 keys must be compressed")
    digest = tx.sighash_segwit(0, Script(witness[-1]), 0, SIGHASH.ALL)
    key_index = 0
    for sig in witness[1:-1]:  # CHECKMULTISIG: signatures match keys in script order
        while key_index < len(keys):
            key_index += 1
            try:
                _check_ecdsa(sig, keys[key_index - 1], digest)
                break
            except SignatureInvalidError:
                continue
        else:
            raise SignatureInvalidError("the multisig signatures do not match the keys in order")


def _check_p2pkh(
    decoded: DecodedAddress, tx: Transaction, script_sig: bytes, witness: list[bytes]
) -> None:
    if witness:
        raise SignatureInvalidError("a P2PKH spend has no witness")
    pushes = parse_pushes(script_sig)
    if pushes is None or len(pushes) != 2:
        raise SignatureInvalidError("a P2PKH scriptSig pushes a signature and a key")
    sig, pubkey = pushes
    if not (_compressed(pubkey) or (len(pubkey) == 65 and pubkey[0] == 4)):
        raise SignatureInvalidError("the P2PKH public key is not a valid SEC encoding")
    if hashes.hash160(pubkey) != decoded.program:
        raise SignatureInvalidError("the scriptSig public key does not match the address")
    digest = tx.sighash_legacy(0, Script(decoded.script_pubkey), SIGHASH.ALL)
    _check_ecdsa(sig, pubkey, digest)


def parse_pushes(script: bytes) -> list[bytes] | None:
    """The data pushes of a push-only script, or None if it holds any other opcode."""
    pushes, i = [], 0
    while i < len(script):
        op = script[i]
        if op == 0:
            size, start = 0, i + 1
        elif op <= 75:
            size, start = op, i + 1
        elif op == 0x4C and i + 1 < len(script):
            size, start = script[i + 1], i + 2
        elif op == 0x4D and i + 2 < len(script):
            size, start = int.from_bytes(script[i + 1 : i + 3], "little"), i + 3
        else:
            return None
        if start + size > len(script):
            return None
        pushes.append(script[start : start + size])
        i = start + size
    return pushes
