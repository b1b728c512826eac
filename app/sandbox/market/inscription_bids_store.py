"""SQLite tables of single-inscription bids: the intents `POST /intent/bid` built, the bids
placed from them, and the coins each open bid spends (watched on the chain).

Bid states: `open`, then one of `cancelled` (the bidder), `accepted` (the bid's own transaction
was broadcast), `inscription_moved` (input 0 was spent by another transaction) or
`funding_spent` (a bidder coin was spent by another transaction).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from app.sandbox.market.psbt_build import Coin

SCHEMA = """
CREATE TABLE IF NOT EXISTS inscription_bid_intents (
    txid TEXT PRIMARY KEY,
    psbt BLOB NOT NULL,
    inscription_id TEXT NOT NULL,
    price INTEGER NOT NULL,
    bidder_address TEXT NOT NULL,
    token_address TEXT NOT NULL,
    coins TEXT NOT NULL,
    postage INTEGER NOT NULL,
    service_fee INTEGER NOT NULL,
    network_fee INTEGER NOT NULL,
    created_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS inscription_bids (
    id TEXT PRIMARY KEY,
    intent_txid TEXT NOT NULL UNIQUE,
    inscription_id TEXT NOT NULL,
    price INTEGER NOT NULL,
    bidder_address TEXT NOT NULL,
    token_address TEXT NOT NULL,
    signed_psbt BLOB NOT NULL,
    status TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    ended_ms INTEGER,
    end_txid TEXT);
CREATE INDEX IF NOT EXISTS inscription_bids_token ON inscription_bids (token_address);
CREATE INDEX IF NOT EXISTS inscription_bids_bidder ON inscription_bids (bidder_address);
CREATE TABLE IF NOT EXISTS inscription_bid_coins (
    bid_id TEXT NOT NULL,
    outpoint TEXT NOT NULL,
    input_index INTEGER NOT NULL,
    PRIMARY KEY (bid_id, input_index));
CREATE INDEX IF NOT EXISTS inscription_bid_coins_outpoint ON inscription_bid_coins (outpoint);
"""

OPEN = "open"
CANCELLED = "cancelled"
ACCEPTED = "accepted"
INSCRIPTION_MOVED = "inscription_moved"
FUNDING_SPENT = "funding_spent"


@dataclass(frozen=True)
class BidIntent:
    txid: str
    psbt: bytes
    inscription_id: str
    price: int
    bidder_address: str
    token_address: str
    coins: tuple[Coin, ...]  # what each input spends, input 0 = the inscription
    postage: int
    service_fee: int
    network_fee: int
    created_ms: int


@dataclass(frozen=True)
class InscriptionBid:
    id: str
    intent_txid: str
    inscription_id: str
    price: int
    bidder_address: str
    token_address: str
    signed_psbt: bytes
    status: str
    created_ms: int
    ended_ms: int | None
    end_txid: str | None


def _coins_json(coins: Sequence[Coin]) -> str:
    return json.dumps([[c.txid, c.vout, c.value, c.script_pubkey.hex()] for c in coins])


def _coins_from(text: str) -> tuple[Coin, ...]:
    return tuple(Coin(t, v, value, bytes.fromhex(spk)) for t, v, value, spk in json.loads(text))


def insert_intent(conn: sqlite3.Connection, intent: BidIntent) -> None:
    conn.execute(
        "INSERT OR REPLACE INTO inscription_bid_intents (txid, psbt, inscription_id, price, "
        "bidder_address, token_address, coins, postage, service_fee, network_fee, created_ms) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            intent.txid, intent.psbt, intent.inscription_id, intent.price,
            intent.bidder_address, intent.token_address, _coins_json(intent.coins),
            intent.postage, intent.service_fee, intent.network_fee, intent.created_ms,
        ),
    )  # fmt: skip


def intent_by_txid(conn: sqlite3.Connection, txid: str) -> BidIntent | None:
    row = conn.execute(
        "SELECT txid, psbt, inscription_id, price, bidder_address, token_address, coins, "
        "postage, service_fee, network_fee, created_ms FROM inscription_bid_intents "
        "WHERE txid = ?",
        (txid,),
    ).fetchone()
    if row is None:
        return None
    return BidIntent(
        row[0], bytes(row[1]), row[2], row[3], row[4], row[5], _coins_from(row[6]), *row[7:]
    )


_BID_COLUMNS = (
    "id, intent_txid, inscription_id, price, bidder_address, token_address, signed_psbt, "
    "status, created_ms, ended_ms, end_txid"
)


def _bid(row: Any) -> InscriptionBid:
    return InscriptionBid(row[0], row[1], row[2], row[3], row[4], row[5], bytes(row[6]), *row[7:])


def insert_bid(conn: sqlite3.Connection, bid: InscriptionBid, coins: Sequence[Coin]) -> None:
    conn.execute(
        f"INSERT INTO inscription_bids ({_BID_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            bid.id, bid.intent_txid, bid.inscription_id, bid.price, bid.bidder_address,
            bid.token_address, bid.signed_psbt, bid.status, bid.created_ms, bid.ended_ms,
            bid.end_txid,
        ),
    )  # fmt: skip
    conn.executemany(
        "INSERT INTO inscription_bid_coins (bid_id, outpoint, input_index) VALUES (?, ?, ?)",
        [(bid.id, coin.outpoint, index) for index, coin in enumerate(coins)],
    )


def bid_by_id(conn: sqlite3.Connection, bid_id: str) -> InscriptionBid | None:
    row = conn.execute(
        f"SELECT {_BID_COLUMNS} FROM inscription_bids WHERE id = ?", (bid_id,)
    ).fetchone()
    return None if row is None else _bid(row)


def bid_by_intent(conn: sqlite3.Connection, intent_txid: str) -> InscriptionBid | None:
    row = conn.execute(
        f"SELECT {_BID_COLUMNS} FROM inscription_bids WHERE intent_txid = ?", (intent_txid,)
    ).fetchone()
    return None if row is None else _bid(row)


def bids_of_address(
    conn: sqlite3.Connection, address: str, status: str | None = None
) -> list[InscriptionBid]:
    """Bids whose ordinals (token) or payment address is `address`, oldest first."""
    sql = (
        f"SELECT {_BID_COLUMNS} FROM inscription_bids "
        "WHERE (token_address = ? OR bidder_address = ?)"
    )
    args: list[object] = [address, address]
    if status is not None:
        sql += " AND status = ?"
        args.append(status)
    rows = conn.execute(sql + " ORDER BY created_ms, id", args).fetchall()
    return [_bid(row) for row in rows]


def open_bids(conn: sqlite3.Connection) -> list[InscriptionBid]:
    rows = conn.execute(
        f"SELECT {_BID_COLUMNS} FROM inscription_bids WHERE status = ? ORDER BY created_ms",
        (OPEN,),
    ).fetchall()
    return [_bid(row) for row in rows]


def open_bids_spending(
    conn: sqlite3.Connection, outpoints: Iterable[str]
) -> list[tuple[str, str, int]]:
    """(bid id, intent txid, input index) of open bids spending any of `outpoints`."""
    wanted = list(outpoints)
    if not wanted:
        return []
    marks = ",".join("?" * len(wanted))
    rows = conn.execute(
        "SELECT b.id, b.intent_txid, c.input_index FROM inscription_bid_coins c "
        f"JOIN inscription_bids b ON b.id = c.bid_id WHERE c.outpoint IN ({marks}) "
        "AND b.status = ?",
        [*wanted, OPEN],
    ).fetchall()
    return [(str(r[0]), str(r[1]), int(r[2])) for r in rows]


def end_bid(
    conn: sqlite3.Connection, bid_id: str, status: str, now_ms: int, txid: str | None = None
) -> bool:
    """Move an open bid to `status`; False when it was no longer open."""
    changed = conn.execute(
        "UPDATE inscription_bids SET status = ?, ended_ms = ?, end_txid = ? "
        "WHERE id = ? AND status = ?",
        (status, now_ms, txid, bid_id, OPEN),
    ).rowcount
    return bool(changed)


def open_bid_coins(conn: sqlite3.Connection) -> list[tuple[str, str, str, int]]:
    """(bid id, intent txid, outpoint, input index) of every coin an open bid spends."""
    rows = conn.execute(
        "SELECT b.id, b.intent_txid, c.outpoint, c.input_index FROM inscription_bid_coins c "
        "JOIN inscription_bids b ON b.id = c.bid_id WHERE b.status = ?",
        (OPEN,),
    ).fetchall()
    return [(str(r[0]), str(r[1]), str(r[2]), int(r[3])) for r in rows]
