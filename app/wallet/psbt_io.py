"""PSBT in and out: base64, hex or raw bytes, always through `FixedPSBT`.

Anything that is not a well-formed PSBT raises `PsbtDecodeError` with a short reason, never an
embit traceback. Parsing checks the whole input is consumed, that the unsigned transaction
of a v0 PSBT carries no scriptSig or witness (BIP-174), and that a v0 PSBT carries none of
the fields BIP-370 reserves for version 2 (embit would let them override the unsigned
transaction, so another parser would read another transaction than the one reviewed).
"""

from __future__ import annotations

import base64
import binascii
import re

from app.core.psbt_view import PSBT_MAGIC as PSBT_MAGIC
from app.wallet.psbt_fixes import FixedPSBT

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
    _check_no_v2_fields(raw, len(psbt.inputs), len(psbt.outputs))
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


# BIP-370: fields that exist only in PSBT version 2 and "must be excluded" from version 0.
_GLOBAL_VERSION = 0xFB
_V2_ONLY = (
    frozenset({0x02, 0x03, 0x04, 0x05, 0x06}),  # global: tx version, fallback locktime, counts...
    frozenset({0x0E, 0x0F, 0x10, 0x11, 0x12}),  # input: prev txid, index, sequence, locktimes
    frozenset({0x03, 0x04}),  # output: amount, script
)


def _check_no_v2_fields(raw: bytes, n_inputs: int, n_outputs: int) -> None:
    """Refuse a PSBT of a version other than 0 or 2 (BIP-174: a parser fails on a version it
    does not support; embit read a version 1 PSBT, which did not parse again once written
    out), and a version 0 one holding version-2-only keys."""
    maps = _key_types(raw, 1 + n_inputs + n_outputs)
    version = maps[0][1]
    if version not in (None, 0, 2):
        raise PsbtDecodeError(
            f"unsupported PSBT version {version}: this wallet reads versions 0 and 2"
        )
    if version == 2:
        return
    places = [("global", 0)]
    places += [(f"input {i}", 1) for i in range(n_inputs)]
    places += [(f"output {i}", 2) for i in range(n_outputs)]
    for (types, _), (where, kind) in zip(maps, places, strict=True):
        found = sorted(types & _V2_ONLY[kind])
        if found:
            raise PsbtDecodeError(
                f"malformed PSBT: a version 0 PSBT carries the version 2 field 0x{found[0]:02x} "
                f"in its {where} map"
            )


def _key_types(raw: bytes, count: int) -> list[tuple[frozenset[int], int | None]]:
    """The key types of the first `count` maps, and the global version when present."""
    pos = len(PSBT_MAGIC)
    maps: list[tuple[frozenset[int], int | None]] = []
    for _ in range(count):
        types: set[int] = set()
        version = None
        while True:
            key_len, pos = _compact(raw, pos)
            if key_len == 0:
                break
            key_type, key_end = raw[pos], pos + key_len
            value_len, value_at = _compact(raw, key_end)
            if not maps and key_type == _GLOBAL_VERSION and value_len == 4:
                version = int.from_bytes(raw[value_at : value_at + 4], "little")
            types.add(key_type)
            pos = value_at + value_len
        maps.append((frozenset(types), version))
    return maps


def _compact(raw: bytes, pos: int) -> tuple[int, int]:
    first = raw[pos]
    if first < 0xFD:
        return first, pos + 1
    size = {0xFD: 2, 0xFE: 4, 0xFF: 8}[first]
    return int.from_bytes(raw[pos + 1 : pos + 1 + size], "little"), pos + 1 + size


def psbt_to_bytes(psbt: FixedPSBT) -> bytes:
    data: bytes = psbt.serialize()
    return data


def psbt_to_base64(psbt: FixedPSBT) -> str:
    return base64.b64encode(psbt_to_bytes(psbt)).decode("ascii")


def psbt_to_hex(psbt: FixedPSBT) -> str:
    return psbt_to_bytes(psbt).hex()
