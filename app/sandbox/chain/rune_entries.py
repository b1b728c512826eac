"""ord's rune entries (`RuneEntry` in ordinals/ord src/index/entry.rs, served by `/rune/<RUNE>`
and `/runes`) for the sandbox's runes, from the confirmed chain.

A sandbox rune is declared rather than etched by a runestone, so its etching is the
transaction that created its first balance: its id is `<block>:<tx>` of that transaction once
a block holds it (before, real ord would not know the rune: the views answer 404). The first
issue is the premine; each later issue counts as a mint (the sandbox's mints have no terms).
`burned` is what the confirmed issues made that no output of the last block's UTXO set holds.
"""

from __future__ import annotations

import re
import sqlite3

from app.sandbox.chain.ord_views import Json

RUNE_ID_PATTERN = re.compile(r"^(\d{1,10}):(\d{1,10})$")

# Each rune's confirmed issues, the first (its etching) first.
_ISSUES = (
    "SELECT t.height, t.block_pos, i.txid, i.amount, b.time FROM rune_issues i "
    "JOIN txs t ON t.txid = i.txid JOIN blocks b ON b.height = t.height "
    "WHERE i.rune = ? ORDER BY t.height, t.block_pos, i.vout"
)
# What the last block's UTXO set holds of a rune: unspent outputs of confirmed transactions,
# and outputs spent only in the mempool (with what they held when spent).
_HELD = (
    "SELECT b.amount FROM {table} b "
    "JOIN outputs o ON o.txid = b.txid AND o.vout = b.vout JOIN txs t ON t.txid = o.txid "
    "LEFT JOIN txs s ON s.txid = o.spent_txid WHERE b.rune = ? AND t.height IS NOT NULL "
    "AND {spent}"
)


def _held(conn: sqlite3.Connection, rune: str) -> int:
    unspent = _HELD.format(table="rune_balances", spent="o.spent_txid IS NULL")
    in_mempool = _HELD.format(
        table="spent_rune_balances", spent="o.spent_txid IS NOT NULL AND s.height IS NULL"
    )
    # Amounts reach 2^128: summed here, not by SQLite's 64-bit integers.
    return sum(int(r[0]) for sql in (unspent, in_mempool) for r in conn.execute(sql, (rune,)))


def entry(conn: sqlite3.Connection, rune: str) -> tuple[str, Json] | None:
    """(id, entry) of the rune with these letters; None when not etched in a block."""
    row = conn.execute(
        "SELECT spaced, symbol, divisibility, number FROM runes WHERE rune = ?", (rune,)
    ).fetchone()
    issues = conn.execute(_ISSUES, (rune,)).fetchall()
    if row is None or not issues:
        return None
    spaced, symbol, divisibility, number = row
    height, block_pos, etching, premine, time = issues[0]
    issued = sum(int(issue[3]) for issue in issues)
    return f"{height}:{block_pos}", {
        "block": height,
        "burned": issued - _held(conn, rune),
        "divisibility": divisibility,
        "etching": etching,
        "mints": len(issues) - 1,
        "number": number,
        "premine": int(premine),
        "spaced_rune": spaced,
        "symbol": symbol,
        "terms": None,
        "timestamp": time,
        "turbo": False,
    }


def rune_with_id(conn: sqlite3.Connection, rune_id: str) -> str | None:
    """The letters of the rune etched at `<block>:<tx>`, or None."""
    match = RUNE_ID_PATTERN.match(rune_id)
    if match is None:
        return None
    for (rune,) in conn.execute(
        "SELECT DISTINCT i.rune FROM rune_issues i JOIN txs t ON t.txid = i.txid "
        "WHERE t.height = ? AND t.block_pos = ?",
        (int(match.group(1)), int(match.group(2))),
    ).fetchall():
        found = entry(conn, rune)
        if found is not None and found[0] == rune_id:
            return str(rune)
    return None


def page(conn: sqlite3.Connection, offset: int, limit: int) -> tuple[list[tuple[str, Json]], bool]:
    """Etched runes, the newest first (ord's `/runes` order): `limit` from `offset`, and
    whether more follow."""
    etched = conn.execute(
        "SELECT r.rune FROM runes r WHERE EXISTS (SELECT 1 FROM rune_issues i "
        "JOIN txs t ON t.txid = i.txid WHERE i.rune = r.rune AND t.height IS NOT NULL) "
        "ORDER BY r.number DESC LIMIT ? OFFSET ?",
        (limit + 1, offset),
    ).fetchall()
    entries = [found for (rune,) in etched[:limit] if (found := entry(conn, rune)) is not None]
    return entries, len(etched) > limit
