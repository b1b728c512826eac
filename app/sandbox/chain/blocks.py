"""Building regtest blocks the way Bitcoin Core's miner does, ready for the kernel.

Coinbase: BIP-34 height push (`CScript() << height << OP_0`, so heights 1-16 are OP_1..OP_16),
one payout output, and the BIP-141 witness commitment with the 32 zero-byte reserved value in
the coinbase witness. Header: version 0x20000000, regtest bits 0x207fffff, nonce ground until
the hash meets the target (about every second try).
"""

from __future__ import annotations

import io
import struct
from collections.abc import Sequence
from dataclasses import dataclass

from embit import compact
from embit.script import Script, Witness
from embit.transaction import Transaction, TransactionInput, TransactionOutput

from app.sandbox.chain.consensus import (
    BLOCK_VERSION,
    REGTEST_BITS,
    REGTEST_TARGET,
    WITNESS_COMMITMENT_HEADER,
    compact_size,
    sha256d,
)
from app.sandbox.chain.rawtx import COINBASE_VOUT, ParsedTx, from_embit

WITNESS_RESERVED_VALUE = b"\x00" * 32
HEADER_SIZE = 80


@dataclass(frozen=True)
class BuiltBlock:
    raw: bytes
    hash: str  # display order
    time: int
    coinbase: ParsedTx
    txs: tuple[ParsedTx, ...]  # without the coinbase


def height_push(height: int) -> bytes:
    """`CScript() << height`: OP_0, OP_1..OP_16, else a minimal little-endian number push."""
    if height == 0:
        return b"\x00"
    if 1 <= height <= 16:
        return bytes([0x50 + height])
    n = height.to_bytes((height.bit_length() + 8) // 8, "little")  # room for the sign bit
    return bytes([len(n)]) + n


def merkle_root(hashes: Sequence[bytes]) -> bytes:
    level = list(hashes)
    while len(level) > 1:
        if len(level) % 2:
            level.append(level[-1])
        level = [sha256d(level[i] + level[i + 1]) for i in range(0, len(level), 2)]
    return level[0]


def build_coinbase(
    height: int, payout_script: bytes, value: int, txs: Sequence[ParsedTx]
) -> ParsedTx:
    witness_root = merkle_root([b"\x00" * 32] + [tx.wtxid_bytes for tx in txs])
    commitment = sha256d(witness_root + WITNESS_RESERVED_VALUE)
    # The trailing OP_0 keeps the scriptSig at >= 2 bytes for heights 1-16, as Core's miner does.
    script_sig = height_push(height) + b"\x00"
    tx = Transaction(
        version=2,
        vin=[
            TransactionInput(
                b"\x00" * 32,
                COINBASE_VOUT,
                Script(script_sig),
                0xFFFFFFFF,
                Witness([WITNESS_RESERVED_VALUE]),
            )
        ],
        vout=[
            TransactionOutput(value, Script(payout_script)),
            TransactionOutput(0, Script(WITNESS_COMMITMENT_HEADER + commitment)),
        ],
        locktime=0,
    )
    return from_embit(tx)


def grind_header(prev_hash: bytes, merkle: bytes, time: int) -> tuple[bytes, bytes]:
    """(header, hash in internal order) with a nonce meeting the regtest target."""
    prefix = struct.pack("<i", BLOCK_VERSION) + prev_hash + merkle
    for nonce in range(1 << 32):
        header = prefix + struct.pack("<III", time, REGTEST_BITS, nonce)
        digest = sha256d(header)
        if int.from_bytes(digest, "little") <= REGTEST_TARGET:
            return header, digest
    raise RuntimeError("no nonce meets the regtest target")  # practically unreachable


def build_block(
    *,
    prev_hash: bytes,
    height: int,
    time: int,
    txs: Sequence[ParsedTx],
    payout_script: bytes,
    coinbase_value: int,
) -> BuiltBlock:
    """`prev_hash` in internal byte order; `txs` already in a valid (topological) order."""
    coinbase = build_coinbase(height, payout_script, coinbase_value, txs)
    root = merkle_root([coinbase.txid_bytes] + [tx.txid_bytes for tx in txs])
    header, digest = grind_header(prev_hash, root, time)
    body = b"".join([compact_size(len(txs) + 1), coinbase.raw, *(tx.raw for tx in txs)])
    return BuiltBlock(header + body, digest[::-1].hex(), time, coinbase, tuple(txs))


def header_fields(raw_block: bytes) -> tuple[str, str, int]:
    """(hash, prev hash, time) of a raw block, hashes in display order."""
    header = raw_block[:HEADER_SIZE]
    time = struct.unpack_from("<I", header, 68)[0]
    return sha256d(header)[::-1].hex(), header[4:36][::-1].hex(), time


def block_transactions(raw_block: bytes) -> list[ParsedTx]:
    """All transactions of a raw block, coinbase first."""
    stream = io.BytesIO(raw_block)
    stream.seek(HEADER_SIZE)
    count = compact.read_from(stream)
    txs = []
    for _ in range(count):
        start = stream.tell()
        tx = Transaction.read_from(stream)
        txs.append(from_embit(tx, raw_block[start : stream.tell()]))
    return txs
