"""BIP-137 ("signmessage") signatures: a recoverable ECDSA signature whose header byte
says which address type the key stands for.

Header = base + recovery id: 27 uncompressed P2PKH, 31 compressed P2PKH, 35 P2SH-P2WPKH,
39 P2WPKH. Electrum and Trezor sign segwit addresses with 31-34, so the lenient verifier
recovers the key and accepts any of its P2PKH / P2SH-P2WPKH / P2WPKH addresses. Taproot has
no BIP-137 form: use BIP-322.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from enum import StrEnum

from embit import compact, hashes
from embit.util import secp256k1

from app.wallet.addresses import AddressType, ScriptKind, decode_address, script_pubkey_for
from app.wallet.addresses import Network as Network
from app.wallet.keys import RoleKey
from app.wallet.secp import (
    SignatureFormatError,
    SignatureInvalidError,
    SignatureUnsupportedError,
)

MAGIC = b"\x18Bitcoin Signed Message:\n"
_UNCOMPRESSED_P2PKH = 27
_HEADER_BASES: dict[AddressType, int] = {
    AddressType.P2PKH: 31,
    AddressType.P2SH_P2WPKH: 35,
    AddressType.P2WPKH: 39,
}
_SEGWIT_KINDS = {ScriptKind.P2WPKH: AddressType.P2WPKH, ScriptKind.P2SH: AddressType.P2SH_P2WPKH}


class Bip137Mode(StrEnum):
    STRICT = "strict"  # the header's address type must be the address's type
    LENIENT = "lenient"  # any single-key address of the recovered key (Electrum, Trezor)


@dataclass(frozen=True)
class Bip137Verification:
    """A verified BIP-137 signature."""

    address: str
    address_type: AddressType
    public_key: bytes  # the recovered SEC key
    header: int
    header_matches_type: bool  # False when only the lenient rule accepted it


def message_hash(message: str | bytes) -> bytes:
    """double-SHA256 of the magic prefix, the compact length and the message bytes."""
    data = message.encode("utf-8") if isinstance(message, str) else bytes(message)
    return bytes(hashes.double_sha256(MAGIC + compact.to_bytes(len(data)) + data))


def sign_bip137(key: RoleKey, message: str | bytes) -> str:
    """base64(header + r + s), deterministic (RFC 6979), for P2PKH and (nested) P2WPKH keys."""
    address_type = key.address_type
    if address_type not in _HEADER_BASES:
        raise SignatureUnsupportedError(
            f"BIP-137 has no {address_type.value} form; sign with BIP-322 instead"
        )
    sig64, recid = key.sign_recoverable(message_hash(message))
    uncompressed = len(key.public.public_key) == 65
    base = _UNCOMPRESSED_P2PKH if uncompressed else _HEADER_BASES[address_type]
    return base64.b64encode(bytes([base + recid]) + sig64).decode("ascii")


def _decode(signature: str) -> tuple[int, bytes]:
    try:
        raw = base64.b64decode(signature.strip(), validate=True)
    except (binascii.Error, ValueError):
        raise SignatureFormatError("the BIP-137 signature is not valid base64") from None
    if len(raw) != 65:
        raise SignatureFormatError(f"a BIP-137 signature is 65 bytes, not {len(raw)}")
    if not 27 <= raw[0] <= 42:
        raise SignatureFormatError(f"BIP-137 header byte {raw[0]} is outside 27-42")
    return raw[0], raw[1:]


def recover_public_key(header: int, sig64: bytes, digest: bytes) -> bytes:
    """The SEC public key (compressed unless the header is 27-30) that made the signature."""
    try:
        recoverable = secp256k1.ecdsa_recoverable_signature_parse_compact(sig64, (header - 27) & 3)
        point = secp256k1.ecdsa_recover(recoverable, digest)
    except ValueError:
        raise SignatureInvalidError("no public key can be recovered from the signature") from None
    flag = secp256k1.EC_UNCOMPRESSED if header < 31 else secp256k1.EC_COMPRESSED
    return bytes(secp256k1.ec_pubkey_serialize(point, flag))


def _header_type(header: int) -> AddressType:
    if header < 35:
        return AddressType.P2PKH
    return AddressType.P2SH_P2WPKH if header < 39 else AddressType.P2WPKH


def verify_bip137(
    address: str,
    message: str | bytes,
    signature: str,
    *,
    mode: Bip137Mode = Bip137Mode.LENIENT,
    network: Network | None = None,
) -> Bip137Verification:
    """Verify or raise InvalidAddressError / SignatureFormatError / SignatureInvalidError."""
    decoded = decode_address(address, network)
    if decoded.kind in (ScriptKind.P2TR, ScriptKind.P2WSH):
        raise SignatureUnsupportedError(
            f"BIP-137 cannot sign for a {decoded.kind.value} address; use BIP-322"
        )
    header, sig64 = _decode(signature)
    public_key = recover_public_key(header, sig64, message_hash(message))
    claimed = _header_type(header)
    if script_pubkey_for(public_key, claimed) == decoded.script_pubkey:
        return Bip137Verification(decoded.address, claimed, public_key, header, True)
    if mode is Bip137Mode.LENIENT and len(public_key) == 33:
        actual = _SEGWIT_KINDS.get(decoded.kind, AddressType.P2PKH)
        if script_pubkey_for(public_key, actual) == decoded.script_pubkey:
            return Bip137Verification(decoded.address, actual, public_key, header, False)
    raise SignatureInvalidError(f"the signature was not made by the key of {decoded.address}")
