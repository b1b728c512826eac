"""Runestones read by ord's own code: the one module that imports `pyord`.

pyord wraps ord's `Runestone::decipher` (crates/ordinals/src/runestone.rs), so a transaction's
outputs decode exactly as ord's indexer reads them: the first output starting OP_RETURN OP_13
holds the runestone; a malformed one is a cenotaph with its flaw (`encode_runestone` writes one
the same way, by ord's `encipher`). pyord takes a whole
transaction, so the outputs are wrapped in a minimal one (one blank input: ord never looks at
the inputs to decipher, only at the outputs and their count). What pyord answers is copied
into frozen dataclasses here, so nothing else depends on its types.

tests/core/test_runestone_vectors.py checks pyord against ord's own test vectors.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

import pyord

RUNESTONE_PREFIX = b"\x6a\x5d"  # OP_RETURN OP_13: where ord looks for a runestone


class UndecodableRunestone(ValueError):
    """pyord could not read the transaction at all (not a cenotaph: ord never saw it)."""


class Flaw(StrEnum):
    """Why a runestone is a cenotaph: ord's `Flaw` variants (crates/ordinals/src/flaw.rs), in
    ord's order, which is pyord's integer for each."""

    EDICT_OUTPUT = "edict-output"
    EDICT_RUNE_ID = "edict-rune-id"
    INVALID_SCRIPT = "invalid-script"
    OPCODE = "opcode"
    SUPPLY_OVERFLOW = "supply-overflow"
    TRAILING_INTEGERS = "trailing-integers"
    TRUNCATED_FIELD = "truncated-field"
    UNRECOGNIZED_EVEN_TAG = "unrecognized-even-tag"
    UNRECOGNIZED_FLAG = "unrecognized-flag"
    VARINT = "varint"


_FLAWS = tuple(Flaw)


@dataclass(frozen=True, order=True)
class RuneId:
    """A rune's id: the block it was etched in and its transaction's index there."""

    block: int
    tx: int

    def __str__(self) -> str:
        return f"{self.block}:{self.tx}"

    @property
    def is_etched_here(self) -> bool:
        """0:0 in an edict means the rune this transaction etches."""
        return self.block == 0 and self.tx == 0

    @classmethod
    def parse(cls, text: str) -> RuneId:
        """'840000:3' -> RuneId(840000, 3); ValueError on anything else. ASCII digits only
        (str.isdigit takes '٣' too); leading zeros read as ord's integers ('0840000:3' is
        840000:3), so compare ids parsed, never as text."""
        block, sep, tx = text.strip().partition(":")
        if not sep or not _ascii_digits(block) or not _ascii_digits(tx):
            raise ValueError(f"not a rune id (block:tx): {text!r}")
        return cls(int(block), int(tx))


def _ascii_digits(text: str) -> bool:
    return text.isascii() and text.isdigit()


@dataclass(frozen=True)
class Edict:
    rune_id: RuneId
    amount: int  # 0: all that remains of the rune
    output: int  # == the number of outputs: shared among the non-OP_RETURN outputs


@dataclass(frozen=True)
class Terms:
    amount: int | None
    cap: int | None
    height: tuple[int | None, int | None]
    offset: tuple[int | None, int | None]


@dataclass(frozen=True)
class Etching:
    rune: str | None  # None: ord gives the rune a reserved name
    divisibility: int | None
    premine: int | None
    spacers: int | None  # pyord's stub says int; it gives None when absent, as ord does
    symbol: str | None
    terms: Terms | None
    turbo: bool


@dataclass(frozen=True)
class Runestone:
    edicts: tuple[Edict, ...]
    etching: Etching | None
    mint: RuneId | None
    pointer: int | None


@dataclass(frozen=True)
class Cenotaph:
    """A malformed runestone: every rune on the inputs is burned; a mint or an etching it
    names still counts, its runes burned too."""

    flaw: Flaw | None
    etching: str | None
    mint: RuneId | None

    @property
    def reason(self) -> str:
        return "malformed" if self.flaw is None else _REASONS[self.flaw]


# ord's own words for each flaw (its Display), checked against pyord's in the vector tests.
_REASONS = {
    Flaw.EDICT_OUTPUT: "edict output greater than transaction output count",
    Flaw.EDICT_RUNE_ID: "invalid rune ID in edict",
    Flaw.INVALID_SCRIPT: "invalid script in OP_RETURN",
    Flaw.OPCODE: "non-pushdata opcode in OP_RETURN",
    Flaw.SUPPLY_OVERFLOW: "supply overflows u128",
    Flaw.TRAILING_INTEGERS: "trailing integers in body",
    Flaw.TRUNCATED_FIELD: "field with missing value",
    Flaw.UNRECOGNIZED_EVEN_TAG: "unrecognized even tag",
    Flaw.UNRECOGNIZED_FLAG: "unrecognized field",
    Flaw.VARINT: "invalid varint",
}


def has_runestone_prefix(script: bytes) -> bool:
    return script.startswith(RUNESTONE_PREFIX)


def decipher(output_scripts: Sequence[bytes]) -> Runestone | Cenotaph | None:
    """What ord reads in a transaction with these output scripts (None: no runestone)."""
    try:
        artifact = pyord.Runestone.decipher_hex(_transaction_hex(output_scripts))
    except ValueError as exc:  # e.g. a script over rust-bitcoin's 4 MB bound
        raise UndecodableRunestone(str(exc)) from None
    if artifact is None:
        return None
    if isinstance(artifact, pyord.Cenotaph):
        return Cenotaph(
            flaw=None if artifact.flaw is None else _FLAWS[int(artifact.flaw)],
            etching=None if artifact.etching is None else artifact.etching.name,
            mint=_rune_id(artifact.mint),
        )
    return Runestone(
        edicts=tuple(Edict(_id(e.id), e.amount, e.output) for e in artifact.edicts),
        etching=_etching(artifact.etching),
        mint=_rune_id(artifact.mint),
        pointer=artifact.pointer,
    )


def encode_runestone(
    edicts: Sequence[Edict] = (),
    *,
    pointer: int | None = None,
    etching: Etching | None = None,
    mint: RuneId | None = None,
) -> bytes:
    """The scriptPubKey of a runestone with these edicts, pointer, etching and mint, written by
    ord's own `Runestone::encipher` (OP_RETURN OP_13, its integers; the edicts sorted by id,
    each id a delta from the one before). `decipher` reads it back as the same runestone."""
    stone = pyord.Runestone(
        edicts=[pyord.Edict(_pyord_id(e.rune_id), e.amount, e.output) for e in edicts],
        etching=None if etching is None else _pyord_etching(etching),
        mint=None if mint is None else _pyord_id(mint),
        pointer=pointer,
    )
    return bytes(stone.encipher())


def _pyord_id(rune_id: RuneId) -> pyord.RuneId:
    return pyord.RuneId(rune_id.block, rune_id.tx)


def _pyord_etching(etching: Etching) -> pyord.Etching:
    terms = etching.terms
    return pyord.Etching(
        divisibility=etching.divisibility,
        premine=etching.premine,
        rune=None if etching.rune is None else pyord.Rune.from_str(etching.rune),
        spacers=etching.spacers,
        symbol=etching.symbol,
        terms=None
        if terms is None
        else pyord.Terms(
            amount=terms.amount, cap=terms.cap, height=terms.height, offset=terms.offset
        ),
        turbo=etching.turbo,
    )


def _id(rune_id: pyord.RuneId) -> RuneId:
    return RuneId(rune_id.block, rune_id.tx)


def _rune_id(rune_id: pyord.RuneId | None) -> RuneId | None:
    return None if rune_id is None else _id(rune_id)


def _etching(etching: pyord.Etching | None) -> Etching | None:
    if etching is None:
        return None
    terms = etching.terms
    return Etching(
        rune=None if etching.rune is None else etching.rune.name,
        divisibility=etching.divisibility,
        premine=etching.premine,
        spacers=_optional_int(etching.spacers),
        symbol=etching.symbol,
        terms=None
        if terms is None
        else Terms(
            terms.amount,
            terms.cap,
            (terms.height[0], terms.height[1]),
            (terms.offset[0], terms.offset[1]),
        ),
        turbo=etching.turbo,
    )


def _optional_int(value: object) -> int | None:
    return value if isinstance(value, int) else None


def _compact_size(n: int) -> bytes:
    if n < 0xFD:
        return bytes([n])
    if n <= 0xFFFF:
        return b"\xfd" + n.to_bytes(2, "little")
    if n <= 0xFFFF_FFFF:
        return b"\xfe" + n.to_bytes(4, "little")
    return b"\xff" + n.to_bytes(8, "little")


def _transaction_hex(output_scripts: Sequence[bytes]) -> str:
    """A version-2 transaction with one blank input and these outputs (amounts 0: ord reads
    runestones from scripts alone)."""
    blank_input = bytes(32) + b"\xff\xff\xff\xff" + b"\x00" + b"\xff\xff\xff\xff"
    outputs = b"".join(bytes(8) + _compact_size(len(s)) + s for s in output_scripts)
    tx = (
        (2).to_bytes(4, "little")
        + b"\x01"
        + blank_input
        + _compact_size(len(output_scripts))
        + outputs
        + bytes(4)
    )
    return tx.hex()
