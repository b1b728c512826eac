"""The chain engine: mempool acceptance, mining, and the SQLite side of every block.

Order of commitment: a block goes to the kernel first and is recorded in SQLite (raw block and
index updates in ONE transaction) only once the kernel made it the tip; a transaction is
acknowledged only after its raw bytes and index effects are committed. `recovery.py` repairs
the gap a crash can leave between the kernel and SQLite.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass

from app.sandbox.chain.blocks import BuiltBlock, block_transactions, build_block, header_fields
from app.sandbox.chain.consensus import (
    COINBASE_WEIGHT_RESERVE,
    MAX_BLOCK_WEIGHT,
    block_subsidy,
)
from app.sandbox.chain.errors import BlockRejected, ChainError, StorageError, TxRejected
from app.sandbox.chain.indexer import IndexConflict, Indexer
from app.sandbox.chain.kernel import Kernel
from app.sandbox.chain.mempool import Mempool, MempoolEntry
from app.sandbox.chain.policy import check_transaction
from app.sandbox.chain.rawtx import ParsedTx, parse_tx
from app.sandbox.chain.store import INDEX_VERSION, Store
from app.sandbox.chain.tipstate import TipState
from app.sandbox.clock import ServiceClock

# Flushing the kernel every so many blocks bounds what a crash makes us replay on open.
CHECKPOINT_EVERY_BLOCKS = 200
# The kernel refuses headers more than 2 h ahead of its own (wall) clock; keep a margin.
MAX_FUTURE_BLOCK_TIME_S = 2 * 3600 - 300

Declare = Callable[[sqlite3.Connection], None]


@dataclass(frozen=True)
class Eviction:
    txid: str
    reason: str


class ChainEngine:
    def __init__(
        self, store: Store, kernel: Kernel, clock: ServiceClock, payout_script: bytes
    ) -> None:
        self.store = store
        self.kernel = kernel
        self.clock = clock
        self.payout_script = payout_script
        self.indexer = Indexer(store.conn)
        self.mempool = Mempool()
        self.tip = self._load_tip()
        self._seq = store.next_seq()
        self._checkpointed_at = self.tip.height
        self.wall_time: Callable[[], float] = time.time

    def _load_tip(self) -> TipState:
        genesis_hash, _, genesis_time = header_fields(self.kernel.read_block(0))
        tip = TipState(genesis_hash, genesis_time)
        for block_hash, block_time in self.store.conn.execute(
            "SELECT hash, time FROM blocks ORDER BY height"
        ):
            tip.append(block_hash, block_time)
        return tip

    # -- transactions -------------------------------------------------------------------

    def accept(self, tx: ParsedTx, declare: Declare | None = None) -> str:
        """Validate and commit `tx` to the mempool; returns its txid. `declare` writes the
        sandbox's declarations (rune issues) in the same SQLite transaction."""
        existing = self.mempool.get(tx.txid)
        if existing is not None:
            if existing.tx.wtxid == tx.wtxid and declare is None:
                return tx.txid  # a re-broadcast is acknowledged again, as by Core
            raise TxRejected(
                "ALREADY_IN_MEMPOOL",
                "txn-same-nonwitness-data-in-mempool",
                f"{tx.txid} is already in the mempool with another witness",
            )
        known, _ = self.indexer.tx_height(tx.txid)
        if known:
            raise TxRejected(
                "ALREADY_CONFIRMED", "txn-already-known", f"{tx.txid} is already in the chain"
            )
        fee, coins = check_transaction(tx, self.indexer.coin, self.tip, self.kernel)
        seq = self._seq
        with self.store.transaction() as conn:
            if declare is not None:
                declare(conn)
            conn.execute(
                "INSERT INTO raw_txs (txid, raw, seq, accepted_ms) VALUES (?, ?, ?, ?)",
                (tx.txid, tx.raw, seq, self.clock.now_ms()),
            )
            self.indexer.apply_tx(tx, coins, fee)
        self._seq += 1
        parents = {c.txid for c in coins if c.height is None}
        self.mempool.add(MempoolEntry(tx, fee, seq, parents))
        return tx.txid

    # -- blocks -------------------------------------------------------------------------

    def mine_block(self) -> BuiltBlock:
        """Mine one block with the mempool's best transactions.

        If the kernel rejects it, the mempool is re-validated (what fails is evicted, with the
        reason) and the block rebuilt. If every transaction is still valid on its own, a
        block-wide limit was hit: the block is retried with the first half of its
        transactions (a prefix of the template keeps parents before children), down to none.
        The rest stay in the mempool for the next blocks.
        """
        self._catch_up_with_kernel()
        txs = self._template()
        revalidated = False
        while True:
            block = self._build_block(txs)
            try:
                self.kernel.submit_block(block.raw, block.hash)
                break
            except BlockRejected:
                if not txs:
                    raise
                if not revalidated:
                    revalidated = True
                    if self.rebuild_index():
                        txs = self._template()
                        continue
                txs = txs[: len(txs) // 2]
        self.record_block(block.raw, self.tip.height + 1)
        if self.tip.height - self._checkpointed_at >= CHECKPOINT_EVERY_BLOCKS:
            self.checkpoint()
        return block

    def _catch_up_with_kernel(self) -> None:
        """Record blocks the kernel took but SQLite did not (a failed commit earlier)."""
        kernel_height, _ = self.kernel.tip()
        if self.kernel.block_hash_at(self.tip.height) != self.tip.tip_hash:
            raise StorageError("the kernel's chain left ours; reopen the node", "CHAIN_DIVERGED")
        for height in range(self.tip.height + 1, kernel_height + 1):
            self.record_block(self.kernel.read_block(height), height)

    def checkpoint(self) -> None:
        """Have the kernel flush its chainstate now."""
        self.kernel.checkpoint()
        self._checkpointed_at = self.tip.height

    def _template(self) -> list[ParsedTx]:
        return self.mempool.select(MAX_BLOCK_WEIGHT - COINBASE_WEIGHT_RESERVE)

    def _build_block(self, txs: list[ParsedTx]) -> BuiltBlock:
        height = self.tip.height + 1
        fees = 0
        for tx in txs:
            entry = self.mempool.get(tx.txid)
            assert entry is not None
            fees += entry.fee
        # Header times follow the wall clock, not the service clock: the kernel judges them
        # against its own clock, and the app displays them against the user's.
        now = int(self.wall_time())
        block_time = self.tip.next_block_time(now)
        if block_time > now + MAX_FUTURE_BLOCK_TIME_S:
            raise ChainError(
                "blocks are being mined faster than the median-time-past rule lets their "
                "timestamps advance (each 6 blocks need one more second); the kernel would "
                "refuse a header 2 h ahead of the clock. Mine fewer blocks now, more later.",
                "MINING_TOO_FAST",
            )
        return build_block(
            prev_hash=bytes.fromhex(self.tip.tip_hash)[::-1],
            height=height,
            time=block_time,
            txs=txs,
            payout_script=self.payout_script,
            coinbase_value=block_subsidy(height) + fees,
        )

    def record_block(self, raw: bytes, height: int) -> None:
        """Commit a block the kernel accepted as the tip at `height`: raw block and index in
        one SQLite transaction (the index is rebuilt if the block conflicts with it)."""
        block_hash, _, block_time = header_fields(raw)
        txs = block_transactions(raw)
        try:
            with self.store.transaction() as conn:
                self._insert_block(conn, height, block_hash, block_time, raw, txs)
                self.indexer.connect_block(txs, height)
        except IndexConflict:
            with self.store.transaction() as conn:
                self._insert_block(conn, height, block_hash, block_time, raw, txs)
                self.tip.append(block_hash, block_time)
                try:
                    self._rebuild_in_transaction()
                except BaseException:
                    self.tip.truncate(height - 1)
                    raise
            self.load_mempool()
            return
        self.tip.append(block_hash, block_time)
        self.mempool.remove(tx.txid for tx in txs)

    def _insert_block(
        self,
        conn: sqlite3.Connection,
        height: int,
        block_hash: str,
        block_time: int,
        raw: bytes,
        txs: list[ParsedTx],
    ) -> None:
        conn.execute(
            "INSERT INTO blocks (height, hash, time, raw) VALUES (?, ?, ?, ?)",
            (height, block_hash, block_time, raw),
        )
        now = self.clock.now_ms()
        for tx in txs:
            inserted = conn.execute(
                "INSERT OR IGNORE INTO raw_txs (txid, raw, seq, accepted_ms) VALUES (?, ?, ?, ?)",
                (tx.txid, tx.raw, self._seq, now),
            ).rowcount
            self._seq += inserted

    # -- index --------------------------------------------------------------------------

    def index_ready(self) -> bool:
        return (
            self.store.derived_tables_present()
            and self.store.get_meta("index_version") == INDEX_VERSION
        )

    def rebuild_index(self) -> list[Eviction]:
        """Recreate the derived tables from the stored blocks and acknowledged transactions,
        re-validating every unconfirmed one; returns what was evicted and why."""
        with self.store.transaction():
            evicted = self._rebuild_in_transaction()
        self.load_mempool()
        return evicted

    def _rebuild_in_transaction(self) -> list[Eviction]:
        store, conn = self.store, self.store.conn
        store.drop_derived()
        store.create_derived()
        for height, raw in conn.execute(
            "SELECT height, raw FROM blocks ORDER BY height"
        ).fetchall():
            try:
                self.indexer.connect_block(block_transactions(raw), height)
            except IndexConflict as exc:
                raise StorageError(
                    f"stored block {height} is inconsistent: {exc}", "STORE_CORRUPT"
                ) from None
        evicted = []
        pending = conn.execute(
            "SELECT txid, raw FROM raw_txs WHERE txid NOT IN (SELECT txid FROM txs) ORDER BY seq"
        ).fetchall()
        for txid, raw in pending:
            try:
                tx = parse_tx(raw)
                fee, coins = check_transaction(tx, self.indexer.coin, self.tip, self.kernel)
            except (TxRejected, ValueError) as exc:
                evicted.append(Eviction(txid, f"{getattr(exc, 'reason', 'invalid')}: {exc}"))
                self._evict(conn, txid, raw, evicted[-1].reason)
                continue
            self.indexer.apply_tx(tx, coins, fee)
        store.set_meta("index_version", INDEX_VERSION)
        return evicted

    def _evict(self, conn: sqlite3.Connection, txid: str, raw: bytes, reason: str) -> None:
        conn.execute(
            "INSERT INTO evicted_txs (txid, raw, reason, evicted_ms) VALUES (?, ?, ?, ?)",
            (txid, raw, reason, self.clock.now_ms()),
        )
        conn.execute("DELETE FROM raw_txs WHERE txid = ?", (txid,))
        conn.execute("DELETE FROM inscriptions WHERE genesis_txid = ?", (txid,))

    def load_mempool(self) -> None:
        self.mempool.clear()
        rows = self.store.conn.execute(
            "SELECT r.raw, r.seq, t.fee FROM raw_txs r JOIN txs t ON t.txid = r.txid "
            "WHERE t.height IS NULL ORDER BY r.seq"
        ).fetchall()
        for raw, seq, fee in rows:
            tx = parse_tx(raw)
            parents = {txid for txid, _ in tx.outpoints() if txid in self.mempool}
            self.mempool.add(MempoolEntry(tx, fee, seq, parents))
