"""Mutations that work on a PSBT's serialized bytes, for the guard's fuzzer: on the maps of
tests.support.psbt_raw_codec, not on embit's objects (which drop or refuse what they do not
model), so a mutation can inject unknown keys, duplicate keys and PSBTv2 fields into any PSBT,
exactly as a hostile service could serve them. `RawPut` sets a field to one of the values of
tests.support.psbt_mut_raw_values; the others duplicate, drop or cut what is there, or
re-express the PSBT as PSBTv2.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from embit import compact

from tests.support.psbt_mut_case import Case, Readable
from tests.support.psbt_mut_raw_values import Value, field_key
from tests.support.psbt_raw_codec import (
    GLOBAL_FALLBACK_LOCKTIME,
    GLOBAL_INPUT_COUNT,
    GLOBAL_OUTPUT_COUNT,
    GLOBAL_TX_VERSION,
    GLOBAL_UNSIGNED_TX,
    GLOBAL_VERSION,
    IN_OUTPUT_INDEX,
    IN_PREVIOUS_TXID,
    IN_SEQUENCE,
    OUT_AMOUNT,
    OUT_SCRIPT,
    RawDecodeError,
    RawPsbt,
    Scope,
    put,
    u32,
)


def edit_raw(case: Case, change: Callable[[RawPsbt], None]) -> None:
    """Apply `change` to the case's PSBT bytes; bytes the codec cannot split are left as
    they are (parse_psbt refuses them anyway)."""
    try:
        raw = RawPsbt.decode(case.data)
    except RawDecodeError:
        case.skipped.append("raw edit on undecodable bytes")
        return
    change(raw)
    case.data = raw.encode()


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
                put(pairs, field_key(self.scope, self.name), self.value.make(case, raw))

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
                (bytes([GLOBAL_TX_VERSION]), u32(tx.version)),
                (bytes([GLOBAL_FALLBACK_LOCKTIME]), u32(tx.locktime)),
                (bytes([GLOBAL_INPUT_COUNT]), compact.to_bytes(len(tx.vin))),
                (bytes([GLOBAL_OUTPUT_COUNT]), compact.to_bytes(len(tx.vout))),
                (bytes([GLOBAL_VERSION]), u32(2)),
            ]
            for pairs, vin in zip(raw.inputs, tx.vin, strict=False):
                pairs += [
                    (bytes([IN_PREVIOUS_TXID]), bytes(vin.txid)[::-1]),
                    (bytes([IN_OUTPUT_INDEX]), u32(vin.vout)),
                    (bytes([IN_SEQUENCE]), u32(vin.sequence)),
                ]
            for pairs, vout in zip(raw.outputs, tx.vout, strict=False):
                pairs += [
                    (bytes([OUT_AMOUNT]), vout.value.to_bytes(8, "little")),
                    (bytes([OUT_SCRIPT]), bytes(vout.script_pubkey.data)),
                ]

        edit_raw(case, change)
