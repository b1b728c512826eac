"""The values a raw mutation (tests.support.psbt_mut_raw's `RawPut`) sets a PSBT field to:
per field type of the global, input and output maps, its key and the values to pick from (a
`Value` is named for the counterexample and computed from the case; wrong lengths are
included on purpose).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field

from embit import compact

from tests.support.psbt_mut_case import Case, Readable
from tests.support.psbt_raw_codec import (
    GLOBAL_FALLBACK_LOCKTIME,
    GLOBAL_INPUT_COUNT,
    GLOBAL_OUTPUT_COUNT,
    GLOBAL_TX_MODIFIABLE,
    GLOBAL_TX_VERSION,
    GLOBAL_VERSION,
    GLOBAL_XPUB,
    IN_OUTPUT_INDEX,
    IN_PREVIOUS_TXID,
    IN_REQUIRED_HEIGHT_LOCKTIME,
    IN_REQUIRED_TIME_LOCKTIME,
    IN_SEQUENCE,
    IN_SIGHASH_TYPE,
    IN_TAP_KEY_SIG,
    OUT_AMOUNT,
    OUT_SCRIPT,
    PROPRIETARY,
    RawPsbt,
    Scope,
    u32,
)


@dataclass(frozen=True)
class Value(Readable):
    """A value for a raw field, named for the counterexample, computed from the case."""

    name: str
    make: Callable[[Case, RawPsbt], bytes] = field(compare=False)

    def __repr__(self) -> str:
        return self.name


def _const(name: str, data: bytes) -> Value:
    return Value(name, lambda case, raw: data)


def _txid_of(which: str) -> Value:
    def make(case: Case, raw: RawPsbt) -> bytes:
        outpoint = case.named_outpoint(which)
        # PSBT_IN_PREVIOUS_TXID holds the txid in internal (little-endian) byte order.
        return bytes.fromhex(outpoint.split(":")[0])[::-1]

    return Value(f"txid of {which}", make)


def _count(delta: int) -> Callable[[Case, RawPsbt], bytes]:
    def make(case: Case, raw: RawPsbt) -> bytes:
        return bytes(compact.to_bytes(max(0, len(raw.inputs) + delta)))

    return make


def _time(height_delta: int) -> Value:
    def make(case: Case, raw: RawPsbt) -> bytes:
        return u32(case.setup.tip.height + height_delta)

    return Value(f"tip{height_delta:+d}", make)


def _xpub_key() -> bytes:
    # A valid mainnet-format xpub (78 bytes): version, depth, fingerprint, child, chain, key.
    from embit import bip32

    root = bip32.HDKey.from_seed(hashlib.sha256(b"guard fuzz xpub").digest())
    return bytes([GLOBAL_XPUB]) + bytes(root.to_public().serialize())


# Per field type: the values a mutation picks from (wrong lengths included on purpose).
GLOBAL_FIELDS: dict[str, tuple[bytes, tuple[Value, ...]]] = {
    "XPUB": (
        b"",  # the key data is filled in by field_key
        (_const("fingerprint+m/86'", b"\x01\x02\x03\x04" + u32(0x80000056)), _const("empty", b"")),
    ),
    "TX_VERSION": (
        bytes([GLOBAL_TX_VERSION]),
        (_const("1", u32(1)), _const("0", u32(0)), _const("3", u32(3)), _const("2", u32(2))),
    ),
    "FALLBACK_LOCKTIME": (
        bytes([GLOBAL_FALLBACK_LOCKTIME]),
        (_time(1_000), _time(0), _const("0", u32(0)), _const("3 bytes", b"\x01\x02\x03")),
    ),
    "INPUT_COUNT": (
        bytes([GLOBAL_INPUT_COUNT]),
        (Value("inputs", _count(0)), Value("inputs+1", _count(1)), Value("inputs-1", _count(-1))),
    ),
    "OUTPUT_COUNT": (
        bytes([GLOBAL_OUTPUT_COUNT]),
        (_const("0", b"\x00"), _const("1", b"\x01"), _const("9", b"\x09")),
    ),
    "TX_MODIFIABLE": (
        bytes([GLOBAL_TX_MODIFIABLE]),
        (_const("inputs+outputs", b"\x03"), _const("SINGLE", b"\x04"), _const("0", b"\x00")),
    ),
    "VERSION": (
        bytes([GLOBAL_VERSION]),
        (_const("2", u32(2)), _const("1", u32(1)), _const("0", u32(0)), _const("9", u32(9))),
    ),
    "PROPRIETARY": (
        bytes([PROPRIETARY]) + b"\x05bidwx\x00",
        (_const("junk", b"\xde\xad"), _const("empty", b"")),
    ),
    "UNKNOWN_0x07": (bytes([0x07]), (_const("junk", b"\xde\xad\xbe\xef"),)),
    "UNKNOWN_0x50": (bytes([0x50]) + b"\x01", (_const("junk", b"\x00" * 40),)),
}

INPUT_FIELDS: dict[str, tuple[bytes, tuple[Value, ...]]] = {
    "PREVIOUS_TXID": (
        bytes([IN_PREVIOUS_TXID]),
        (
            _txid_of("input 0"),
            _txid_of("input 1"),
            _txid_of("spare payment coin"),
            _txid_of("spare ordinals coin"),
            _const("random txid", hashlib.sha256(b"nowhere").digest()),
            _const("31 bytes", b"\x11" * 31),
        ),
    ),
    "OUTPUT_INDEX": (
        bytes([IN_OUTPUT_INDEX]),
        (_const("0", u32(0)), _const("1", u32(1)), _const("7", u32(7))),
    ),
    "SEQUENCE": (
        bytes([IN_SEQUENCE]),
        (
            _const("0", u32(0)),
            _const("10 blocks", u32(10)),
            _const("final", u32(0xFFFFFFFF)),
            _const("2 bytes", b"\x01\x00"),
        ),
    ),
    "REQUIRED_TIME_LOCKTIME": (
        bytes([IN_REQUIRED_TIME_LOCKTIME]),
        (_const("2030", u32(1_900_000_000)), _const("500000000", u32(500_000_000))),
    ),
    "REQUIRED_HEIGHT_LOCKTIME": (
        bytes([IN_REQUIRED_HEIGHT_LOCKTIME]),
        (_time(1_000), _time(0)),
    ),
    "TAP_KEY_SIG": (
        bytes([IN_TAP_KEY_SIG]),
        (_const("64 bytes", b"\x42" * 64), _const("63 bytes", b"\x42" * 63)),
    ),
    "SIGHASH_TYPE": (
        bytes([IN_SIGHASH_TYPE]),
        (_const("0x81 in 1 byte", b"\x81"), _const("NONE", u32(2))),
    ),
    "PROPRIETARY": (
        bytes([PROPRIETARY]) + b"\x05bidwx\x01",
        (_const("junk", b"\x30\x44" + b"\x01" * 68 + b"\x01"),),
    ),
    "UNKNOWN_0x1a": (bytes([0x1A]) + b"\x02" * 33, (_const("junk", b"\x02" * 33),)),
    "UNKNOWN_0x7f": (bytes([0x7F]), (_const("empty", b""),)),
}

OUTPUT_FIELDS: dict[str, tuple[bytes, tuple[Value, ...]]] = {
    "AMOUNT": (
        bytes([OUT_AMOUNT]),
        (_const("1 sat", (1).to_bytes(8, "little")), _const("4 bytes", u32(100_000))),
    ),
    "SCRIPT": (
        bytes([OUT_SCRIPT]),
        (
            _const("OP_RETURN", b"\x6a\x04junk"),
            Value("attacker script", lambda case, raw: case.setup.attacker_spk),
        ),
    ),
    "TAP_TREE": (bytes([0x06]), (_const("one leaf", b"\x00\xc0\x01\x51"),)),
    "PROPRIETARY": (bytes([PROPRIETARY]) + b"\x05bidwx\x02", (_const("junk", b"\x00"),)),
    "UNKNOWN_0x42": (bytes([0x42]), (_const("junk", b"\xff" * 3),)),
}

FIELDS: dict[Scope, dict[str, tuple[bytes, tuple[Value, ...]]]] = {
    "global": GLOBAL_FIELDS,
    "input": INPUT_FIELDS,
    "output": OUTPUT_FIELDS,
}


def field_key(scope: Scope, name: str) -> bytes:
    """The key a RawPut of field `name` writes (XPUB's key data: the test xpub)."""
    key = FIELDS[scope][name][0]
    return _xpub_key() if scope == "global" and name == "XPUB" else key
