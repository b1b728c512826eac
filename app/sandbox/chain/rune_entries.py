"""ord's rune entries (`RuneEntry` in ordinals/ord src/index/entry.rs, served by `/rune/<RUNE>`
and `/runes`), from the confirmed chain, built from what rune_updater.py derived.

A rune is known once a block holds its etching: its id is `<block>:<tx>` of that transaction,
its number how many runes were etched before it in the chain's order (before, real ord does
not know it: the views answer 404). `mints` counts the confirmed mints, `burned` what
confirmed transactions burned (ord's count: a cenotaph's inputs and mint, runes given to
OP_RETURN outputs or with no output to go to), `terms` is ord's `Terms` as it serialises them.
"""

from __future__ import annotations

import re
import sqlite3

from app.core.rune_names import RuneNameError, parse_spaced_rune
from app.sandbox.chain.errors import InvalidRequest
from app.sandbox.chain.ord_views import Json
from app.sandbox.chain.rune_updater import mintable, terms_from_json

RUNE_ID_PATTERN = re.compile(r"^(\d{1,10}):(\d{1,10})$")

# A rune's entry with where its etching was mined (NULLs while in the mempool).
_ENTRY = (
    "SELECT e.spaced, e.symbol, e.divisibility, e.premine, e.terms, e.turbo, e.etching, "
    "t.height, t.block_pos, e.seq FROM rune_entries e JOIN txs t ON t.txid = e.etching "
    "WHERE e.rune = ?"
)
# How many of a rune's mints and burns confirmed transactions made.
_CONFIRMED = "SELECT x.amount FROM {table} x JOIN txs t ON t.txid = x.txid " + (
    "WHERE x.rune = ? AND t.height IS NOT NULL"
)
# The confirmed etchings, the newest first.
_NEWEST_FIRST = (
    "SELECT e.rune FROM rune_entries e JOIN txs t ON t.txid = e.etching "
    "WHERE t.height IS NOT NULL ORDER BY t.height DESC, t.block_pos DESC"
)


def number(conn: sqlite3.Connection, rune: str) -> int | None:
    """ord's rune number: runes etched before this one in the chain (confirmed ones), then,
    for one still in the mempool, those indexed before it. None for an unknown rune."""
    row = conn.execute(_ENTRY, (rune,)).fetchone()
    if row is None:
        return None
    height, block_pos, seq = row[7], row[8], row[9]
    confirmed_before = (
        "SELECT COUNT(*) FROM rune_entries e JOIN txs t ON t.txid = e.etching "
        "WHERE t.height IS NOT NULL"
    )
    if height is not None:
        found = conn.execute(
            confirmed_before + " AND (t.height, t.block_pos) < (?, ?)", (height, block_pos)
        ).fetchone()
        return int(found[0])
    confirmed = int(conn.execute(confirmed_before).fetchone()[0])
    pending_before = conn.execute(
        "SELECT COUNT(*) FROM rune_entries e JOIN txs t ON t.txid = e.etching "
        "WHERE t.height IS NULL AND e.seq < ?",
        (seq,),
    ).fetchone()
    return confirmed + int(pending_before[0])


def entry(conn: sqlite3.Connection, rune: str) -> tuple[str, Json] | None:
    """(id, entry) of the rune with these letters; None when not etched in a block."""
    row = conn.execute(_ENTRY, (rune,)).fetchone()
    if row is None or row[7] is None:
        return None
    spaced, symbol, divisibility, premine, terms, turbo, etching, height, block_pos, _ = row
    (time,) = conn.execute("SELECT time FROM blocks WHERE height = ?", (height,)).fetchone()
    mints = conn.execute(_CONFIRMED.format(table="rune_mints"), (rune,)).fetchall()
    burns = conn.execute(_CONFIRMED.format(table="rune_burns"), (rune,)).fetchall()
    stored_terms = terms_from_json(terms)
    return f"{height}:{block_pos}", {
        "block": height,
        # Amounts reach 2^128: summed here, not by SQLite's 64-bit integers.
        "burned": sum(int(b[0]) for b in burns),
        "divisibility": divisibility,
        "etching": etching,
        "mints": len(mints),
        "number": number(conn, rune),
        "premine": int(premine),
        "spaced_rune": spaced,
        "symbol": symbol,
        "terms": None
        if stored_terms is None
        else {
            "amount": stored_terms.amount,
            "cap": stored_terms.cap,
            "height": list(stored_terms.height),
            "offset": list(stored_terms.offset),
        },
        "timestamp": time,
        "turbo": bool(turbo),
    }


def is_mintable(conn: sqlite3.Connection, rune: str) -> bool:
    """ord's `mintable` of `/rune/<RUNE>`: whether a mint in the next block would count."""
    found = entry(conn, rune)
    if found is None:
        return False
    row = conn.execute("SELECT terms FROM rune_entries WHERE rune = ?", (rune,)).fetchone()
    tip = int(conn.execute("SELECT COALESCE(MAX(height), 0) FROM blocks").fetchone()[0])
    _, fields = found
    amount = mintable(terms_from_json(row[0]), fields["block"], fields["mints"], tip + 1)
    return amount is not None


def rune_with_id(conn: sqlite3.Connection, rune_id: str) -> str | None:
    """The letters of the rune etched at `<block>:<tx>`, or None."""
    match = RUNE_ID_PATTERN.match(rune_id)
    if match is None:
        return None
    row = conn.execute(
        "SELECT e.rune FROM rune_entries e JOIN txs t ON t.txid = e.etching "
        "WHERE t.height = ? AND t.block_pos = ?",
        (int(match.group(1)), int(match.group(2))),
    ).fetchone()
    return None if row is None else str(row[0])


_DIGITS = re.compile(r"[0-9]+")  # a rune number in ord's `/rune/<query>`
_U64_MAX = 2**64 - 1


def queried(conn: sqlite3.Connection, query: str) -> str | None:
    """The letters of the rune `/rune/<query>` names, as ord's `query::Rune` reads a query:
    an id `<block>:<tx>`, a number (digits, a u64), else a name (reserved ones too); None
    for an unknown id or number, InvalidRequest INVALID_RUNE for a malformed name."""
    if RUNE_ID_PATTERN.match(query):
        return rune_with_id(conn, query)
    if _DIGITS.fullmatch(query):
        number = int(query)
        if number > _U64_MAX:
            raise InvalidRequest(f"rune number {query} is too large", "INVALID_RUNE")
        return rune_with_number(conn, number) if number < 2**63 else None
    try:
        return parse_spaced_rune(query).letters
    except RuneNameError as exc:
        raise InvalidRequest(str(exc), "INVALID_RUNE") from None


def rune_with_number(conn: sqlite3.Connection, number: int) -> str | None:
    """The letters of the confirmed rune with ord's number `number` (the chain's order of
    etchings), or None."""
    row = conn.execute(
        "SELECT e.rune FROM rune_entries e JOIN txs t ON t.txid = e.etching "
        "WHERE t.height IS NOT NULL ORDER BY t.height, t.block_pos LIMIT 1 OFFSET ?",
        (number,),
    ).fetchone()
    return None if row is None else str(row[0])


def api_rune(conn: sqlite3.Connection, letters: str) -> Json | None:
    """ord's `api::Rune` of `/rune/<RUNE>` (server.rs `rune`): the entry, its id, `mintable`
    (a mint in the next block would count) and `parent` (the inscription `<etching>i0`, when
    the etching made one); None when no block holds the etching."""
    found = entry(conn, letters)
    if found is None:
        return None
    rune_id, fields = found
    parent = conn.execute(
        "SELECT i.id FROM inscriptions i JOIN txs t ON t.txid = i.genesis_txid "
        "WHERE i.id = ? AND t.height IS NOT NULL",
        (f"{fields['etching']}i0",),
    ).fetchone()
    return {
        "entry": fields,
        "id": rune_id,
        "mintable": is_mintable(conn, letters),
        "parent": None if parent is None else parent[0],
    }


def page(conn: sqlite3.Connection, offset: int, limit: int) -> tuple[list[tuple[str, Json]], bool]:
    """Etched runes, the newest first (ord's `/runes` order): `limit` from `offset`, and
    whether more follow."""
    etched = conn.execute(_NEWEST_FIRST + " LIMIT ? OFFSET ?", (limit + 1, offset)).fetchall()
    entries = [found for (rune,) in etched[:limit] if (found := entry(conn, rune)) is not None]
    return entries, len(etched) > limit


# The market's view: every rune the index knows, the mempool's too, the newest first.
_MARKET_NEWEST_FIRST = (
    "SELECT e.rune FROM rune_entries e JOIN txs t ON t.txid = e.etching "
    "ORDER BY t.height IS NULL DESC, t.height DESC, t.block_pos DESC, e.seq DESC"
)


def market_rune(conn: sqlite3.Connection, rune: str) -> Json | None:
    """{rune, spaced, symbol, divisibility, number} of an etched rune (its etching possibly
    still in the mempool: the market trades on the current state), or None."""
    row = conn.execute(
        "SELECT rune, spaced, symbol, divisibility FROM rune_entries WHERE rune = ?", (rune,)
    ).fetchone()
    if row is None:
        return None
    letters, spaced, symbol, divisibility = row
    return {
        "rune": letters,
        "spaced": spaced,
        "symbol": symbol,
        "divisibility": divisibility,
        "number": number(conn, letters),
    }


def market_page(conn: sqlite3.Connection, offset: int, limit: int) -> tuple[list[Json], bool]:
    """`limit` runes from `offset`, the newest first, as `market_rune` gives them; whether
    more follow."""
    rows = conn.execute(_MARKET_NEWEST_FIRST + " LIMIT ? OFFSET ?", (limit + 1, offset)).fetchall()
    found = [r for (rune,) in rows[:limit] if (r := market_rune(conn, rune)) is not None]
    return found, len(rows) > limit
