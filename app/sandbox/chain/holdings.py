"""Who holds what, read from the index (current state, mempool included, like ord_views):
a collection's owners and inscription number range, a rune's holders, and an address's
inscriptions and rune outputs with what the market's wallet-contents view shows of them.
Each function takes the index's connection: call them through `Node.read_index`."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from app.sandbox.chain.addresses import script_for_address

_CHUNK = 500  # SQLite's variable limit, with room


@dataclass(frozen=True)
class CollectionHolding:
    owners: int  # distinct scripts holding at least one of its inscriptions
    inscription_min: int | None
    inscription_max: int | None


@dataclass(frozen=True)
class HeldInscription:
    id: str
    number: int
    collection: str | None
    content_type: str
    output: str  # txid:vout


@dataclass(frozen=True)
class HeldRunes:
    output: str  # txid:vout
    spaced: str
    amount: int  # smallest units
    divisibility: int
    symbol: str


def _chunks(items: Sequence[str]) -> list[Sequence[str]]:
    return [items[i : i + _CHUNK] for i in range(0, len(items), _CHUNK)]


def collection_holdings(
    conn: sqlite3.Connection, slugs: Sequence[str]
) -> dict[str, CollectionHolding]:
    """Per known slug: owners (by the script of the output each inscription sits on; an
    inscription lost to fees has no owner) and the inscription number range."""
    found: dict[str, CollectionHolding] = {}
    for chunk in _chunks(list(dict.fromkeys(slugs))):
        marks = ",".join("?" * len(chunk))
        for slug, owners, low, high in conn.execute(
            "SELECT i.collection, COUNT(DISTINCT o.script_pubkey), MIN(i.number), "
            "MAX(i.number) FROM inscriptions i LEFT JOIN inscription_locations l ON l.id = i.id "
            "LEFT JOIN outputs o ON o.txid = l.txid AND o.vout = l.vout "
            f"WHERE i.collection IN ({marks}) GROUP BY i.collection",
            list(chunk),
        ):
            found[slug] = CollectionHolding(int(owners), low, high)
    return found


def rune_owner_counts(conn: sqlite3.Connection, spaced_names: Sequence[str]) -> dict[str, int]:
    """Per etched rune (by spaced name): distinct scripts holding some of it unspent."""
    counts: dict[str, int] = {}
    for chunk in _chunks(list(dict.fromkeys(spaced_names))):
        marks = ",".join("?" * len(chunk))
        for spaced, owners in conn.execute(
            "SELECT r.spaced, COUNT(DISTINCT o.script_pubkey) FROM rune_entries r "
            "LEFT JOIN rune_balances b ON b.rune = r.rune LEFT JOIN outputs o "
            "ON o.txid = b.txid AND o.vout = b.vout AND o.spent_txid IS NULL "
            f"WHERE r.spaced IN ({marks}) GROUP BY r.spaced",
            list(chunk),
        ):
            counts[spaced] = int(owners)
    return counts


def held_inscriptions(conn: sqlite3.Connection, spk: bytes) -> list[HeldInscription]:
    """The inscriptions on unspent outputs of `spk`, by inscription number."""
    rows = conn.execute(
        "SELECT i.id, i.number, i.collection, i.content_type, l.txid, l.vout "
        "FROM inscription_locations l JOIN outputs o ON o.txid = l.txid AND o.vout = l.vout "
        "JOIN inscriptions i ON i.id = l.id WHERE o.script_pubkey = ? AND o.spent_txid IS NULL "
        "ORDER BY i.number",
        (spk,),
    ).fetchall()
    return [HeldInscription(r[0], r[1], r[2], r[3], f"{r[4]}:{r[5]}") for r in rows]


def held_runes(conn: sqlite3.Connection, spk: bytes) -> list[HeldRunes]:
    """Each (unspent output of `spk`, rune) with its balance, by rune number then output."""
    rows = conn.execute(
        "SELECT b.txid, b.vout, r.spaced, b.amount, r.divisibility, r.symbol "
        "FROM rune_balances b JOIN outputs o ON o.txid = b.txid AND o.vout = b.vout "
        "JOIN rune_entries r ON r.rune = b.rune WHERE o.script_pubkey = ? AND o.spent_txid IS NULL "
        "ORDER BY r.seq, b.txid, b.vout",
        (spk,),
    ).fetchall()
    return [HeldRunes(f"{r[0]}:{r[1]}", r[2], int(r[3]), r[4], r[5]) for r in rows]


def held_items(
    conn: sqlite3.Connection, address: str
) -> tuple[list[HeldInscription], list[HeldRunes]]:
    """The inscriptions and rune balances on `address`'s unspent outputs (InvalidRequest for
    an address that is not a regtest one)."""
    spk = script_for_address(address)
    return held_inscriptions(conn, spk), held_runes(conn, spk)
