"""Decoding raw transactions into the facts the mempool and the indexes need.

embit parses; we insist that re-serialising gives back the exact bytes, which rejects trailing
garbage, non-minimal lengths and a segwit marker with empty witnesses (Core's "superfluous
witness record") without a hand-written parser.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import cached_property

from embit.transaction import Transaction

from app.sandbox.chain.consensus import sha256d, vsize_of
from app.sandbox.chain.errors import InvalidRequest

NULL_TXID = "00" * 32
COINBASE_VOUT = 0xFFFFFFFF
# Core refuses larger transactions outright (MAX_STANDARD_TX_WEIGHT is the real limit).
MAX_RAW_TX_BYTES = 4_000_000


@dataclass(frozen=True)
class TxIn:
    prev_txid: str
    prev_vout: int
    script_sig: bytes
    sequence: int
    witness: tuple[bytes, ...]


@dataclass(frozen=True)
class TxOut:
    value: int
    script_pubkey: bytes


@dataclass(frozen=True)
class ParsedTx:
    """A decoded transaction; `raw` is exactly the bytes it was decoded from."""

    raw: bytes
    txid: str
    wtxid: str
    version: int
    locktime: int
    inputs: tuple[TxIn, ...]
    outputs: tuple[TxOut, ...]
    base_size: int

    @property
    def size(self) -> int:
        return len(self.raw)

    @property
    def weight(self) -> int:
        return self.base_size * 3 + len(self.raw)

    @property
    def vsize(self) -> int:
        return vsize_of(self.weight)

    @property
    def is_coinbase(self) -> bool:
        return (
            len(self.inputs) == 1
            and self.inputs[0].prev_txid == NULL_TXID
            and self.inputs[0].prev_vout == COINBASE_VOUT
        )

    @cached_property
    def txid_bytes(self) -> bytes:
        """Internal byte order (as used in merkle trees and outpoints)."""
        return bytes.fromhex(self.txid)[::-1]

    @cached_property
    def wtxid_bytes(self) -> bytes:
        return bytes.fromhex(self.wtxid)[::-1]

    def outpoints(self) -> list[tuple[str, int]]:
        return [(i.prev_txid, i.prev_vout) for i in self.inputs]


def parse_hex_tx(raw_hex: str) -> ParsedTx:
    text = raw_hex.strip()
    if len(text) > 2 * MAX_RAW_TX_BYTES:
        raise InvalidRequest("transaction is larger than 4,000,000 bytes", "TX_TOO_LARGE")
    try:
        raw = bytes.fromhex(text)
    except ValueError:
        raise InvalidRequest("transaction is not valid hex", "INVALID_HEX") from None
    return parse_tx(raw)


def parse_tx(raw: bytes) -> ParsedTx:
    """Decode `raw` or raise InvalidRequest(TX_DECODE_FAILED)."""
    if len(raw) > MAX_RAW_TX_BYTES:
        raise InvalidRequest("transaction is larger than 4,000,000 bytes", "TX_TOO_LARGE")
    try:
        tx = Transaction.read_from(io.BytesIO(raw))
        canonical = tx.serialize()
    except Exception:
        raise InvalidRequest("transaction could not be decoded", "TX_DECODE_FAILED") from None
    if canonical != raw:
        raise InvalidRequest(
            "transaction is not canonically encoded (trailing bytes, non-minimal lengths or an "
            "empty witness section)",
            "TX_DECODE_FAILED",
        )
    return from_embit(tx, raw)


def from_embit(tx: Transaction, raw: bytes | None = None) -> ParsedTx:
    raw = tx.serialize() if raw is None else raw
    inputs = tuple(
        TxIn(
            prev_txid=inp.txid.hex(),
            prev_vout=inp.vout,
            script_sig=inp.script_sig.data,
            sequence=inp.sequence,
            witness=tuple(inp.witness.items),
        )
        for inp in tx.vin
    )
    outputs = tuple(TxOut(out.value, out.script_pubkey.data) for out in tx.vout)
    txid_le = tx.hash()
    base_size = _base_size(tx, raw, inputs)
    wtxid = txid_le if base_size == len(raw) else sha256d(raw)
    return ParsedTx(
        raw=raw,
        txid=txid_le[::-1].hex(),
        wtxid=wtxid[::-1].hex(),
        version=tx.version,
        locktime=tx.locktime,
        inputs=inputs,
        outputs=outputs,
        base_size=base_size,
    )


def _base_size(tx: Transaction, raw: bytes, inputs: tuple[TxIn, ...]) -> int:
    if not any(i.witness for i in inputs):
        return len(raw)
    witness_bytes = sum(len(inp.witness.serialize()) for inp in tx.vin)
    return len(raw) - 2 - witness_bytes  # minus marker+flag and the witness section
