"""SQLite plumbing shared by the chain's and the market's stores."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def open_wal(path: Path, *, timeout_s: float) -> sqlite3.Connection:
    """A connection in WAL mode that syncs every commit (an acknowledged write survives a
    power cut, not only a killed process), usable from the HTTP layer's thread pool."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=timeout_s)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    return conn


class NestedTransactions:
    """`with store.transaction() as conn:` is one BEGIN IMMEDIATE ... COMMIT (ROLLBACK on any
    exception); a use nested inside another joins the outer transaction. `lock` serialises
    the threads sharing the connection (sqlite3 objects are not safe for concurrent use)."""

    def __init__(self, conn: sqlite3.Connection, lock: threading.RLock) -> None:
        self._conn = conn
        self._lock = lock
        self._depth = 0

    @contextmanager
    def __call__(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield self._conn
                finally:
                    self._depth -= 1
                return
            self._conn.execute("BEGIN IMMEDIATE")
            self._depth = 1
            try:
                yield self._conn
            except BaseException:
                self._depth = 0
                self._conn.execute("ROLLBACK")
                raise
            self._depth = 0
            self._conn.execute("COMMIT")
