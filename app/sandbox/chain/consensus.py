"""Regtest consensus constants and Bitcoin Core's policy numbers the mempool applies."""

from __future__ import annotations

import hashlib

COIN = 100_000_000
MAX_MONEY = 21_000_000 * COIN
COINBASE_MATURITY = 100
REGTEST_HALVING_INTERVAL = 150
REGTEST_BITS = 0x207FFFFF
REGTEST_TARGET = 0x7FFFFF << (8 * (0x20 - 3))
BLOCK_VERSION = 0x20000000
MAX_BLOCK_WEIGHT = 4_000_000
# Room left in a block for the header and the coinbase (Core's miner reserves 4,000 WU too).
COINBASE_WEIGHT_RESERVE = 4_000
MAX_STANDARD_TX_WEIGHT = 400_000
MIN_STANDARD_TX_NONWITNESS_SIZE = 65
MIN_RELAY_FEE_RATE = 1.0  # sat/vB
# Core's DUST_RELAY_TX_FEE: 3,000 sat/kvB.
DUST_RELAY_FEE_RATE = 3
LOCKTIME_THRESHOLD = 500_000_000
SEQUENCE_FINAL = 0xFFFFFFFF
SEQUENCE_LOCKTIME_DISABLE_FLAG = 1 << 31
SEQUENCE_LOCKTIME_TYPE_FLAG = 1 << 22
SEQUENCE_LOCKTIME_MASK = 0x0000FFFF
SEQUENCE_LOCKTIME_GRANULARITY = 9
WITNESS_COMMITMENT_HEADER = bytes.fromhex("6a24aa21a9ed")
OP_RETURN = 0x6A


def sha256d(data: bytes) -> bytes:
    return hashlib.sha256(hashlib.sha256(data).digest()).digest()


def block_subsidy(height: int) -> int:
    halvings = height // REGTEST_HALVING_INTERVAL
    return 0 if halvings >= 64 else (50 * COIN) >> halvings


def compact_size(n: int) -> bytes:
    if n < 0xFD:
        return bytes([n])
    if n <= 0xFFFF:
        return b"\xfd" + n.to_bytes(2, "little")
    if n <= 0xFFFFFFFF:
        return b"\xfe" + n.to_bytes(4, "little")
    return b"\xff" + n.to_bytes(8, "little")


def is_unspendable(script_pubkey: bytes) -> bool:
    """Core's CScript::IsUnspendable: OP_RETURN outputs and oversized scripts."""
    return (len(script_pubkey) > 0 and script_pubkey[0] == OP_RETURN) or len(script_pubkey) > 10_000


def is_witness_program(script_pubkey: bytes) -> bool:
    """Core's CScript::IsWitnessProgram: OP_0..OP_16 then one 2-40 byte push."""
    n = len(script_pubkey)
    if n < 4 or n > 42:
        return False
    if script_pubkey[0] != 0 and not 0x51 <= script_pubkey[0] <= 0x60:
        return False
    return script_pubkey[1] + 2 == n


def dust_threshold(script_pubkey: bytes) -> int:
    """Core's GetDustThreshold at the default dust relay fee: 546 P2PKH, 540 P2SH, 294 P2WPKH,
    330 P2WSH/P2TR, 0 for OP_RETURN."""
    if is_unspendable(script_pubkey):
        return 0
    size = 8 + len(compact_size(len(script_pubkey))) + len(script_pubkey)
    # Spending it costs an outpoint, a sequence and a signature: 107 witness bytes are
    # discounted to a quarter, the legacy scriptSig counts in full.
    size += (
        32 + 4 + 1 + (107 // 4) + 4 if is_witness_program(script_pubkey) else 32 + 4 + 1 + 107 + 4
    )
    return size * DUST_RELAY_FEE_RATE


def vsize_of(weight: int) -> int:
    return (weight + 3) // 4
