"""What each secure listing sells, as the market reads see it: the collection of its
inscription (from the chain: the seller's optional `collectionSlug` is not trusted), or the
rune of its runes output with the amount, and its unit price (the price; per whole rune unit
for a rune listing). Kept in `listing_targets`, filled for new listings at each read
(`sync`), so the activity, stats and floor queries stay in SQL: sorting, counts and limits.
A listing's price never changes (repricing makes a new listing), so a row never goes stale.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from app.sandbox.chain.errors import ChainError
from app.sandbox.market.service import Market

SCHEMA = """
CREATE TABLE IF NOT EXISTS listing_targets (
    listing_id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    slug TEXT,
    rune_amount TEXT,
    divisibility INTEGER,
    unit_price REAL NOT NULL);
CREATE INDEX IF NOT EXISTS listing_targets_slug ON listing_targets (slug, unit_price);
"""
KIND_INSCRIPTION = "inscription"
KIND_RUNE = "rune"


@dataclass(frozen=True)
class _Target:
    kind: str
    slug: str | None  # collection slug or the rune's spaced name; None: neither known
    rune_amount: int | None  # smallest units
    divisibility: int | None


def unit_price(price: int, rune_amount: int | None, divisibility: int | None) -> float:
    """Sats per item, or per whole rune unit (the rune bids' unitPrice: price / units)."""
    if not rune_amount:
        return float(price)
    return float(price * 10 ** (divisibility or 0) / rune_amount)


def _target(market: Market, inscription_id: str | None, runes_output: str | None) -> _Target:
    node = market.node
    try:
        if runes_output is None:
            info = None if inscription_id is None else node.ord_inscription(inscription_id)
            slug = None if info is None else info.get("collection")
            return _Target(KIND_INSCRIPTION, slug, None, None)
        output = node.ord_output(runes_output)
    except ChainError:
        output = None
    runes = {} if output is None else output["runes"]
    if not runes:
        return _Target(KIND_RUNE, None, None, None)
    spaced, balance = next(iter(runes.items()))  # a listed output carries one rune
    return _Target(KIND_RUNE, spaced, int(balance["amount"]), int(balance["divisibility"]))


def sync(market: Market) -> None:
    """Record the target of every listing not recorded yet (at most a few at each read: the
    listings made since the last one)."""
    with market.store.reading() as conn:
        missing = conn.execute(
            "SELECT s.id, s.inscription_id, s.runes_output, s.price FROM secure_listings s "
            "LEFT JOIN listing_targets t ON t.listing_id = s.id WHERE t.listing_id IS NULL"
        ).fetchall()
    if not missing:
        return
    rows = []
    for listing_id, inscription_id, runes_output, price in missing:
        t = _target(market, inscription_id, runes_output)
        amount = None if t.rune_amount is None else str(t.rune_amount)
        per_unit = unit_price(price, t.rune_amount, t.divisibility)
        rows.append((listing_id, t.kind, t.slug, amount, t.divisibility, per_unit))
    with market.store.transaction() as conn:
        _insert(conn, rows)


def _insert(conn: sqlite3.Connection, rows: Sequence[tuple[object, ...]]) -> None:
    conn.executemany(
        "INSERT OR IGNORE INTO listing_targets "
        "(listing_id, kind, slug, rune_amount, divisibility, unit_price) VALUES (?, ?, ?, ?, ?, ?)",
        rows,
    )
