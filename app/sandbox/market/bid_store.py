"""Rows of the `bids` table: one row per bid (a request of quantity 3 on 2 traits is 6 rows;
a rune bid is one row whose `quantity` counts rune units).

A bid is open while `status = 'open'` and the service clock is before its expiry; it ends as
`cancelled` (by its maker, or by the balance rule) or `filled`. Callers hold the market lock
and pass a connection from `MarketStore.transaction()` / `reading()`.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from app.core.bid_fee_rate import BidFeeRate
from app.core.bid_request import Trait
from app.core.pools import OpenBid, PoolKey

Json = dict[str, Any]
BID_TYPE_COLLECTION = "collection"
BID_TYPE_RUNE = "rune"
# The one rule of an active bid, for SQL over `bids`: open and not expired at the service
# clock (the `?`). BidState.is_open says the same of one row.
OPEN_AT_SQL = "status = 'open' AND expiry_ms > ?"
_ID_RANDOM_BYTES = 8


@dataclass(frozen=True)
class BidRow:
    id: str
    wallet_id: int
    maker: str
    bidder_address: str
    type: str
    meta_type: str
    slug: str
    trait: Trait | None
    price: int
    quantity: int
    expiry_ms: int
    created_ms: int
    message_hash: str
    fee_rate: BidFeeRate | None = None  # the request's feeRate; None: not sent


def new_bid_ids(count: int, now_ms: int) -> list[str]:
    """ObjectId-like ids: 4 bytes of seconds, 8 random bytes, as 24 lowercase hex digits."""
    stamp = (now_ms // 1000 & 0xFFFFFFFF).to_bytes(4, "big").hex()
    pool = secrets.token_bytes(_ID_RANDOM_BYTES * count).hex()
    width = 2 * _ID_RANDOM_BYTES
    return [stamp + pool[i * width : (i + 1) * width] for i in range(count)]


def insert_bids(conn: sqlite3.Connection, rows: Sequence[BidRow]) -> None:
    conn.executemany(
        "INSERT INTO bids (id, wallet_id, maker, bidder_address, type, meta_type, slug, "
        "trait_type, trait_value, price, quantity, expiry_ms, created_ms, status, message_hash, "
        "fee_rate) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?)",
        [
            (
                r.id,
                r.wallet_id,
                r.maker,
                r.bidder_address,
                r.type,
                r.meta_type,
                r.slug,
                None if r.trait is None else r.trait.trait_type,
                None if r.trait is None else r.trait.value,
                r.price,
                r.quantity,
                r.expiry_ms,
                r.created_ms,
                r.message_hash,
                None if r.fee_rate is None else json.dumps(r.fee_rate.to_wire()),
            )
            for r in rows
        ],
    )


def open_pool_bids(conn: sqlite3.Connection, wallet_id: int, now_ms: int) -> list[OpenBid]:
    """The wallet's open bids as `app.core.pools` sees them (pool, price, age)."""
    rows = conn.execute(
        "SELECT id, slug, trait_type, trait_value, price, created_ms FROM bids "
        f"WHERE wallet_id = ? AND {OPEN_AT_SQL}",
        (wallet_id, now_ms),
    ).fetchall()
    return [
        OpenBid(
            bid_id,
            PoolKey(slug, None if trait_type is None else Trait(trait_type, trait_value)),
            price,
            created_ms,
        )
        for bid_id, slug, trait_type, trait_value, price, created_ms in rows
    ]


def open_bid_entries_json(
    conn: sqlite3.Connection,
    address: str,
    now_ms: int,
    *,
    by_payment: bool = False,
    divisibility_of: Callable[[str], int] = lambda _rune: 0,
) -> list[str]:
    """`GET /address/bids` entries listed under `address` (the bids' ordinals address, or
    their payment address with `by_payment`), oldest first, each as JSON text: written
    straight from the row (10,000 entries would spend most of their time in dicts and a
    generic encoder otherwise). Strings go through `json.dumps` (escaping).

    Besides the sandbox's own fields, each entry carries the public service's documented
    ones: `inscription_id` (null), `inscription_metadata.collection.id` (collection and
    trait bids) and `runes_metadata.runes[]` (rune bids: `name`, `amount` in the rune's
    smallest units, i.e. the units bid for x 10^`divisibility`, from `divisibility_of`)."""
    column = "bidder_address" if by_payment else "maker"
    rows = conn.execute(
        "SELECT id, type, meta_type, slug, trait_type, trait_value, price, quantity, "
        f"expiry_ms, created_ms FROM bids WHERE {column} = ? AND {OPEN_AT_SQL} "
        "ORDER BY created_ms, id",
        (address, now_ms),
    ).fetchall()
    texts: dict[Any, str] = {}
    divisibilities: dict[str, int] = {}

    def text(value: Any) -> str:
        cached = texts.get(value)
        if cached is None:
            cached = texts[value] = json.dumps(value, ensure_ascii=False)
        return cached

    def metadata(kind: str, slug: str, quantity: int) -> str:
        if kind != BID_TYPE_RUNE:
            collection = f'{{"collection":{{"id":{text(slug)}}}}}'
            return f'"inscription_metadata":{collection},"runes_metadata":null'
        if slug not in divisibilities:
            divisibilities[slug] = divisibility_of(slug)
        div = divisibilities[slug]
        rune = f'{{"name":{text(slug)},"amount":{quantity * 10**div},"divisibility":{div}}}'
        return f'"inscription_metadata":null,"runes_metadata":{{"runes":[{rune}]}}'

    entries = []
    for bid_id, kind, meta, slug, ttype, tvalue, price, qty, expiry, created in rows:
        attribute = (
            ""
            if ttype is None
            else f',"attribute":{{"trait_type":{text(ttype)},"value":{text(tvalue)}}}'
        )
        entries.append(
            f'{{"bid_id":{{"$oid":"{bid_id}"}},"type":"{kind}","inscription_id":null,'
            f'"price":{price},"quantity":{qty},"expiration":{expiry},"createdAt":{created},'
            f'"collectionSlug":{text(slug)},"metaType":{text(meta)}{attribute},'
            f"{metadata(kind, slug, qty)}}}"
        )
    return entries


@dataclass(frozen=True)
class BidState:
    id: str
    wallet_id: int
    maker: str  # the ordinals address
    bidder_address: str  # the payment address
    type: str
    slug: str
    trait: Trait | None
    price: int
    expiry_ms: int
    status: str
    fee_rate: BidFeeRate | None = None  # the feeRate it was placed with; None: not sent

    def is_open(self, now_ms: int) -> bool:
        return self.status == "open" and self.expiry_ms > now_ms


def bid_states(conn: sqlite3.Connection, ids: Iterable[str]) -> dict[str, BidState]:
    wanted = list(dict.fromkeys(ids))
    found: dict[str, BidState] = {}
    for start in range(0, len(wanted), 500):  # SQLite's variable limit
        chunk = wanted[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for row in conn.execute(
            "SELECT id, wallet_id, maker, bidder_address, type, slug, trait_type, trait_value, "
            f"price, expiry_ms, status, fee_rate FROM bids WHERE id IN ({marks})",
            chunk,
        ):
            trait = None if row[6] is None else Trait(row[6], row[7])
            fee_rate = None if row[11] is None else BidFeeRate.from_wire(json.loads(row[11]))
            found[row[0]] = BidState(
                row[0],
                row[1],
                row[2],
                row[3],
                row[4],
                row[5],
                trait,
                row[8],
                row[9],
                row[10],
                fee_rate,
            )
    return found


def end_bids(
    conn: sqlite3.Connection,
    ids: Iterable[str],
    status: str,
    reason: str,
    now_ms: int,
    fill_txid: str | None = None,
) -> list[str]:
    """End the given bids that are still open; returns the ids this call ended (a bid another
    call ended first is not counted again)."""
    ended = []
    for bid_id in ids:
        cursor = conn.execute(
            "UPDATE bids SET status = ?, ended_ms = ?, end_reason = ?, fill_txid = ? "
            f"WHERE id = ? AND {OPEN_AT_SQL}",
            (status, now_ms, reason, fill_txid, bid_id, now_ms),
        )
        if cursor.rowcount == 1:
            ended.append(bid_id)
    return ended


def record_fill_item(
    conn: sqlite3.Connection, bid_id: str, inscription_id: str, seller_address: str
) -> None:
    """What a filled bid bought and from whom (the sale `/activity/sales` shows)."""
    conn.execute(
        "UPDATE bids SET fill_inscription_id = ?, fill_seller = ? WHERE id = ?",
        (inscription_id, seller_address, bid_id),
    )
