"""Bringing the kernel, the stored blocks and the index back into agreement on open.

SQLite is the record of what was acknowledged; the kernel may lag behind it after a SIGKILL
(it flushes its chainstate lazily, so it can reopen at an older tip, even at genesis) or be
one block ahead of it (a block processed but not yet committed to SQLite when the process
died). Lagging: the stored blocks are handed to the kernel again. Ahead: the kernel's extra
blocks are read back and recorded, like freshly mined ones.
"""

from __future__ import annotations

import logging

from app.sandbox.chain.engine import ChainEngine
from app.sandbox.chain.errors import BlockRejected, StorageError

log = logging.getLogger(__name__)


def stored_hash(engine: ChainEngine, height: int) -> str | None:
    if height == 0:
        return engine.tip.hashes[0]
    row = engine.store.conn.execute(
        "SELECT hash FROM blocks WHERE height = ?", (height,)
    ).fetchone()
    return None if row is None else str(row[0])


def reconcile(engine: ChainEngine) -> str:
    """Make kernel and SQLite agree; returns what was done (for logs and tests)."""
    if not engine.index_ready():
        fresh = engine.tip.height == 0 and engine.store.next_seq() == 1
        evicted = engine.rebuild_index()
        if not fresh:
            log.warning("index was missing or outdated: rebuilt (%d evicted)", len(evicted))
    stored_tip = engine.tip.height
    kernel_tip, _ = engine.kernel.tip()
    fork = min(stored_tip, kernel_tip)
    while fork > 0 and engine.kernel.block_hash_at(fork) != stored_hash(engine, fork):
        fork -= 1
    if stored_tip > fork:
        _replay_into_kernel(engine, fork + 1, stored_tip)
        action = f"replayed blocks {fork + 1}-{stored_tip} into the kernel"
    elif kernel_tip > stored_tip:
        for height in range(stored_tip + 1, kernel_tip + 1):
            engine.record_block(engine.kernel.read_block(height), height)
        action = f"recorded kernel blocks {stored_tip + 1}-{kernel_tip} in SQLite"
    else:
        action = "in agreement"
    engine.load_mempool()
    if action != "in agreement":
        engine.checkpoint()  # a second crash must not replay the same blocks again
        log.warning("chain recovery: %s", action)
    return action


def _replay_into_kernel(engine: ChainEngine, first: int, last: int) -> None:
    rows = engine.store.conn.execute(
        "SELECT height, hash, raw FROM blocks WHERE height BETWEEN ? AND ? ORDER BY height",
        (first, last),
    ).fetchall()
    reason = ""
    for height, block_hash, raw in rows:
        try:
            engine.kernel.submit_block(raw, block_hash)
        except BlockRejected as exc:
            # On a fork the kernel only switches once our branch has more work; judge at the end.
            reason = f"block {height}: {exc.reason}"
    if engine.kernel.tip()[1] != engine.tip.tip_hash:
        raise StorageError(
            "the kernel does not take the stored chain "
            f"({reason or 'its own branch has more work'})",
            "CHAIN_DIVERGED",
        )
