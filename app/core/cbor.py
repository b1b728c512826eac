"""The part of CBOR (RFC 8949) an inscription's metadata needs, for ord's metadata field.

ord keeps metadata as CBOR (`Inscription::metadata` decodes it with ciborium; a value that does
not decode is no metadata). Supported: unsigned and negative integers, byte and text strings,
arrays, maps, false, true and null, all of definite length; decoding refuses anything else
(floats, tags, indefinite lengths, trailing bytes) with CborError, so a caller can treat the
metadata as absent, as ord does.
"""

from __future__ import annotations

from typing import TypeAlias

CborValue: TypeAlias = (
    "bool | int | bytes | str | list[CborValue] | dict[CborValue, CborValue] | None"
)

MAX_DEPTH = 32
_U64 = 1 << 64


class CborError(ValueError):
    """Bytes that are not one CBOR value of the supported kinds."""


def _head(major: int, argument: int) -> bytes:
    if argument < 24:
        return bytes([major << 5 | argument])
    for extra, width in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if argument < 1 << (8 * width):
            return bytes([major << 5 | extra]) + argument.to_bytes(width, "big")
    raise CborError(f"{argument} does not fit in 64 bits")


def encode(value: CborValue) -> bytes:
    """Canonical-length encoding of `value` (maps keep their order)."""
    if value is None:
        return b"\xf6"
    if value is True:
        return b"\xf5"
    if value is False:
        return b"\xf4"
    if isinstance(value, int):
        if not -_U64 <= value < _U64:
            raise CborError(f"{value} does not fit in 64 bits")
        return _head(0, value) if value >= 0 else _head(1, -1 - value)
    if isinstance(value, bytes):
        return _head(2, len(value)) + value
    if isinstance(value, str):
        data = value.encode("utf-8")
        return _head(3, len(data)) + data
    if isinstance(value, list):
        return _head(4, len(value)) + b"".join(encode(v) for v in value)
    if isinstance(value, dict):
        items = b"".join(encode(k) + encode(v) for k, v in value.items())
        return _head(5, len(value)) + items
    raise CborError(f"cannot encode {type(value).__name__}")


def decode(data: bytes, max_values: int | None = None) -> CborValue:
    """The one value `data` holds; CborError for anything else, or for more than `max_values`
    values in all (each array item, map key and value counts): each takes a byte of `data`
    but far more memory once built."""
    value, end = _decode(data, 0, 0, _Budget(max_values))
    if end != len(data):
        raise CborError(f"{len(data) - end} bytes after the value")
    return value


def _argument(data: bytes, at: int, info: int) -> tuple[int, int]:
    if info < 24:
        return info, at
    widths = {24: 1, 25: 2, 26: 4, 27: 8}
    if info not in widths:
        raise CborError("indefinite lengths and reserved values are not supported")
    width = widths[info]
    if at + width > len(data):
        raise CborError("the data ends inside a value's length")
    return int.from_bytes(data[at : at + width], "big"), at + width


class _Budget:
    def __init__(self, left: int | None) -> None:
        self.left = left

    def spend(self) -> None:
        if self.left is not None:
            self.left -= 1
            if self.left < 0:
                raise CborError("too many values")


def _decode(data: bytes, at: int, depth: int, budget: _Budget) -> tuple[CborValue, int]:
    if depth > MAX_DEPTH:
        raise CborError(f"nested deeper than {MAX_DEPTH}")
    budget.spend()
    if at >= len(data):
        raise CborError("the data ends before a value")
    major, info = data[at] >> 5, data[at] & 0x1F
    if major == 7:
        simple = {20: False, 21: True, 22: None}
        if info not in simple:
            raise CborError("floats and simple values other than false/true/null are not supported")
        return simple[info], at + 1
    argument, at = _argument(data, at + 1, info)
    if major == 0:
        return argument, at
    if major == 1:
        return -1 - argument, at
    if major in (2, 3):
        if at + argument > len(data):
            raise CborError("the data ends inside a string")
        raw = data[at : at + argument]
        if major == 2:
            return raw, at + argument
        try:
            return raw.decode("utf-8"), at + argument
        except UnicodeDecodeError as exc:
            raise CborError("a text string is not UTF-8") from exc
    if major == 4:
        items: list[CborValue] = []
        for _ in range(argument):
            item, at = _decode(data, at, depth + 1, budget)
            items.append(item)
        return items, at
    if major == 5:
        mapping: dict[CborValue, CborValue] = {}
        for _ in range(argument):
            key, at = _decode(data, at, depth + 1, budget)
            if isinstance(key, list | dict):
                raise CborError("map keys must be numbers, strings or simple values")
            mapping[key], at = _decode(data, at, depth + 1, budget)
        return mapping, at
    raise CborError("tagged values are not supported")
