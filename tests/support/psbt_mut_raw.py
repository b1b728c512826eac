"""A minimal BIP-174 key-value codec, and mutations that work on a PSBT's serialized bytes.

A PSBT is the magic `psbt\\xff`, then the global map, one map per input and one per output.
Each map is a list of key-value pairs ended by a 0x00 byte; a key and a value are each a
compact-size length followed by that many bytes, and a key's first byte is its type (the rest
is key data). The number of input and output maps comes from the global unsigned transaction
(PSBTv0, BIP-174) or from PSBT_GLOBAL_INPUT_COUNT / OUTPUT_COUNT (PSBTv2, BIP-370).

Working on the bytes (not on embit's objects, which drop or refuse what they do not model)
lets a mutation inject unknown keys, duplicate keys and PSBTv2 fields into any PSBT, exactly
as a hostile service could serve them. Field numbers, by source:

- BIP-174 (PSBTv0): global 0x00 UNSIGNED_TX, 0x01 XPUB, 0xFB VERSION, 0xFC PROPRIETARY; input
  0x00 NON_WITNESS_UTXO .. 0x08 FINAL_SCRIPTWITNESS; output 0x00 REDEEM_SCRIPT, 0x01
  WITNESS_SCRIPT, 0x02 BIP32_DERIVATION.
- BIP-370 (PSBTv2): global 0x02 TX_VERSION, 0x03 FALLBACK_LOCKTIME, 0x04 INPUT_COUNT,
  0x05 OUTPUT_COUNT, 0x06 TX_MODIFIABLE; input 0x0e PREVIOUS_TXID, 0x0f OUTPUT_INDEX,
  0x10 SEQUENCE, 0x11 REQUIRED_TIME_LOCKTIME, 0x12 REQUIRED_HEIGHT_LOCKTIME; output 0x03
  AMOUNT, 0x04 SCRIPT.
- BIP-371 (taproot): input 0x13 TAP_KEY_SIG .. 0x18 TAP_MERKLE_ROOT; output 0x05
  TAP_INTERNAL_KEY, 0x06 TAP_TREE, 0x07 TAP_BIP32_DERIVATION.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from io import BytesIO
from typing import TYPE_CHECKING, Any, Literal

from embit import compact
from embit.transaction import Transaction

if TYPE_CHECKING:
    from tests.support.psbt_mutations import Case

MAGIC = b"psbt\xff"

# BIP-174 / BIP-370 global types.
GLOBAL_UNSIGNED_TX = 0x00
GLOBAL_XPUB = 0x01
GLOBAL_TX_VERSION = 0x02  # BIP-370
GLOBAL_FALLBACK_LOCKTIME = 0x03  # BIP-370
GLOBAL_INPUT_COUNT = 0x04  # BIP-370
GLOBAL_OUTPUT_COUNT = 0x05  # BIP-370
GLOBAL_TX_MODIFIABLE = 0x06  # BIP-370
GLOBAL_VERSION = 0xFB  # BIP-174
PROPRIETARY = 0xFC  # BIP-174, in every map
# BIP-174 / BIP-370 / BIP-371 input types used below.
IN_NON_WITNESS_UTXO = 0x00
IN_WITNESS_UTXO = 0x01
IN_PARTIAL_SIG = 0x02
IN_SIGHASH_TYPE = 0x03
IN_PREVIOUS_TXID = 0x0E  # BIP-370
IN_OUTPUT_INDEX = 0x0F  # BIP-370
IN_SEQUENCE = 0x10  # BIP-370
IN_REQUIRED_TIME_LOCKTIME = 0x11  # BIP-370
IN_REQUIRED_HEIGHT_LOCKTIME = 0x12  # BIP-370
IN_TAP_KEY_SIG = 0x13  # BIP-371
# BIP-370 output types.
OUT_AMOUNT = 0x03
OUT_SCRIPT = 0x04

Pair = tuple[bytes, bytes]  # (key: type byte + key data, value)


class Readable:
    """Mutation operations print with their own short reprs in counterexamples (hypothesis's
    pretty printer would otherwise show how st.builds made them)."""

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))


class RawDecodeError(ValueError):
    """The bytes are not a PSBT this codec can split into maps."""


def _read_string(stream: BytesIO) -> bytes:
    try:
        n = compact.read_from(stream)
    except Exception as exc:  # embit raises on a truncated compact size
        raise RawDecodeError("truncated length") from exc
    data = stream.read(n)
    if len(data) != n:
        raise RawDecodeError("truncated key or value")
    return data


def _read_map(stream: BytesIO) -> list[Pair]:
    pairs: list[Pair] = []
    while True:
        key = _read_string(stream)
        if not key:
            return pairs
        pairs.append((key, _read_string(stream)))


def _string(data: bytes) -> bytes:
    return bytes(compact.to_bytes(len(data))) + data


@dataclass
class RawPsbt:
    """The maps of a PSBT, in order, and whatever follows the last map (normally nothing)."""

    globals: list[Pair]
    inputs: list[list[Pair]]
    outputs: list[list[Pair]]
    trailer: bytes = b""

    @classmethod
    def decode(cls, data: bytes) -> RawPsbt:
        if not data.startswith(MAGIC):
            raise RawDecodeError("no PSBT magic")
        stream = BytesIO(data[len(MAGIC) :])
        glob = _read_map(stream)
        n_in, n_out = _map_counts(glob)
        inputs = [_read_map(stream) for _ in range(n_in)]
        outputs = [_read_map(stream) for _ in range(n_out)]
        return cls(glob, inputs, outputs, stream.read())

    def encode(self) -> bytes:
        out = bytearray(MAGIC)
        for pairs in (self.globals, *self.inputs, *self.outputs):
            for key, value in pairs:
                out += _string(key) + _string(value)
            out += b"\x00"
        return bytes(out) + self.trailer

    def scope(self, kind: Scope, index: int) -> list[Pair] | None:
        """The global map, or input/output map `index` (modulo their number; None if none)."""
        if kind == "global":
            return self.globals
        maps = self.inputs if kind == "input" else self.outputs
        return maps[index % len(maps)] if maps else None

    def unsigned_tx(self) -> Transaction | None:
        value = get(self.globals, bytes([GLOBAL_UNSIGNED_TX]))
        return None if value is None else Transaction.parse(value)


Scope = Literal["global", "input", "output"]


def _map_counts(glob: list[Pair]) -> tuple[int, int]:
    tx = get(glob, bytes([GLOBAL_UNSIGNED_TX]))
    if tx is not None:
        try:
            parsed = Transaction.parse(tx)
        except Exception as exc:
            raise RawDecodeError("unreadable unsigned transaction") from exc
        return len(parsed.vin), len(parsed.vout)
    counts = [get(glob, bytes([t])) for t in (GLOBAL_INPUT_COUNT, GLOBAL_OUTPUT_COUNT)]
    if counts[0] is None or counts[1] is None:
        raise RawDecodeError("neither an unsigned transaction nor PSBTv2 counts")
    try:
        return compact.from_bytes(counts[0]), compact.from_bytes(counts[1])
    except Exception as exc:
        raise RawDecodeError("unreadable PSBTv2 counts") from exc


def get(pairs: list[Pair], key: bytes) -> bytes | None:
    return next((v for k, v in pairs if k == key), None)


def put(pairs: list[Pair], key: bytes, value: bytes) -> None:
    """Replace the first pair with `key` (keeping its place), or append one."""
    for i, (k, _) in enumerate(pairs):
        if k == key:
            pairs[i] = (key, value)
            return
    pairs.append((key, value))


def edit_raw(case: Case, change: Callable[[RawPsbt], None]) -> None:
    """Apply `change` to the case's PSBT bytes; bytes this codec cannot split are left as
    they are (parse_psbt refuses them anyway)."""
    try:
        raw = RawPsbt.decode(case.data)
    except RawDecodeError:
        case.skipped.append("raw edit on undecodable bytes")
        return
    change(raw)
    case.data = raw.encode()


# --- values a raw field can take --------------------------------------------------------------


@dataclass(frozen=True)
class Value(Readable):
    """A value for a raw field, named for the counterexample, computed from the case."""

    name: str
    make: Callable[[Case, RawPsbt], bytes] = field(compare=False)

    def __repr__(self) -> str:
        return self.name


def _const(name: str, data: bytes) -> Value:
    return Value(name, lambda case, raw: data)


def _u32(n: int) -> bytes:
    return n.to_bytes(4, "little")


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
        return _u32(case.setup.tip.height + height_delta)

    return Value(f"tip{height_delta:+d}", make)


def _xpub_key() -> bytes:
    # A valid mainnet-format xpub (78 bytes): version, depth, fingerprint, child, chain, key.
    from embit import bip32

    root = bip32.HDKey.from_seed(hashlib.sha256(b"guard fuzz xpub").digest())
    return bytes([GLOBAL_XPUB]) + bytes(root.to_public().serialize())


# Per field type: the values a mutation picks from (wrong lengths included on purpose).
GLOBAL_FIELDS: dict[str, tuple[bytes, tuple[Value, ...]]] = {
    "XPUB": (
        b"",  # the key data is filled in by _global_key
        (_const("fingerprint+m/86'", b"\x01\x02\x03\x04" + _u32(0x80000056)), _const("empty", b"")),
    ),
    "TX_VERSION": (
        bytes([GLOBAL_TX_VERSION]),
        (_const("1", _u32(1)), _const("0", _u32(0)), _const("3", _u32(3)), _const("2", _u32(2))),
    ),
    "FALLBACK_LOCKTIME": (
        bytes([GLOBAL_FALLBACK_LOCKTIME]),
        (_time(1_000), _time(0), _const("0", _u32(0)), _const("3 bytes", b"\x01\x02\x03")),
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
        (_const("2", _u32(2)), _const("1", _u32(1)), _const("0", _u32(0)), _const("9", _u32(9))),
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
        (_const("0", _u32(0)), _const("1", _u32(1)), _const("7", _u32(7))),
    ),
    "SEQUENCE": (
        bytes([IN_SEQUENCE]),
        (
            _const("0", _u32(0)),
            _const("10 blocks", _u32(10)),
            _const("final", _u32(0xFFFFFFFF)),
            _const("2 bytes", b"\x01\x00"),
        ),
    ),
    "REQUIRED_TIME_LOCKTIME": (
        bytes([IN_REQUIRED_TIME_LOCKTIME]),
        (_const("2030", _u32(1_900_000_000)), _const("500000000", _u32(500_000_000))),
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
        (_const("0x81 in 1 byte", b"\x81"), _const("NONE", _u32(2))),
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
        (_const("1 sat", (1).to_bytes(8, "little")), _const("4 bytes", _u32(100_000))),
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


def _key(scope: Scope, name: str) -> bytes:
    key = FIELDS[scope][name][0]
    return _xpub_key() if scope == "global" and name == "XPUB" else key


# --- raw operations ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RawPut(Readable):
    """Set a field in the global map or in input/output map `index` (replace or add)."""

    scope: Scope
    index: int
    name: str
    value: Value

    def __repr__(self) -> str:
        where = "global" if self.scope == "global" else f"{self.scope}[{self.index}]"
        return f"raw {where} {self.name}={self.value!r}"

    def apply(self, case: Case) -> None:
        def change(raw: RawPsbt) -> None:
            pairs = raw.scope(self.scope, self.index)
            if pairs is not None:
                put(pairs, _key(self.scope, self.name), self.value.make(case, raw))

        edit_raw(case, change)


@dataclass(frozen=True)
class RawDuplicate(Readable):
    """Repeat one key of a map (pair `which`, modulo the map's size), with another value."""

    scope: Scope
    index: int
    which: int
    same_value: bool

    def __repr__(self) -> str:
        where = "global" if self.scope == "global" else f"{self.scope}[{self.index}]"
        how = "same value" if self.same_value else "other value"
        return f"raw {where} duplicate key #{self.which} ({how})"

    def apply(self, case: Case) -> None:
        def change(raw: RawPsbt) -> None:
            pairs = raw.scope(self.scope, self.index)
            if pairs:
                key, value = pairs[self.which % len(pairs)]
                pairs.append((key, value if self.same_value else value[::-1] + b"\x00"))

        edit_raw(case, change)


@dataclass(frozen=True)
class RawDrop(Readable):
    """Remove one pair of a map (pair `which`, modulo the map's size)."""

    scope: Scope
    index: int
    which: int

    def __repr__(self) -> str:
        where = "global" if self.scope == "global" else f"{self.scope}[{self.index}]"
        return f"raw {where} drop key #{self.which}"

    def apply(self, case: Case) -> None:
        def change(raw: RawPsbt) -> None:
            pairs = raw.scope(self.scope, self.index)
            if pairs:
                del pairs[self.which % len(pairs)]

        edit_raw(case, change)


@dataclass(frozen=True)
class RawTruncate(Readable):
    """Cut the serialized PSBT short, or append bytes after its last map."""

    cut: int  # > 0: drop that many bytes from the end; < 0: append -cut junk bytes

    def __repr__(self) -> str:
        return f"raw cut {self.cut} bytes" if self.cut > 0 else f"raw append {-self.cut} bytes"

    def apply(self, case: Case) -> None:
        case.data = case.data[: -self.cut] if self.cut > 0 else case.data + b"\x00" * -self.cut


@dataclass(frozen=True)
class ToPsbtV2(Readable):
    """Re-express the PSBT as PSBTv2 (BIP-370): the global transaction becomes TX_VERSION,
    FALLBACK_LOCKTIME, INPUT/OUTPUT_COUNT and VERSION=2; each input gets PREVIOUS_TXID,
    OUTPUT_INDEX, SEQUENCE; each output AMOUNT and SCRIPT. Same transaction, other format."""

    def __repr__(self) -> str:
        return "raw as PSBTv2"

    def apply(self, case: Case) -> None:
        def change(raw: RawPsbt) -> None:
            tx = raw.unsigned_tx()
            if tx is None:
                return
            raw.globals = [p for p in raw.globals if p[0][:1] != bytes([GLOBAL_UNSIGNED_TX])]
            raw.globals += [
                (bytes([GLOBAL_TX_VERSION]), _u32(tx.version)),
                (bytes([GLOBAL_FALLBACK_LOCKTIME]), _u32(tx.locktime)),
                (bytes([GLOBAL_INPUT_COUNT]), compact.to_bytes(len(tx.vin))),
                (bytes([GLOBAL_OUTPUT_COUNT]), compact.to_bytes(len(tx.vout))),
                (bytes([GLOBAL_VERSION]), _u32(2)),
            ]
            for pairs, vin in zip(raw.inputs, tx.vin, strict=False):
                pairs += [
                    (bytes([IN_PREVIOUS_TXID]), bytes(vin.txid)[::-1]),
                    (bytes([IN_OUTPUT_INDEX]), _u32(vin.vout)),
                    (bytes([IN_SEQUENCE]), _u32(vin.sequence)),
                ]
            for pairs, vout in zip(raw.outputs, tx.vout, strict=False):
                pairs += [
                    (bytes([OUT_AMOUNT]), vout.value.to_bytes(8, "little")),
                    (bytes([OUT_SCRIPT]), bytes(vout.script_pubkey.data)),
                ]

        edit_raw(case, change)
