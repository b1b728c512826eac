"""`GET /v1/activity/{listings,bids,sales}`: the market's orders and sales in the public
service's shapes (docs/market-data.md), sorted, filtered and paged by SQL, so a page of 500
out of 10,000 bids reads 500 rows.

- listings: the secure listings (`listings_store`), active = `status = 'active'` (the listings
  watcher ends a listing as soon as its item moves);
- bids: every collection, trait and rune bid in the bid store (ours and the sandbox-held
  bidders'), active by `bid_store.OPEN_AT_SQL` at the service clock;
- sales: filled bids and sold listings, timed by when they completed.
With `active=false` every order is listed, whatever its state, with `status` saying it.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from app.core.bid_request import RANGE_SLUGS
from app.sandbox.chain import ord_views
from app.sandbox.chain.errors import ChainError
from app.sandbox.market import listing_targets
from app.sandbox.market.bid_store import BID_TYPE_RUNE, OPEN_AT_SQL
from app.sandbox.market.listings_store import ACTIVE, SOLD
from app.sandbox.market.service import Json, Market

SORT_COLUMNS = {  # sortBy -> the SQL expression over the page's rows
    "price": "price",
    "unitPrice": "unit_price",
    "createdAt": "created_ms",
}
SALE_SORT_COLUMNS = {**SORT_COLUMNS, "createdAt": "ended_ms", "fillCompletedAt": "ended_ms"}
TIME_RANGES_MS = {"24h": 86_400_000, "7d": 7 * 86_400_000, "30d": 30 * 86_400_000}
MAX_PAGE_SIZE = 500
# A pool's bids in each sort order, so a page walks the index and stops after its rows instead
# of sorting the whole pool (a 500-row page of 10,000 bids by price: 14 ms -> 1 ms of SQL).
BID_READ_INDEXES = """
CREATE INDEX IF NOT EXISTS bids_slug_price ON bids (slug, price, id);
CREATE INDEX IF NOT EXISTS bids_slug_unit_price ON bids (slug, (price * 1.0 / quantity), id);
CREATE INDEX IF NOT EXISTS bids_slug_created ON bids (slug, created_ms, id);
"""


@dataclass(frozen=True)
class ActivityQuery:
    slug: str | None  # as stored: a collection slug, a range slug or a rune's spaced name
    active: bool
    page: int
    page_size: int
    sort_by: str
    descending: bool
    time_range: str | None = None


def iso_ms(ms: int | None) -> str | None:
    """ISO-8601 UTC with milliseconds, as the public service writes timestamps."""
    if ms is None:
        return None
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="milliseconds")[:-6] + "Z"


def resolve_slug(market: Market, slug: str) -> str | None:
    """What `collectionSlug` names, as the stores keep it: a collection's slug, a range slug,
    or an etched rune's spaced name (written with or without its spacers); None if nothing."""
    if slug in RANGE_SLUGS:
        return slug
    try:
        if market.node.collection(slug) is not None:
            return slug
        rune = market.node.rune(slug)
    except ChainError:  # not even well-formed as a rune name
        return None
    return None if rune is None else str(rune["spaced"])


def _page(
    conn: sqlite3.Connection,
    source: str,
    args: list[Any],
    query: ActivityQuery,
    order_column: str,
) -> tuple[list[Any], Json]:
    total = int(conn.execute(f"SELECT COUNT(*) FROM ({source})", args).fetchone()[0])
    direction = "DESC" if query.descending else "ASC"
    rows = conn.execute(
        f"SELECT * FROM ({source}) ORDER BY {order_column} {direction}, id {direction} "
        "LIMIT ? OFFSET ?",
        [*args, query.page_size, (query.page - 1) * query.page_size],
    ).fetchall()
    pages = -(-total // query.page_size)
    pagination = {
        "page": query.page,
        "pageSize": query.page_size,
        "total": total,
        "totalPages": pages,
    }
    return rows, pagination


def _since(query: ActivityQuery, now: int) -> int | None:
    return None if query.time_range is None else now - TIME_RANGES_MS[query.time_range]


# -- bids ---------------------------------------------------------------------------------


def bids_page(market: Market, query: ActivityQuery) -> Json:
    now = market.now_ms()
    where: list[str] = ["1"]
    args: list[Any] = []
    if query.slug is not None:
        where.append("slug = ?")
        args.append(query.slug)
    if query.active:
        where.append(OPEN_AT_SQL)
        args.append(now)
    if (since := _since(query, now)) is not None:
        where.append("created_ms >= ?")
        args.append(since)
    source = (
        "SELECT id, maker, bidder_address, type, slug, trait_type, trait_value, price, "
        "quantity, price * 1.0 / quantity AS unit_price, expiry_ms, created_ms, status, "
        f"ended_ms FROM bids WHERE {' AND '.join(where)}"
    )
    with market.store.reading() as conn:
        rows, pagination = _page(conn, source, args, query, SORT_COLUMNS[query.sort_by])
    divisibility = _divisibilities(market, {r[4] for r in rows if r[3] == BID_TYPE_RUNE})
    return {"items": [_bid_row(r, now, divisibility) for r in rows], "pagination": pagination}


def _divisibilities(market: Market, runes: set[str]) -> dict[str, int]:
    found = {}
    for name in runes:
        try:
            rune = market.node.rune(name)
        except ChainError:
            rune = None
        found[name] = 0 if rune is None else int(rune["divisibility"])
    return found


def bid_state(status: str, expiry_ms: int, now: int) -> str:
    """open, expired, cancelled or filled (an open row past its expiry is expired)."""
    return "expired" if status == "open" and expiry_ms <= now else status


def _bid_row(row: Any, now: int, divisibility: dict[str, int]) -> Json:
    bid_id, maker, bidder, kind, slug, ttype, tvalue, price, qty, unit, expiry, created = row[:12]
    status, ended = row[12], row[13]
    is_rune = kind == BID_TYPE_RUNE
    attribute = None if ttype is None else {"trait_type": ttype, "value": tvalue}
    bid_kind = "rune" if is_rune else ("trait" if attribute else "collection")
    state = bid_state(status, expiry, now)
    return {
        "_id": bid_id,
        "id": bid_id,
        "type": "bid",
        "orderType": "bid",
        "collectionSlug": slug,
        "inscriptionId": None,
        "price": price,
        "unitPrice": unit if is_rune else price,
        "quantity": qty,
        "timestamp": iso_ms(created),
        "expiry": iso_ms(expiry),
        "status": state,
        "cancelledAt": iso_ms(ended) if state == "cancelled" else None,
        "fillCompletedAt": iso_ms(ended) if state == "filled" else None,
        "bid": {
            "bidderAddress": bidder,
            "bidderTokenReceiveAddress": maker,
            "price": price,
            "quantity": qty,
            "expiry": iso_ms(expiry),
            "kind": bid_kind,
            "attribute": attribute,
            "inscriptionId": None,
        },
        "runes": {"name": slug, "amount": str(qty * 10 ** divisibility[slug])} if is_rune else None,
    }


# -- listings -----------------------------------------------------------------------------


_LISTING_COLUMNS = (
    "s.id AS id, s.inscription_id, s.runes_output, s.seller_ord_address, "
    "s.seller_receive_address, s.price AS price, t.unit_price AS unit_price, "
    "s.created_ms AS created_ms, s.status, s.ended_ms AS ended_ms, s.item_outpoint, t.slug, "
    "t.rune_amount"
)


def listings_page(market: Market, query: ActivityQuery) -> Json:
    listing_targets.sync(market)
    now = market.now_ms()
    where: list[str] = ["1"]
    args: list[Any] = []
    if query.slug is not None:
        where.append("t.slug = ?")
        args.append(query.slug)
    if query.active:
        where.append("s.status = ?")
        args.append(ACTIVE)
    if (since := _since(query, now)) is not None:
        where.append("s.created_ms >= ?")
        args.append(since)
    source = (
        f"SELECT {_LISTING_COLUMNS} FROM secure_listings s JOIN listing_targets t "
        f"ON t.listing_id = s.id WHERE {' AND '.join(where)}"
    )
    with market.store.reading() as conn:
        rows, pagination = _page(conn, source, args, query, SORT_COLUMNS[query.sort_by])
    item_txids = {r[10].split(":")[0] for r in rows}
    mined = market.node.read_index(
        lambda conn: {txid for txid in item_txids if ord_views.confirmed(conn, txid)}
    )
    return {"items": [_listing_row(r, mined) for r in rows], "pagination": pagination}


def _listing_row(row: Any, mined: set[str]) -> Json:
    listing_id, inscription_id, runes_output, seller_ord, seller_receive, price, unit = row[:7]
    created, status, ended, item_outpoint, slug, rune_amount = row[7:]
    unconfirmed = item_outpoint.split(":")[0] not in mined
    return {
        "_id": listing_id,
        "id": listing_id,
        "type": "listing",
        "orderType": "ask",
        "collectionSlug": slug,
        "inscriptionId": inscription_id,
        "price": price,
        "unitPrice": price if runes_output is None else unit,
        "timestamp": iso_ms(created),
        "status": status,
        "cancelledAt": iso_ms(ended) if status not in (ACTIVE, SOLD) else None,
        "fillCompletedAt": iso_ms(ended) if status == SOLD else None,
        "ask": {
            "inscriptionId": inscription_id,
            "runesOutput": runes_output,
            "price": price,
            "sellerOrdAddress": seller_ord,
            "sellerReceiveAddress": seller_receive,
            "collectionSlug": slug,
            "unconfirmed": unconfirmed,
        },
        "runes": None
        if runes_output is None
        else {"name": slug, "amount": rune_amount, "output": runes_output},
    }


# -- sales --------------------------------------------------------------------------------


def sales_source(slug: str | None) -> tuple[str, list[Any]]:
    """SQL of every sale (filled bids, sold listings) as rows of (id, kind, slug, inscription
    id, price, unit_price, created_ms, ended_ms, txid, seller, buyer); needs
    `listing_targets.sync` first."""
    bid_where, listing_where = "", ""
    args: list[Any] = []
    if slug is not None:
        bid_where, listing_where = " AND slug = ?", " AND t.slug = ?"
    sql = (
        "SELECT id, 'bid' AS kind, slug, fill_inscription_id AS inscription_id, price, "
        "price * 1.0 / quantity AS unit_price, created_ms, ended_ms, fill_txid AS txid, "
        f"fill_seller AS seller, maker AS buyer FROM bids WHERE status = 'filled'{bid_where} "
        "UNION ALL SELECT s.id, 'listing', t.slug, s.inscription_id, s.price, t.unit_price, "
        "s.created_ms, s.ended_ms, s.purchase_txid, s.seller_ord_address, "
        "s.buyer_token_address FROM secure_listings s JOIN listing_targets t "
        f"ON t.listing_id = s.id WHERE s.status = '{SOLD}'{listing_where}"
    )
    if slug is not None:
        args = [slug, slug]
    return sql, args


def sales_page(market: Market, query: ActivityQuery) -> Json:
    listing_targets.sync(market)
    source, args = sales_source(query.slug)
    if (since := _since(query, market.now_ms())) is not None:
        source = f"SELECT * FROM ({source}) WHERE ended_ms >= ?"
        args = [*args, since]
    with market.store.reading() as conn:
        rows, pagination = _page(conn, source, args, query, SALE_SORT_COLUMNS[query.sort_by])
    return {"items": [_sale_row(r) for r in rows], "pagination": pagination}


def _sale_row(row: Any) -> Json:
    sale_id, kind, slug, inscription_id, price, unit, _created, ended, txid, seller, buyer = row
    return {
        "_id": sale_id,
        "id": sale_id,
        "type": "sale",
        "orderType": "bid" if kind == "bid" else "ask",
        "collectionSlug": slug,
        "inscriptionId": inscription_id,
        "price": price,
        "unitPrice": unit,
        "timestamp": iso_ms(ended),
        "fillCompletedAt": iso_ms(ended),
        "txid": txid,
        "sellerAddress": seller,
        "buyerAddress": buyer,
    }
