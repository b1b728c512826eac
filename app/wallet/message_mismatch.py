"""Why a message signature does not verify, as far as the signature itself can tell.

A signature made in another wallet and pasted back is refused when it does not prove that the
address signed the exact text. What went wrong helps the user fix it, and much can be read
from the signature without its key:

- `NOT_BASE64`: not base64 text at all (a cut-off or mangled paste);
- `NOT_A_SIGNATURE`: base64, but neither a BIP-322 witness or transaction nor a BIP-137 signature;
- `LINE_ADDED`: it verifies for the same text with a line ending added or changed (a signer
  that appends a newline, a Windows line ending, a file saved with one);
- `OTHER_KEY`: the BIP-322 witness names a key that is not the address's (P2WPKH and nested
  P2WPKH carry the public key), or its shape belongs to another address type;
- `OTHER_MESSAGE`: the address's own key signed, but other text;
- `UNKNOWN`: other text or another key, the signature cannot say which (a taproot signature
  names no key; a BIP-137 one recovers a different key for any other text).

    why_not_verified(address, message, signature, network)   # SignatureMismatch.OTHER_KEY
"""

from __future__ import annotations

import base64
import binascii
from enum import StrEnum

from embit import hashes
from embit.script import Witness
from embit.transaction import Transaction

from app.wallet.addresses import (
    InvalidAddressError,
    Network,
    ScriptKind,
    decode_address,
    p2wpkh_redeem_script,
)
from app.wallet.message import verify_message
from app.wallet.secp import SignatureError

_PREFIXES = ("smp", "ful")  # BIP-322's optional format prefixes
_BIP137_LENGTH = 65
_PUBKEY_LENGTH = 33


class SignatureMismatch(StrEnum):
    NOT_BASE64 = "not base64"
    NOT_A_SIGNATURE = "not a signature"
    LINE_ADDED = "a line ending added or changed"
    OTHER_KEY = "another key"
    OTHER_MESSAGE = "another message"
    UNKNOWN = "another message or another key"


def why_not_verified(
    address: str, message: str, signature: str, network: Network | None = None
) -> SignatureMismatch:
    """What is wrong with `signature`, which does not verify for `address` and `message`."""
    text = signature.strip()
    body = text[3:] if text[:3] in _PREFIXES else text
    try:
        raw = base64.b64decode(body, validate=True)
    except (binascii.Error, ValueError):
        return SignatureMismatch.NOT_BASE64
    if not raw:
        return SignatureMismatch.NOT_BASE64
    if any(_verifies(address, edited, text, network) for edited in _line_edits(message)):
        return SignatureMismatch.LINE_ADDED
    if len(raw) == _BIP137_LENGTH and 27 <= raw[0] <= 42:
        return SignatureMismatch.UNKNOWN  # BIP-137: any other text recovers another key
    items = _witness_items(raw)
    if items is None:
        return SignatureMismatch.NOT_A_SIGNATURE
    try:
        decoded = decode_address(address, network)
    except InvalidAddressError:
        return SignatureMismatch.UNKNOWN
    key = items[1] if len(items) == 2 and len(items[1]) == _PUBKEY_LENGTH else None
    if decoded.kind is ScriptKind.P2WPKH:
        if key is None:
            return SignatureMismatch.OTHER_KEY  # a witness of another shape (taproot, script)
        mine = bytes(hashes.hash160(key)) == decoded.program
        return SignatureMismatch.OTHER_MESSAGE if mine else SignatureMismatch.OTHER_KEY
    if decoded.kind is ScriptKind.P2SH and key is not None:
        nested = bytes(hashes.hash160(p2wpkh_redeem_script(key))) == decoded.program
        return SignatureMismatch.OTHER_MESSAGE if nested else SignatureMismatch.OTHER_KEY
    if decoded.kind is ScriptKind.P2TR and key is not None:
        return SignatureMismatch.OTHER_KEY  # a segwit v0 key's signature, not a taproot one
    return SignatureMismatch.UNKNOWN


def _line_edits(message: str) -> set[str]:
    """The text as signers and files commonly change it: a newline added, CRLF endings."""
    crlf = message.replace("\r\n", "\n").replace("\n", "\r\n")
    edits = {message + "\n", message + "\r\n", crlf, crlf + "\r\n", message.rstrip("\r\n")}
    edits.discard(message)
    return edits


def _verifies(address: str, message: str, signature: str, network: Network | None) -> bool:
    try:
        verify_message(address, message, signature, network=network)
    except (SignatureError, InvalidAddressError):
        return False
    return True


def _witness_items(raw: bytes) -> list[bytes] | None:
    """The witness a BIP-322 signature carries: itself (simple), or its transaction's first
    input's (full); None when it is neither."""
    try:
        items = [bytes(item) for item in Witness.parse(raw).items]
        if Witness(items).serialize() == raw:
            return items
    except Exception:  # embit raises assorted types on bytes that are no witness
        pass
    try:
        tx = Transaction.parse(raw)
        if tx.serialize() == raw and len(tx.vin) == 1:
            return [bytes(item) for item in tx.vin[0].witness.items]
    except Exception:  # likewise for a transaction
        pass
    return None
