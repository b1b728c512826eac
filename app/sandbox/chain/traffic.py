"""Mempool traffic for the sandbox: transactions from the sandbox's own wallet that pay a
chosen fee rate and take up a chosen number of vbytes, so the mempool holds more than a block
and its fee estimates (`esplora_views.fee_estimates`) differ by confirmation target, as on a
busy network. Each transaction carries its size as OP_RETURN data (no runestone, no inscription:
ord ignores it) and pays its change back to the sandbox's wallet; mining confirms them like any
other, best fee rate first."""

from __future__ import annotations

import math

from app.sandbox.chain.consensus import OP_RETURN
from app.sandbox.chain.errors import Conflict, InvalidRequest
from app.sandbox.chain.mempool import Mempool
from app.sandbox.chain.rawtx import ParsedTx
from app.sandbox.chain.wallet import Payment, SandboxWallet

MAX_TRAFFIC_VBYTES = 5_000_000  # five blocks' worth per call
MIN_TRAFFIC_VBYTES = 200
MAX_TRAFFIC_FEE_RATE = 1_000.0
# Traffic is refused while the mempool holds this much: requests stay cheap to serve.
MAX_MEMPOOL_VBYTES = 6_000_000
# Data outputs of at most this many bytes; a transaction of at most this many (under the
# 400,000-weight standard limit: non-witness bytes weigh 4 each).
_CHUNK_BYTES = 9_000
_TX_DATA_BYTES = 90_000
_PUSHDATA2 = 0x4D
_DATA_OUTPUT_OVERHEAD = 8 + 3 + 1 + 3  # value, script length, OP_RETURN, PUSHDATA2 + length
_TX_OVERHEAD_VBYTES = 11 + 68 + 31  # version/locktime/counts, one P2WPKH input, the change


def data_output(size: int) -> Payment:
    """A zero-value OP_RETURN output of `size` data bytes."""
    return Payment(bytes([OP_RETURN, _PUSHDATA2]) + size.to_bytes(2, "little") + bytes(size), 0)


def traffic_payments(vbytes: int) -> list[list[Payment]]:
    """The data outputs of transactions that together take up about `vbytes`."""
    if not MIN_TRAFFIC_VBYTES <= vbytes <= MAX_TRAFFIC_VBYTES:
        raise InvalidRequest(
            f"vbytes must be from {MIN_TRAFFIC_VBYTES} to {MAX_TRAFFIC_VBYTES}", "INVALID_AMOUNT"
        )
    count = math.ceil(vbytes / (_TX_DATA_BYTES + _TX_OVERHEAD_VBYTES))
    per_tx = vbytes // count - _TX_OVERHEAD_VBYTES
    result = []
    for _ in range(count):
        chunks = math.ceil(per_tx / (_CHUNK_BYTES + _DATA_OUTPUT_OVERHEAD))
        size = max(1, per_tx // chunks - _DATA_OUTPUT_OVERHEAD)
        result.append([data_output(size) for _ in range(chunks)])
    return result


def add_traffic(
    wallet: SandboxWallet, mempool: Mempool, fee_rate: float, vbytes: int
) -> list[ParsedTx]:
    """Accept transactions of about `vbytes` in all, each paying `fee_rate` sat/vB."""
    held = mempool.vsize()
    if held + vbytes > MAX_MEMPOOL_VBYTES:
        raise Conflict(
            f"the mempool holds {held:,} vbytes; with {vbytes:,} more it would pass the "
            f"sandbox's {MAX_MEMPOOL_VBYTES:,}: mine blocks first",
            "MEMPOOL_BUSY",
        )
    if not 1.0 <= fee_rate <= MAX_TRAFFIC_FEE_RATE:
        raise InvalidRequest(
            f"feeRate must be from 1 to {MAX_TRAFFIC_FEE_RATE:g} sat/vB", "INVALID_AMOUNT"
        )
    return [wallet.pay(outputs, fee_rate=fee_rate) for outputs in traffic_payments(vbytes)]
