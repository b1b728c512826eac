"""SQLite tables of secure listings: the listing PSBTs the intents built (by unsigned txid) and
the listings `POST /list/secure` activated.

Listing states: `active`, then `sold` (the marketplace's purchase spent the item), `replaced`
(the seller listed the same item again), or `item_moved` (any other spend of the item's output).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.sandbox.market.psbt_build import Coin

SCHEMA = """
CREATE TABLE IF NOT EXISTS secure_listing_intents (
    txid TEXT PRIMARY KEY,
    psbt BLOB NOT NULL,
    terms TEXT NOT NULL,
    item_coin TEXT NOT NULL,
    taker_fee INTEGER NOT NULL,
    created_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS secure_listings (
    id TEXT PRIMARY KEY,
    intent_txid TEXT NOT NULL UNIQUE,
    item_outpoint TEXT NOT NULL,
    inscription_id TEXT,
    runes_output TEXT,
    seller_ord_address TEXT NOT NULL,
    seller_receive_address TEXT NOT NULL,
    collection_slug TEXT,
    price INTEGER NOT NULL,
    taker_fee INTEGER NOT NULL,
    signed_psbt BLOB NOT NULL,
    status TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    ended_ms INTEGER,
    end_txid TEXT,
    buyer_token_address TEXT,
    purchase_txid TEXT,
    transfer_txid TEXT);
CREATE INDEX IF NOT EXISTS secure_listings_item ON secure_listings (item_outpoint, status);
CREATE INDEX IF NOT EXISTS secure_listings_seller ON secure_listings (seller_ord_address);
CREATE INDEX IF NOT EXISTS secure_listings_inscription ON secure_listings (inscription_id);
CREATE INDEX IF NOT EXISTS secure_listings_runes ON secure_listings (runes_output);
"""

ACTIVE = "active"
SOLD = "sold"
REPLACED = "replaced"
ITEM_MOVED = "item_moved"


@dataclass(frozen=True)
class ListingIntent:
    txid: str
    psbt: bytes
    terms: dict[str, Any]
    item: Coin
    taker_fee: int
    created_ms: int


@dataclass(frozen=True)
class SecureListing:
    id: str
    intent_txid: str
    item_outpoint: str
    inscription_id: str | None
    runes_output: str | None
    seller_ord_address: str
    seller_receive_address: str
    collection_slug: str | None
    price: int
    taker_fee: int
    signed_psbt: bytes
    status: str
    created_ms: int
    ended_ms: int | None = None
    end_txid: str | None = None
    buyer_token_address: str | None = None
    purchase_txid: str | None = None
    transfer_txid: str | None = None


_COLUMNS = (
    "id, intent_txid, item_outpoint, inscription_id, runes_output, seller_ord_address, "
    "seller_receive_address, collection_slug, price, taker_fee, signed_psbt, status, "
    "created_ms, ended_ms, end_txid, buyer_token_address, purchase_txid, transfer_txid"
)


def _listing(row: Any) -> SecureListing:
    values = list(row)
    values[10] = bytes(values[10])
    return SecureListing(*values)


def insert_intents(conn: sqlite3.Connection, intents: Sequence[ListingIntent]) -> None:
    conn.executemany(
        "INSERT OR REPLACE INTO secure_listing_intents "
        "(txid, psbt, terms, item_coin, taker_fee, created_ms) VALUES (?, ?, ?, ?, ?, ?)",
        [
            (
                i.txid, i.psbt, json.dumps(i.terms, sort_keys=True),
                json.dumps([i.item.txid, i.item.vout, i.item.value, i.item.script_pubkey.hex()]),
                i.taker_fee, i.created_ms,
            )
            for i in intents
        ],
    )  # fmt: skip


def intent_by_txid(conn: sqlite3.Connection, txid: str) -> ListingIntent | None:
    row = conn.execute(
        "SELECT txid, psbt, terms, item_coin, taker_fee, created_ms "
        "FROM secure_listing_intents WHERE txid = ?",
        (txid,),
    ).fetchone()
    if row is None:
        return None
    coin_txid, vout, value, spk = json.loads(row[3])
    item = Coin(coin_txid, vout, value, bytes.fromhex(spk))
    return ListingIntent(row[0], bytes(row[1]), json.loads(row[2]), item, row[4], row[5])


def insert_listing(conn: sqlite3.Connection, listing: SecureListing) -> None:
    values = [getattr(listing, name.strip()) for name in _COLUMNS.split(",")]
    marks = ", ".join("?" * len(values))
    conn.execute(f"INSERT INTO secure_listings ({_COLUMNS}) VALUES ({marks})", values)


def listing_by_id(conn: sqlite3.Connection, listing_id: str) -> SecureListing | None:
    row = conn.execute(
        f"SELECT {_COLUMNS} FROM secure_listings WHERE id = ?", (listing_id,)
    ).fetchone()
    return None if row is None else _listing(row)


def listing_by_intent(conn: sqlite3.Connection, intent_txid: str) -> SecureListing | None:
    row = conn.execute(
        f"SELECT {_COLUMNS} FROM secure_listings WHERE intent_txid = ?", (intent_txid,)
    ).fetchone()
    return None if row is None else _listing(row)


def active_listing_for(
    conn: sqlite3.Connection, inscription_id: str | None, runes_output: str | None
) -> SecureListing | None:
    column, value = (
        ("inscription_id", inscription_id)
        if runes_output is None
        else ("runes_output", runes_output)
    )
    row = conn.execute(
        f"SELECT {_COLUMNS} FROM secure_listings WHERE {column} = ? AND status = ? "
        "ORDER BY created_ms DESC LIMIT 1",
        (value, ACTIVE),
    ).fetchone()
    return None if row is None else _listing(row)


def listings_of_seller(
    conn: sqlite3.Connection, seller_ord_address: str, status: str | None = None
) -> list[SecureListing]:
    sql = f"SELECT {_COLUMNS} FROM secure_listings WHERE seller_ord_address = ?"
    args: list[Any] = [seller_ord_address]
    if status is not None:
        sql += " AND status = ?"
        args.append(status)
    rows = conn.execute(sql + " ORDER BY created_ms, id", args).fetchall()
    return [_listing(row) for row in rows]


def active_listings(conn: sqlite3.Connection) -> list[SecureListing]:
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM secure_listings WHERE status = ?", (ACTIVE,)
    ).fetchall()
    return [_listing(row) for row in rows]


def active_spending(conn: sqlite3.Connection, outpoints: Sequence[str]) -> list[SecureListing]:
    if not outpoints:
        return []
    marks = ",".join("?" * len(outpoints))
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM secure_listings WHERE item_outpoint IN ({marks}) AND status = ?",
        [*outpoints, ACTIVE],
    ).fetchall()
    return [_listing(row) for row in rows]


def end_listing(
    conn: sqlite3.Connection, listing_id: str, status: str, now_ms: int, txid: str | None
) -> bool:
    """Move an active listing to `status`; False when it was no longer active."""
    changed = conn.execute(
        "UPDATE secure_listings SET status = ?, ended_ms = ?, end_txid = ? "
        "WHERE id = ? AND status = ?",
        (status, now_ms, txid, listing_id, ACTIVE),
    ).rowcount
    return bool(changed)


def replace_active(conn: sqlite3.Connection, item_outpoint: str, now_ms: int) -> list[str]:
    """End the active listings of the item on `item_outpoint` as `replaced`."""
    ids = [
        str(r[0])
        for r in conn.execute(
            "SELECT id FROM secure_listings WHERE item_outpoint = ? AND status = ?",
            (item_outpoint, ACTIVE),
        )
    ]
    for listing_id in ids:
        end_listing(conn, listing_id, REPLACED, now_ms, None)
    return ids


def record_purchase(
    conn: sqlite3.Connection, listing_id: str, buyer_token: str, purchase_txid: str
) -> None:
    """Remember the purchase transaction before it is broadcast, so the watcher knows it."""
    conn.execute(
        "UPDATE secure_listings SET buyer_token_address = ?, purchase_txid = ? WHERE id = ?",
        (buyer_token, purchase_txid, listing_id),
    )


def record_transfer(conn: sqlite3.Connection, listing_id: str, transfer_txid: str) -> None:
    conn.execute(
        "UPDATE secure_listings SET transfer_txid = ? WHERE id = ?", (transfer_txid, listing_id)
    )
