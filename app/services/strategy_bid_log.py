"""What became of a strategy's placed bids, bid by bid: cancels (written before the request,
completed after it) and the bids that left the open list by themselves (filled, expired).
SQLite beside the journal (`<profile dir>/strategies/bids.sqlite3`), WAL, synced commits.

The journal (`strategy_journal`) holds one entry per signature (a request of several bids);
this log holds one row per bid id, so a fill of one bid of three counts one bid's cost, and
an entry is ended in the journal once all its bids are gone. `spent_by_pool` is what the
plan's `PoolState.spent_sats` is made of: a bid that left the open list before its expiry
and was not cancelled by the strategy counts as filled (the service's pool rule may also
have cancelled it: counted as spent, the budget errs on the safe side).

    state        meaning
    cancelling   the strategy asked to cancel it (written before the request)
    cancelled    the service cancelled it, or it was gone when the cancel's answer was lost
    open         a cancel that failed (the bid is still open); the plan decides again
    filled       gone from the open list before its expiry, not cancelled by us
    expired      gone at or after its expiry
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Final

BID_LOG_FILE: Final = Path("strategies") / "bids.sqlite3"
GONE_STATES: Final = ("cancelled", "filled", "expired")
_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS bids (
    policy_id TEXT NOT NULL,
    bid_id TEXT NOT NULL,
    pool TEXT NOT NULL,
    state TEXT NOT NULL,
    cost INTEGER NOT NULL,
    reason TEXT NOT NULL,
    updated_ms INTEGER NOT NULL,
    PRIMARY KEY (policy_id, bid_id)
);
"""


class StrategyBidLog:
    """One profile's log of bid ends. Call from an executor (file I/O)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        self._lock = threading.RLock()
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=10)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.executescript(_SCHEMA)
        self._conn = conn

    @classmethod
    def in_profile(cls, profile_dir: Path) -> StrategyBidLog:
        return cls(profile_dir / BID_LOG_FILE)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def set_state(
        self, policy_id: str, bid_id: str, pool: str, state: str, cost: int, reason: str, now: int
    ) -> None:
        with self._lock:
            self._conn.execute(
                "INSERT INTO bids VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (policy_id, bid_id)"
                " DO UPDATE SET state = excluded.state, reason = excluded.reason,"
                " updated_ms = excluded.updated_ms",
                (policy_id, bid_id, pool, state, cost, reason[:500], now),
            )

    def states(self, policy_id: str) -> dict[str, str]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT bid_id, state FROM bids WHERE policy_id = ?", (policy_id,)
            ).fetchall()
        return {str(b): str(s) for b, s in rows}

    def in_state(self, policy_id: str, state: str) -> list[str]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT bid_id FROM bids WHERE policy_id = ? AND state = ? ORDER BY bid_id",
                (policy_id, state),
            ).fetchall()
        return [str(r[0]) for r in rows]

    def spent_by_pool(self, policy_id: str) -> dict[str, int]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT pool, SUM(cost) FROM bids WHERE policy_id = ? AND state = 'filled'"
                " GROUP BY pool",
                (policy_id,),
            ).fetchall()
        return {str(p): int(c) for p, c in rows}

    def all_gone(self, policy_id: str, bid_ids: Iterable[str]) -> bool:
        states = self.states(policy_id)
        return all(states.get(b) in GONE_STATES for b in bid_ids)
