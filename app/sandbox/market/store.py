"""The marketplace's SQLite database: `market.sqlite3` beside the chain's in the data directory.

Its own file and connection (WAL, synchronous=FULL), so market writes never wait on the chain's
lock and a SIGKILL loses nothing acknowledged. Every multi-row write runs inside one
`transaction()`, so a request places all its bids or none. Other market modules (single-
inscription bids, listings) add their tables with `ensure_schema`.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from app.sandbox.sqlite import NestedTransactions, open_wal

SCHEMA = """
CREATE TABLE IF NOT EXISTS market_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS wallets (
    id INTEGER PRIMARY KEY,
    ordinals_address TEXT NOT NULL UNIQUE,
    payment_address TEXT NOT NULL UNIQUE,
    payment_type TEXT NOT NULL,
    payment_pubkey TEXT NOT NULL,
    key_xonly TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    multisig_address TEXT NOT NULL UNIQUE,
    created_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS bids (
    id TEXT PRIMARY KEY,
    wallet_id INTEGER NOT NULL,
    maker TEXT NOT NULL,
    bidder_address TEXT NOT NULL,
    type TEXT NOT NULL,
    meta_type TEXT NOT NULL,
    slug TEXT NOT NULL,
    trait_type TEXT,
    trait_value TEXT,
    price INTEGER NOT NULL,
    quantity INTEGER NOT NULL,
    expiry_ms INTEGER NOT NULL,
    created_ms INTEGER NOT NULL,
    status TEXT NOT NULL,
    ended_ms INTEGER,
    end_reason TEXT,
    fill_txid TEXT,
    message_hash TEXT NOT NULL,
    fee_rate TEXT);
CREATE INDEX IF NOT EXISTS bids_maker_open ON bids (maker, expiry_ms) WHERE status = 'open';
CREATE INDEX IF NOT EXISTS bids_bidder_open ON bids (bidder_address, expiry_ms)
    WHERE status = 'open';
CREATE INDEX IF NOT EXISTS bids_wallet_open ON bids (wallet_id, expiry_ms)
    WHERE status = 'open';
CREATE TABLE IF NOT EXISTS used_messages (hash TEXT PRIMARY KEY, created_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS bid_rate (
    address TEXT PRIMARY KEY, next_allowed_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS challenges (
    challenge TEXT PRIMARY KEY, address TEXT NOT NULL, expires_ms INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS challenges_address ON challenges (address, expires_ms);
CREATE TABLE IF NOT EXISTS withdraw_intents (
    txid TEXT PRIMARY KEY,
    wallet_id INTEGER NOT NULL,
    psbt BLOB NOT NULL,
    amount INTEGER NOT NULL,
    fee INTEGER NOT NULL,
    created_ms INTEGER NOT NULL,
    broadcast INTEGER NOT NULL DEFAULT 0);
"""


# Columns added after a release: (table, column, declaration), added to an older database.
_ADDED_COLUMNS = (
    ("bids", "fee_rate", "TEXT"),  # the request's feeRate as JSON, or NULL
    ("bids", "fill_inscription_id", "TEXT"),  # a filled bid: the item it bought (sales reads)
    ("bids", "fill_seller", "TEXT"),  # a filled bid: the address paid for it
)


def _add_missing_columns(conn: sqlite3.Connection) -> None:
    for table, column, declaration in _ADDED_COLUMNS:
        present = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        if column not in present:
            conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")


class MarketStorageError(Exception):
    """The market database cannot be opened or written."""


class MarketStore:
    """One SQLite connection, shared by the request threads under `_lock` (sqlite3 objects
    are not safe for concurrent use); the market's own lock orders the business logic."""

    FILENAME = "market.sqlite3"

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.conn = open_wal(path, timeout_s=5.0)
            self.conn.executescript(SCHEMA)
            _add_missing_columns(self.conn)
        except sqlite3.Error as exc:
            raise MarketStorageError(f"cannot open {path}: {exc}") from None
        self._lock = threading.RLock()
        self.transaction = NestedTransactions(self.conn, self._lock)

    @classmethod
    def open(cls, data_dir: Path) -> MarketStore:
        return cls(Path(data_dir) / cls.FILENAME)

    def close(self) -> None:
        with self._lock:
            self.conn.close()

    def ensure_schema(self, sql: str) -> None:
        """Create further tables (idempotent `CREATE ... IF NOT EXISTS` statements)."""
        with self._lock:
            self.conn.executescript(sql)

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """The connection for reads (serialised with writes on this one connection)."""
        with self._lock:
            yield self.conn

    def get_meta(self, key: str) -> str | None:
        with self.reading() as conn:
            row = conn.execute("SELECT value FROM market_meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO market_meta (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )
