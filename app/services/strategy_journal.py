"""The strategy journal: every bid message a strategy asked to sign, with its reason, what the
policy decided, and what became of it. SQLite in the profile's data directory
(`<profile dir>/strategies/journal.sqlite3`), WAL, every commit synced, one transaction per
entry or state change, so a crash (a SIGKILL included) loses nothing written before it.

An entry is written BEFORE its signature and completed after it, so a restart can reconcile:

    state       meaning                                              open exposure?
    intent      authorized and recorded; the signature is being      yes (a crash may leave a
                made (written before signing)                        signature behind)
    refused     the policy refused it: nothing was signed            no
    signed      the signature exists and was handed to the caller    yes
    abandoned   an intent whose signature never left the process     no
                (signing failed, or a restart found it unfinished)
    placed      the service accepted it (bid ids when known)         yes, until it expires
    rejected    the service answered that it did not place it (a     no
                refusal, a 429), or the request never reached it
    not_placed  an ambiguous answer (a timeout, a 5xx), then not      until its timestamp is
                among the open bids                                  too old for the service
                                                                     (2 min + 30 s): the signed
                                                                     message could still land
    unknown     no clear answer (a timeout, a 5xx, open bids          yes, until it expires
                unreadable): look at the open bids
    ended       placed or unknown, then cancelled or filled          no

    intent -> signed | abandoned;  signed -> placed | rejected | not_placed | unknown;
    unknown -> placed | not_placed | ended;  placed -> ended

Append-only, enforced by the database: rows are never deleted, an entry's facts (policy,
reason, pools, price, quantity, cost, expiry, timestamp, time) never change, and a state only
moves along the arrows above (triggers refuse anything else). `open_exposure` is what the
strategy's bids that may still be open commit, read from here by the signer: never taken from
the engine's word. `record_decision` reads it and writes the entry in one transaction
(BEGIN IMMEDIATE), so two signatures at once (threads or processes) cannot both spend the same
exposure. Call the methods from an executor (file I/O).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Final

from app.core.bid_request import CollectionBidRequest
from app.core.limits import TIMESTAMP_MAX_AGE_MS, TIMESTAMP_MAX_AHEAD_MS
from app.core.pools import request_pools
from app.core.strategy_policy import BidVerdict, OpenExposure

JOURNAL_FILE: Final = Path("strategies") / "journal.sqlite3"
# A signed message the service refused stays usable this long after its timestamp (its age
# limit, and the clock skew the spec allows): until then it counts as exposure.
MESSAGE_USABLE_MS: Final = TIMESTAMP_MAX_AGE_MS + TIMESTAMP_MAX_AHEAD_MS
# A reason is a sentence for the window; a longer one is cut, so no caller can fill the disk.
MAX_REASON_CHARS: Final = 500


class EntryState(StrEnum):
    INTENT = "intent"
    REFUSED = "refused"
    SIGNED = "signed"
    ABANDONED = "abandoned"
    PLACED = "placed"
    REJECTED = "rejected"
    NOT_PLACED = "not_placed"
    UNKNOWN = "unknown"
    ENDED = "ended"


S = EntryState
TRANSITIONS: Final = {
    S.INTENT: (S.SIGNED, S.ABANDONED),
    S.SIGNED: (S.PLACED, S.REJECTED, S.NOT_PLACED, S.UNKNOWN),
    S.UNKNOWN: (S.PLACED, S.NOT_PLACED, S.ENDED),
    S.PLACED: (S.ENDED,),
}
_OPEN_STATES: Final = (S.INTENT, S.SIGNED, S.PLACED, S.UNKNOWN)
_FACTS: Final = (
    "id, policy_id, reason, kind, collection_slug, pools, price, quantity, bids, cost, "
    "bid_expiry, timestamp, created_ms"
)
_ALLOWED_MOVES: Final = ", ".join(
    f"'{old.value}>{new.value}'" for old, news in TRANSITIONS.items() for new in news
)
_SCHEMA: Final = f"""
CREATE TABLE IF NOT EXISTS signatures (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    policy_id TEXT NOT NULL,
    reason TEXT NOT NULL,
    kind TEXT NOT NULL,
    collection_slug TEXT NOT NULL,
    pools TEXT NOT NULL,
    price INTEGER NOT NULL,
    quantity INTEGER NOT NULL,
    bids INTEGER NOT NULL,
    cost INTEGER NOT NULL,
    bid_expiry INTEGER NOT NULL,
    timestamp INTEGER NOT NULL,
    created_ms INTEGER NOT NULL,
    state TEXT NOT NULL,
    refusal TEXT,
    message_sha256 TEXT,
    bid_ids TEXT NOT NULL DEFAULT '[]',
    outcome TEXT,
    updated_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS signatures_by_policy ON signatures (policy_id, state, bid_expiry);
-- The rules follow the code: made again at every open.
DROP TRIGGER IF EXISTS signatures_never_deleted;
DROP TRIGGER IF EXISTS signatures_facts_fixed;
DROP TRIGGER IF EXISTS signatures_states_forward;
CREATE TRIGGER signatures_never_deleted BEFORE DELETE ON signatures
BEGIN SELECT RAISE(ABORT, 'the strategy journal is append-only'); END;
CREATE TRIGGER signatures_facts_fixed BEFORE UPDATE OF {_FACTS} ON signatures
BEGIN SELECT RAISE(ABORT, 'an entry''s facts never change'); END;
CREATE TRIGGER signatures_states_forward BEFORE UPDATE OF state ON signatures
WHEN OLD.state || '>' || NEW.state NOT IN ({_ALLOWED_MOVES})
BEGIN SELECT RAISE(ABORT, 'a journal entry''s state only moves forward'); END;
"""


class JournalError(Exception):
    """The journal cannot be written or read, or a state change is not allowed."""


@dataclass(frozen=True)
class JournalEntry:
    entry_id: int
    policy_id: str
    state: EntryState
    reason: str
    kind: str  # ordinals, trait, rune, range
    collection_slug: str
    pools: tuple[str, ...]
    price: int
    quantity: int
    bids: int
    cost: int  # sats committed, maker fee included
    bid_expiry: int
    timestamp: int  # the message's
    created_ms: int
    updated_ms: int
    refusal: str | None
    message_sha256: str | None
    bid_ids: tuple[str, ...]
    outcome: str | None


def message_digest(message: str) -> str:
    """What the journal keeps of a signed message: its SHA-256 (the text is not stored)."""
    return hashlib.sha256(message.encode("utf-8")).hexdigest()


class StrategyJournal:
    """One profile's journal. Safe to share between threads; other processes may open the
    same file (WAL, BEGIN IMMEDIATE)."""

    def __init__(self, path: Path, *, timeout_s: float = 10.0) -> None:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.RLock()
        try:
            conn = sqlite3.connect(
                path, isolation_level=None, check_same_thread=False, timeout=timeout_s
            )
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.executescript(f"BEGIN IMMEDIATE;\n{_SCHEMA}\nCOMMIT;")
        except sqlite3.Error as exc:
            raise JournalError(f"cannot open the strategy journal {path}: {exc}") from None
        self._conn = conn

    @classmethod
    def in_profile(cls, profile_dir: Path) -> StrategyJournal:
        return cls(profile_dir / JOURNAL_FILE)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    # --- writing ---------------------------------------------------------------------------

    def record_decision(
        self,
        policy_id: str,
        request: CollectionBidRequest,
        reason: str,
        now_ms: int,
        decide: Callable[[OpenExposure], BidVerdict],
    ) -> tuple[int, BidVerdict]:
        """In one transaction: the policy's open exposure, `decide` on it, and the entry
        (`intent` when approved, `refused` with the reasons otherwise)."""
        with self._transaction() as conn:
            verdict = decide(self._open_exposure(conn, policy_id, now_ms))
            refusal = None
            if not verdict.approved:
                refusal = "\n".join(f"{r.code.value}: {r.message}" for r in verdict.refusals)
            pools = json.dumps([str(p) for p in _pools_of(request)], ensure_ascii=False)
            cursor = conn.execute(
                "INSERT INTO signatures (policy_id, reason, kind, collection_slug, pools, price,"
                " quantity, bids, cost, bid_expiry, timestamp, created_ms, state, refusal,"
                " updated_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    policy_id,
                    reason[:MAX_REASON_CHARS],
                    str(request.kind),
                    request.collection_slug,
                    pools,
                    _int(request.price),
                    _int(request.quantity),
                    verdict.bids,
                    verdict.cost,
                    _int(request.bid_expiry),
                    _int(request.timestamp),
                    now_ms,
                    S.INTENT.value if verdict.approved else S.REFUSED.value,
                    refusal,
                    now_ms,
                ),
            )
            entry_id = cursor.lastrowid
        assert entry_id is not None
        return entry_id, verdict

    def mark_signed(self, entry_id: int, message: str, now_ms: int) -> None:
        self._move(entry_id, S.SIGNED, now_ms, message_sha256=message_digest(message))

    def mark_abandoned(self, entry_id: int, now_ms: int, why: str) -> None:
        self._move(entry_id, S.ABANDONED, now_ms, outcome=why)

    def mark_placed(
        self, entry_id: int, now_ms: int, outcome: str = "placed", bid_ids: Sequence[str] = ()
    ) -> None:
        if len(bid_ids) > self.entry(entry_id).bids:
            raise JournalError(f"entry {entry_id} placed fewer bids than {len(bid_ids)} ids")
        self._move(entry_id, S.PLACED, now_ms, outcome=outcome, bid_ids=json.dumps(list(bid_ids)))

    def mark_rejected(self, entry_id: int, now_ms: int, outcome: str) -> None:
        """The service answered that it did not place it, or it never reached the service."""
        self._move(entry_id, S.REJECTED, now_ms, outcome=outcome)

    def mark_not_placed(self, entry_id: int, now_ms: int, outcome: str) -> None:
        """An ambiguous answer, then not among the open bids (spec retry rule 2)."""
        self._move(entry_id, S.NOT_PLACED, now_ms, outcome=outcome)

    def mark_unknown(self, entry_id: int, now_ms: int, outcome: str) -> None:
        self._move(entry_id, S.UNKNOWN, now_ms, outcome=outcome)

    def mark_ended(self, entry_id: int, now_ms: int, outcome: str) -> None:
        """Cancelled or filled: its bids no longer commit anything."""
        self._move(entry_id, S.ENDED, now_ms, outcome=outcome)

    def record_bid_ids(self, entry_id: int, bid_ids: Sequence[str], now_ms: int) -> None:
        """The ids of a placed entry's bids, once learnt (from the open bids); once only, and
        never more ids than the bids it placed."""
        with self._transaction() as conn:
            changed = conn.execute(
                "UPDATE signatures SET bid_ids = ?, updated_ms = ? WHERE id = ? AND state = ?"
                " AND bid_ids = '[]' AND bids >= ?",
                (json.dumps(list(bid_ids)), now_ms, entry_id, S.PLACED.value, len(bid_ids)),
            ).rowcount
        if not changed:
            raise JournalError(
                f"entry {entry_id} is not a placed entry without bid ids and room for "
                f"{len(bid_ids)} of them"
            )

    def abandon_intents(self, policy_id: str, created_before_ms: int, now_ms: int) -> int:
        """After a restart: the policy's intents older than the restart never handed their
        signature out (the process died between the two writes), so none was sent. Only
        this policy's: another strategy running in the same process may be mid-signature.
        How many moved."""
        with self._transaction() as conn:
            return conn.execute(
                "UPDATE signatures SET state = ?, outcome = ?, updated_ms = ?"
                " WHERE state = ? AND created_ms < ? AND policy_id = ?",
                (
                    S.ABANDONED.value,
                    "unfinished at a restart: the signature never left the process",
                    now_ms,
                    S.INTENT.value,
                    created_before_ms,
                    policy_id,
                ),
            ).rowcount

    # --- reading ---------------------------------------------------------------------------

    def open_exposure(self, policy_id: str, now_ms: int) -> OpenExposure:
        with self._lock:
            return self._open_exposure(self._conn, policy_id, now_ms)

    def entry(self, entry_id: int) -> JournalEntry:
        rows = self._select("WHERE id = ?", (entry_id,))
        if not rows:
            raise JournalError(f"no journal entry {entry_id}")
        return rows[0]

    def entries(
        self, policy_id: str | None = None, *, limit: int = 200, before_id: int | None = None
    ) -> list[JournalEntry]:
        """Newest first, `limit` at most, older than `before_id` when given (paging)."""
        clauses: list[str] = []
        args: list[object] = []
        if policy_id is not None:
            clauses.append("policy_id = ?")
            args.append(policy_id)
        if before_id is not None:
            clauses.append("id < ?")
            args.append(before_id)
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        return self._select(f"{where} ORDER BY id DESC LIMIT ?", (*args, limit))

    def unsettled(self, policy_id: str | None = None) -> list[JournalEntry]:
        """Entries a restart must reconcile with the service's open bids: intent, signed,
        unknown (oldest first)."""
        states = (S.INTENT.value, S.SIGNED.value, S.UNKNOWN.value)
        where = f"WHERE state IN ({', '.join('?' * len(states))})"
        args: tuple[object, ...] = states
        if policy_id is not None:
            where += " AND policy_id = ?"
            args = (*args, policy_id)
        return self._select(f"{where} ORDER BY id", args)

    def placed(self, policy_id: str) -> list[JournalEntry]:
        """The policy's entries in state `placed` (oldest first): its bids that may be open."""
        return self._select(
            "WHERE state = ? AND policy_id = ? ORDER BY id", (S.PLACED.value, policy_id)
        )

    def claimed_bid_ids(self) -> set[str]:
        """Bid ids any entry of any policy holds or ever held: a bid one strategy placed is
        never taken for another's, nor for a later entry of its own."""
        rows = self._select("WHERE bid_ids != '[]'", ())
        return {bid_id for entry in rows for bid_id in entry.bid_ids}

    # --- internals -------------------------------------------------------------------------

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise JournalError(f"cannot write the strategy journal: {exc}") from None
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def _move(self, entry_id: int, state: EntryState, now_ms: int, **columns: str) -> None:
        sets = "".join(f", {name} = ?" for name in columns)
        try:
            with self._transaction() as conn:
                changed = conn.execute(
                    f"UPDATE signatures SET state = ?, updated_ms = ?{sets} WHERE id = ?",
                    (state.value, now_ms, *columns.values(), entry_id),
                ).rowcount
        except sqlite3.IntegrityError as exc:
            current = self.entry(entry_id).state
            raise JournalError(
                f"entry {entry_id} cannot move from {current} to {state}: {exc}"
            ) from None
        if not changed:
            raise JournalError(f"no journal entry {entry_id}")

    @staticmethod
    def _open_exposure(conn: sqlite3.Connection, policy_id: str, now_ms: int) -> OpenExposure:
        marks = ", ".join("?" * len(_OPEN_STATES))
        sats, bids = conn.execute(
            "SELECT COALESCE(SUM(cost), 0), COALESCE(SUM(bids), 0) FROM signatures"
            f" WHERE policy_id = ? AND bid_expiry > ? AND (state IN ({marks})"
            " OR (state = ? AND timestamp + ? > ?))",
            (
                policy_id,
                now_ms,
                *(s.value for s in _OPEN_STATES),
                S.NOT_PLACED.value,
                MESSAGE_USABLE_MS,
                now_ms,
            ),
        ).fetchone()
        return OpenExposure(int(sats), int(bids))

    def _select(self, tail: str, args: tuple[object, ...]) -> list[JournalEntry]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT id, policy_id, state, reason, kind, collection_slug, pools, price,"
                " quantity, bids, cost, bid_expiry, timestamp, created_ms, updated_ms, refusal,"
                f" message_sha256, bid_ids, outcome FROM signatures {tail}",
                args,
            ).fetchall()
        return [_entry(row) for row in rows]


def _entry(row: tuple[object, ...]) -> JournalEntry:
    (eid, policy, state, reason, kind, slug, pools, price, qty, bids, cost, expiry, ts) = row[:13]
    created, updated, refusal, digest, bid_ids, outcome = row[13:]
    return JournalEntry(
        entry_id=int(str(eid)),
        policy_id=str(policy),
        state=EntryState(str(state)),
        reason=str(reason),
        kind=str(kind),
        collection_slug=str(slug),
        pools=tuple(json.loads(str(pools))),
        price=int(str(price)),
        quantity=int(str(qty)),
        bids=int(str(bids)),
        cost=int(str(cost)),
        bid_expiry=int(str(expiry)),
        timestamp=int(str(ts)),
        created_ms=int(str(created)),
        updated_ms=int(str(updated)),
        refusal=None if refusal is None else str(refusal),
        message_sha256=None if digest is None else str(digest),
        bid_ids=tuple(json.loads(str(bid_ids))),
        outcome=None if outcome is None else str(outcome),
    )


def _pools_of(request: CollectionBidRequest) -> list[object]:
    try:
        return list(request_pools(request))
    except (TypeError, ValueError):
        return [request.collection_slug]


def _int(value: object) -> int:
    # A hostile request's field may be anything; the journal stores a number regardless.
    return value if type(value) is int and abs(value) < 2**63 else 0
