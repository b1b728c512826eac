"""PSBT in and out: base64, hex or raw bytes, always through `FixedPSBT`.

Anything that is not a well-formed PSBT raises `PsbtDecodeError` with a short reason, never an
embit traceback. Parsing checks the whole input is consumed and that the unsigned transaction
of a v0 PSBT carries no scriptSig or witness (BIP-174).
"""

from __future__ import annotations

import base64
import binascii
import re

from app.wallet.psbt_fixes import FixedPSBT

PSBT_MAGIC = b"psbt\xff"
MAX_PSBT_BYTES = 32 * 1024 * 1024  # far above any real PSBT; bounds memory on hostile input

_HEX_RE = re.compile(r"[0-9a-fA-F]+")
_B64_RE = re.compile(r"[A-Za-z0-9+/]+={0,2}")


class PsbtDecodeError(ValueError):
    """The data is not a PSBT we can read."""


def parse_psbt(data: str | bytes) -> FixedPSBT:
    """Parse a PSBT given as base64 text, hex text or raw bytes (detected automatically)."""
    if isinstance(data, bytes | bytearray | memoryview):
        raw = bytes(data)
        if raw.startswith(PSBT_MAGIC):
            return parse_psbt_bytes(raw)
        try:
            data = raw.decode("ascii")
        except UnicodeDecodeError:
            raise PsbtDecodeError("not a PSBT: binary data without the PSBT magic") from None
    if not isinstance(data, str):
        raise PsbtDecodeError(f"not a PSBT: expected str or bytes, got {type(data).__name__}")
    text = "".join(data.split())
    if not text:
        raise PsbtDecodeError("not a PSBT: empty input")
    if text[:10].lower() == PSBT_MAGIC.hex():
        return parse_psbt_hex(text)
    return parse_psbt_base64(text)


def parse_psbt_base64(text: str) -> FixedPSBT:
    text = "".join(text.split())
    if len(text) > MAX_PSBT_BYTES * 4 // 3 + 4:
        raise PsbtDecodeError("PSBT too large")
    if not _B64_RE.fullmatch(text) or len(text) % 4:
        raise PsbtDecodeError("not a PSBT: invalid base64 text")
    try:
        raw = base64.b64decode(text, validate=True)
    except binascii.Error:
        raise PsbtDecodeError("not a PSBT: invalid base64 text") from None
    return parse_psbt_bytes(raw)


def parse_psbt_hex(text: str) -> FixedPSBT:
    text = "".join(text.split())
    if len(text) > MAX_PSBT_BYTES * 2:
        raise PsbtDecodeError("PSBT too large")
    if not _HEX_RE.fullmatch(text) or len(text) % 2:
        raise PsbtDecodeError("not a PSBT: invalid hex text")
    return parse_psbt_bytes(bytes.fromhex(text))


def parse_psbt_bytes(raw: bytes) -> FixedPSBT:
    if len(raw) > MAX_PSBT_BYTES:
        raise PsbtDecodeError("PSBT too large")
    if not raw.startswith(PSBT_MAGIC):
        raise PsbtDecodeError("not a PSBT: missing the 'psbt\\xff' magic bytes")
    try:
        psbt: FixedPSBT = FixedPSBT.parse(raw)
    except Exception as exc:  # embit raises many unrelated types on malformed data
        raise PsbtDecodeError(f"malformed PSBT: {_reason(exc)}") from None
    _check_shape(psbt)
    return psbt


def _reason(exc: Exception) -> str:
    text = str(exc).strip()
    # Keep messages short and free of raw data dumps.
    return text[:120] if text else type(exc).__name__


def _check_shape(psbt: FixedPSBT) -> None:
    if not psbt.inputs:
        raise PsbtDecodeError("malformed PSBT: no unsigned transaction or no inputs")
    for i, inp in enumerate(psbt.inputs):
        if inp.txid is None or inp.vout is None:
            raise PsbtDecodeError(f"malformed PSBT: input {i} has no previous outpoint")
    for i, out in enumerate(psbt.outputs):
        if out.value is None or out.script_pubkey is None:
            raise PsbtDecodeError(f"malformed PSBT: output {i} has no amount or script")


def psbt_to_bytes(psbt: FixedPSBT) -> bytes:
    data: bytes = psbt.serialize()
    return data


def psbt_to_base64(psbt: FixedPSBT) -> str:
    return base64.b64encode(psbt_to_bytes(psbt)).decode("ascii")


def psbt_to_hex(psbt: FixedPSBT) -> str:
    return psbt_to_bytes(psbt).hex()
