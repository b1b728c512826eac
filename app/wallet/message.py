"""Sign or verify a message for an address, choosing BIP-322 or BIP-137.

Signing: BIP-322 simple (unprefixed) for P2WPKH, P2SH-P2WPKH and P2TR, which is what the
marketplaces and ordinals wallets expect; BIP-137 for P2PKH, the form every legacy verifier
knows (BIP-322 full is available by asking for it).
Verifying: a 65-byte signature whose first byte is 27-42 is tried as BIP-137 first (lenient
headers), anything else as BIP-322.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from enum import StrEnum

from app.wallet.addresses import AddressType, Network
from app.wallet.bip137 import Bip137Mode, sign_bip137, verify_bip137
from app.wallet.bip322 import Bip322Format, sign_bip322, verify_bip322
from app.wallet.keys import RoleKey
from app.wallet.secp import SignatureError, SignatureUnsupportedError


class MessageScheme(StrEnum):
    BIP322_SIMPLE = "bip322-simple"
    BIP322_FULL = "bip322-full"
    BIP137 = "bip137"


@dataclass(frozen=True)
class SignedMessage:
    address: str
    message: str
    signature: str
    scheme: MessageScheme


@dataclass(frozen=True)
class MessageVerification:
    """Which scheme proved the address signed the message, and how it was checked."""

    address: str
    scheme: MessageScheme
    detail: str  # e.g. "bip322-rust+own-script-check" or "header matches address type"


def default_scheme(address_type: AddressType) -> MessageScheme:
    return (
        MessageScheme.BIP137 if address_type is AddressType.P2PKH else MessageScheme.BIP322_SIMPLE
    )


def sign_message(
    key: RoleKey, message: str, scheme: MessageScheme | None = None, *, prefix: bool = False
) -> SignedMessage:
    """Sign with `scheme`, or the default for the key's address type."""
    chosen = scheme or default_scheme(key.address_type)
    if chosen is MessageScheme.BIP137:
        signature = sign_bip137(key, message)
    else:
        fmt = Bip322Format.SIMPLE if chosen is MessageScheme.BIP322_SIMPLE else Bip322Format.FULL
        signature = sign_bip322(key, message, fmt=fmt, prefix=prefix)
    return SignedMessage(key.address, message, signature, chosen)


def _looks_like_bip137(signature: str) -> bool:
    try:
        raw = base64.b64decode(signature.strip(), validate=True)
    except (binascii.Error, ValueError):
        return False
    return len(raw) == 65 and 27 <= raw[0] <= 42


def verify_message(
    address: str, message: str, signature: str, *, network: Network | None = None
) -> MessageVerification:
    """Verify a BIP-322 or BIP-137 signature or raise (InvalidAddressError, SignatureError)."""
    bip137_error: SignatureError | None = None
    if _looks_like_bip137(signature):
        try:
            result = verify_bip137(
                address, message, signature, mode=Bip137Mode.LENIENT, network=network
            )
            detail = (
                "header matches address type"
                if result.header_matches_type
                else ("lenient header (segwit address signed with a P2PKH header)")
            )
            return MessageVerification(result.address, MessageScheme.BIP137, detail)
        except SignatureError as exc:
            bip137_error = exc
    try:
        verified = verify_bip322(address, message, signature, network=network)
    except SignatureError:
        if bip137_error is not None:
            raise bip137_error from None
        raise
    scheme = (
        MessageScheme.BIP322_SIMPLE
        if verified.format is Bip322Format.SIMPLE
        else MessageScheme.BIP322_FULL
    )
    return MessageVerification(verified.address, scheme, "+".join(verified.checked_by))


__all__ = [
    "MessageScheme",
    "MessageVerification",
    "SignatureError",
    "SignatureUnsupportedError",
    "SignedMessage",
    "default_scheme",
    "sign_message",
    "verify_message",
]
