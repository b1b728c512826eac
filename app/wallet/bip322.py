"""BIP-322 generic signed messages: to_spend/to_sign, signing (embit), and verification.

to_spend/to_sign are plain embit Transactions (never embit PSBT, which rewrites version 0 and
nSequence 0: embit issue #146), always built with explicit vin/vout lists (embit shares its
default lists between instances), and hashed with the Transaction.sighash_* methods.

Verification: simple signatures go through the `bip322` package (Rust, rust-bitcoin) and,
for the single-key and P2WSH-multisig types, our own script check as well; the package's
success is "no exception", never its return value. Our checks alone cover what the package
rejects outright: P2PKH and the other full-format signatures and the `smp`/`ful` prefixes.
Full signatures for other scripts go to Bitcoin Core's consensus interpreter
(py-bitcoinkernel) when it is installed.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from enum import StrEnum

import bip322 as bip322_rust
from embit import hashes
from embit.script import Script, Witness
from embit.transaction import SIGHASH, Transaction, TransactionInput, TransactionOutput

from app.wallet.addresses import AddressType, DecodedAddress, Network, ScriptKind, decode_address
from app.wallet.bip322_checks import check_spend
from app.wallet.keys import RoleKey
from app.wallet.secp import (
    SignatureFormatError,
    SignatureInvalidError,
    SignatureUnsupportedError,
)

TAG = "BIP0322-signed-message"
_PREFIX_SIMPLE = "smp"
_PREFIX_FULL = "ful"
_PREFIX_PROOF_OF_FUNDS = "pof"
_OP_RETURN = b"\x6a"


class Bip322Format(StrEnum):
    SIMPLE = "simple"
    FULL = "full"


@dataclass(frozen=True)
class Bip322Verification:
    """A verified BIP-322 signature and which implementations checked it."""

    address: str
    format: Bip322Format
    prefixed: bool
    checked_by: tuple[str, ...]  # "bip322-rust", "own-script-check", "bitcoin-core-consensus"


def _message_bytes(message: str | bytes) -> bytes:
    return message.encode("utf-8") if isinstance(message, str) else bytes(message)


def message_hash(message: str | bytes) -> bytes:
    """The BIP-340 tagged hash of the message (UTF-8 for text)."""
    return bytes(hashes.tagged_hash(TAG, _message_bytes(message)))


def build_to_spend(script_pubkey: bytes, message: str | bytes) -> Transaction:
    """The virtual transaction paying 0 sat to the address, committing to the message."""
    script_sig = Script(b"\x00\x20" + message_hash(message))
    vin = [TransactionInput(bytes(32), 0xFFFFFFFF, script_sig, sequence=0)]
    vout = [TransactionOutput(0, Script(script_pubkey))]
    return Transaction(version=0, vin=vin, vout=vout, locktime=0)


def build_to_sign(
    to_spend: Transaction, *, version: int = 0, locktime: int = 0, sequence: int = 0
) -> Transaction:
    """The virtual transaction spending to_spend:0 to a single 0-sat OP_RETURN."""
    vin = [TransactionInput(to_spend.txid(), 0, sequence=sequence)]
    vout = [TransactionOutput(0, Script(_OP_RETURN))]
    return Transaction(version=version, vin=vin, vout=vout, locktime=locktime)


def _push(data: bytes) -> bytes:
    if len(data) > 75:
        raise ValueError("push too long for a direct push")
    return bytes([len(data)]) + data


def _ecdsa_hashtype(sighash: int | None) -> int:
    if sighash not in (None, SIGHASH.ALL):
        raise SignatureUnsupportedError("BIP-322 ECDSA signatures use SIGHASH_ALL only")
    return int(SIGHASH.ALL)


def sign_bip322(
    key: RoleKey,
    message: str | bytes,
    *,
    fmt: Bip322Format = Bip322Format.SIMPLE,
    prefix: bool = False,
    sighash: int | None = None,
    aux_rand: bytes | None = None,
    low_r: bool = True,
) -> str:
    """Sign `message` for the key's address; base64, unprefixed unless `prefix`.

    `sighash`: taproot takes SIGHASH_DEFAULT (64-byte signature, the default) or ALL;
    ECDSA types take ALL only. `aux_rand` (32 bytes, taproot) defaults to fresh randomness
    and exists for byte-exact vector tests, as does `low_r=False` (no R grinding).
    """
    public = key.public
    to_sign = build_to_sign(build_to_spend(public.script_pubkey, message))
    items: list[bytes] = []
    if key.address_type is AddressType.P2PKH:
        if fmt is Bip322Format.SIMPLE:
            raise SignatureUnsupportedError(
                "a P2PKH address signs BIP-322 in the full format only (or use BIP-137)"
            )
        hashtype = _ecdsa_hashtype(sighash)
        digest = to_sign.sighash_legacy(0, Script(public.script_pubkey), hashtype)
        sig = key.sign_ecdsa(digest, low_r=low_r) + bytes([hashtype])
        to_sign.vin[0].script_sig = Script(_push(sig) + _push(public.public_key))
    elif key.address_type is AddressType.P2TR:
        hashtype = SIGHASH.DEFAULT if sighash is None else sighash
        if hashtype not in (SIGHASH.DEFAULT, SIGHASH.ALL):
            raise SignatureUnsupportedError("BIP-322 taproot signatures use DEFAULT or ALL")
        spk = Script(public.script_pubkey)
        digest = to_sign.sighash_taproot(0, [spk], [0], hashtype)
        suffix = b"" if hashtype == SIGHASH.DEFAULT else bytes([hashtype])
        items = [key.sign_schnorr(digest, aux_rand) + suffix]
    else:  # P2WPKH, P2SH-P2WPKH: BIP-143 with the P2PKH script code of the key hash
        hashtype = _ecdsa_hashtype(sighash)
        script_code = Script(b"\x76\xa9\x14" + hashes.hash160(public.public_key) + b"\x88\xac")
        digest = to_sign.sighash_segwit(0, script_code, 0, hashtype)
        items = [key.sign_ecdsa(digest, low_r=low_r) + bytes([hashtype]), public.public_key]
        if public.redeem_script is not None:
            to_sign.vin[0].script_sig = Script(_push(public.redeem_script))
    to_sign.vin[0].witness = Witness(items)
    if fmt is Bip322Format.SIMPLE:
        payload, tag = Witness(items).serialize(), _PREFIX_SIMPLE
    else:
        payload, tag = to_sign.serialize(), _PREFIX_FULL
    encoded = base64.b64encode(payload).decode("ascii")
    return tag + encoded if prefix else encoded


def verify_bip322(
    address: str, message: str | bytes, signature: str, *, network: Network | None = None
) -> Bip322Verification:
    """Verify a BIP-322 signature (simple or full, prefixed or not) or raise.

    Raises InvalidAddressError, SignatureFormatError (cannot decode), SignatureInvalidError
    (does not prove the address signed the message) or SignatureUnsupportedError.
    """
    decoded = decode_address(address, network)
    text = signature.strip()
    prefix = text[:3]
    if prefix == _PREFIX_PROOF_OF_FUNDS:
        raise SignatureUnsupportedError("BIP-322 proof-of-funds signatures are not supported")
    prefixed = prefix in (_PREFIX_SIMPLE, _PREFIX_FULL)
    body = text[3:] if prefixed else text
    raw = _decode_base64(body)
    if prefix == _PREFIX_SIMPLE:
        return _verify_simple(decoded, message, body, _parse_witness(raw), prefixed=True)
    if prefix == _PREFIX_FULL:
        return _verify_full(decoded, message, raw, _parse_full(raw), prefixed=True)
    # Unprefixed (the pre-1.0 encoding every wallet still emits): a witness, else a full tx.
    try:
        witness = _parse_witness(raw)
    except SignatureFormatError:
        return _verify_full(decoded, message, raw, _parse_full(raw), prefixed=False)
    return _verify_simple(decoded, message, body, witness, prefixed=False)


def _decode_base64(body: str) -> bytes:
    if not body:
        raise SignatureFormatError("the signature is empty")
    try:
        raw = base64.b64decode(body, validate=True)
    except (binascii.Error, ValueError):
        raise SignatureFormatError("the signature is not valid base64") from None
    if not raw:
        raise SignatureFormatError("the signature is empty")
    return raw


def _parse_witness(raw: bytes) -> list[bytes]:
    # Re-serialising must give the input back: rejects truncation, trailing bytes and
    # non-canonical lengths, none of which embit's reader checks.
    try:
        items = list(Witness.parse(raw).items)
    except Exception:  # embit raises assorted types (EmbitError, ValueError, ...) on bad input
        raise SignatureFormatError("the signature is not a BIP-322 witness") from None
    if Witness(items).serialize() != raw:
        raise SignatureFormatError("the signature is not a canonical BIP-322 witness")
    return items


def _parse_full(raw: bytes) -> Transaction:
    try:
        tx = Transaction.parse(raw)
        canonical = tx.serialize() == raw
    except Exception:  # as above: any failure to read is a format error
        raise SignatureFormatError("the signature is not a BIP-322 to_sign transaction") from None
    if not canonical:
        raise SignatureFormatError("the to_sign transaction is not canonically serialised")
    return tx


def _text_or_none(message: str | bytes) -> str | None:
    if isinstance(message, str):
        return message
    try:
        return bytes(message).decode("utf-8")
    except UnicodeDecodeError:
        return None


def _verify_with_rust(address: str, message: str, base64_signature: str) -> None:
    try:
        bip322_rust.verify_simple_encoded(address, message, base64_signature)
    except bip322_rust.VerificationError as exc:
        raise SignatureInvalidError(f"BIP-322 signature rejected for {address}: {exc}") from None


def _verify_simple(
    decoded: DecodedAddress,
    message: str | bytes,
    body: str,
    witness: list[bytes],
    *,
    prefixed: bool,
) -> Bip322Verification:
    if decoded.kind is ScriptKind.P2PKH:
        raise SignatureInvalidError(
            "a simple BIP-322 signature cannot prove a P2PKH address (full format or BIP-137)"
        )
    checked: list[str] = []
    text = _text_or_none(message)
    if text is not None:
        _verify_with_rust(decoded.address, text, body)
        checked.append("bip322-rust")
    to_sign = build_to_sign(build_to_spend(decoded.script_pubkey, message))
    try:
        check_spend(decoded, to_sign, None, witness)
        checked.append("own-script-check")
    except SignatureUnsupportedError:
        if not checked:
            raise
    return Bip322Verification(decoded.address, Bip322Format.SIMPLE, prefixed, tuple(checked))


def _verify_full(
    decoded: DecodedAddress, message: str | bytes, raw: bytes, tx: Transaction, *, prefixed: bool
) -> Bip322Verification:
    to_spend = build_to_spend(decoded.script_pubkey, message)
    if len(tx.vin) != 1:
        raise SignatureInvalidError("a full BIP-322 signature spends exactly one input")
    spent = tx.vin[0]
    if spent.txid != to_spend.txid() or spent.vout != 0:
        raise SignatureInvalidError(
            f"the signature is not for this message and address ({decoded.address})"
        )
    if len(tx.vout) != 1 or tx.vout[0].value != 0 or tx.vout[0].script_pubkey.data != _OP_RETURN:
        raise SignatureInvalidError("to_sign must have exactly one 0-sat OP_RETURN output")
    try:
        check_spend(decoded, tx, spent.script_sig.data, list(spent.witness.items))
        checked = "own-script-check"
    except SignatureUnsupportedError:
        _verify_with_core(decoded.script_pubkey, raw)
        checked = "bitcoin-core-consensus"
    return Bip322Verification(decoded.address, Bip322Format.FULL, prefixed, (checked,))


def _verify_with_core(script_pubkey: bytes, raw_to_sign: bytes) -> None:
    """Run Bitcoin Core's interpreter (consensus flags) on to_sign's input 0."""
    try:
        import pbk
    except ImportError:
        raise SignatureUnsupportedError(
            "verifying this script type needs py-bitcoinkernel, which is not installed"
        ) from None
    spk = pbk.ScriptPubkey(script_pubkey)
    tx = pbk.Transaction(raw_to_sign)
    precomputed = pbk.script.PrecomputedTransactionData(tx, [pbk.TransactionOutput(spk, 0)])
    try:
        ok = spk.verify(0, tx, precomputed, 0, pbk.ScriptVerificationFlags.ALL)
    except pbk.ScriptVerifyException as exc:
        raise SignatureInvalidError(
            f"Bitcoin Core's interpreter refused the script: {exc}"
        ) from None
    if not ok:
        raise SignatureInvalidError("the signature does not satisfy the address's script")
