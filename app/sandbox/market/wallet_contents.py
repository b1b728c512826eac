"""`GET /v1/address/wallet-contents`: what an address holds on the chain (inscriptions, rune
balances per output), each with its active secure listing and its market (floor, top bid,
listed count), plus the address's pending orders: the documented shape
(`data.results.ordinals[]`, `data.results.runes[]`, `data.pending_orders[]`,
`data.nextCursor`; docs/market-data.md).

Items come ordinals first (by inscription number), then rune outputs (by rune, then output);
`cursor` is the offset in that sequence after the filters, `nextCursor` the offset of the
next page or null at the end.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from app.sandbox.chain.holdings import HeldInscription, HeldRunes, held_items
from app.sandbox.market import listing_targets
from app.sandbox.market.activity_views import iso_ms
from app.sandbox.market.bid_store import BID_TYPE_RUNE, OPEN_AT_SQL
from app.sandbox.market.listings_store import ACTIVE, SOLD
from app.sandbox.market.service import Json, Market

ITEM_TYPES = ("inscription", "rune", "all")
MAX_LIMIT = 500
_CHUNK = 500


@dataclass(frozen=True)
class ContentsQuery:
    address: str
    item_type: str
    collection: str | None  # a slug, or a rune's spaced name
    listed_only: bool
    cursor: int
    limit: int


def _active_listings(
    conn: sqlite3.Connection, column: str, keys: Sequence[str]
) -> dict[str, tuple[str, int, int]]:
    """key (inscription id or runes output) -> (listing id, price, created_ms) if listed."""
    found: dict[str, tuple[str, int, int]] = {}
    for start in range(0, len(keys), _CHUNK):
        chunk = list(keys[start : start + _CHUNK])
        marks = ",".join("?" * len(chunk))
        for key, listing_id, price, created in conn.execute(
            f"SELECT {column}, id, price, created_ms FROM secure_listings "
            f"WHERE status = ? AND {column} IN ({marks}) ORDER BY created_ms",
            [ACTIVE, *chunk],
        ):
            found[key] = (listing_id, price, created)
    return found


def _markets(market: Market, slugs: set[str], now: int) -> dict[str, Json]:
    """slug -> {floor, topBid, listedCount}: floor per item (per whole unit for runes), the
    highest active collection-wide (or rune) bid per item/unit."""
    markets: dict[str, Json] = {}
    with market.store.reading() as conn:
        for slug in slugs:
            floor, listed = conn.execute(
                "SELECT MIN(t.unit_price), COUNT(*) FROM secure_listings s JOIN listing_targets "
                "t ON t.listing_id = s.id WHERE s.status = ? AND t.slug = ?",
                (ACTIVE, slug),
            ).fetchone()
            top = conn.execute(
                "SELECT MAX(CASE WHEN type = ? THEN price * 1.0 / quantity ELSE price END) "
                f"FROM bids WHERE slug = ? AND trait_type IS NULL AND {OPEN_AT_SQL}",
                (BID_TYPE_RUNE, slug, now),
            ).fetchone()[0]
            markets[slug] = {"floor": floor, "topBid": top, "listedCount": listed}
    return markets


def _formatted(amount: int, divisibility: int) -> str:
    if divisibility == 0:
        return str(amount)
    whole, fraction = divmod(amount, 10**divisibility)
    return f"{whole}.{fraction:0{divisibility}d}"


def _ordinal(
    item: HeldInscription,
    name: str | None,
    listing: tuple[str, int, int] | None,
    item_market: Json | None,
) -> Json:
    collection = None if item.collection is None else {"id": item.collection, "name": name}
    return {
        "collection": collection,
        "token": {
            "name": f"{name or 'Inscription'} #{item.number}",
            "inscription_id": item.id,
            "inscription_number": item.number,
            "image_url": None,
            "content_type": item.content_type,
            "output": item.output,
        },
        "listing": None
        if listing is None
        else {
            "price": listing[1],
            "secureListing": True,
            "listingId": listing[0],
            "createdAt": iso_ms(listing[2]),
        },
        "market": item_market,
    }


def _rune(item: HeldRunes, listing: tuple[str, int, int] | None, item_market: Json) -> Json:
    units = item.amount / 10**item.divisibility
    return {
        "collection": {
            "id": item.spaced,
            "name": item.spaced,
            "rune_symbol": item.symbol,
            "rune_divisibility": item.divisibility,
        },
        "token": {
            "name": item.spaced,
            "rune_utxo_id": item.output,
            "inscription_id": item.output,  # where satflow-mm reads the output it lists
            "rune_amount": str(item.amount),
            "rune_symbol": item.symbol,
            "rune_amount_formatted": _formatted(item.amount, item.divisibility),
            "rune_divisibility": item.divisibility,
            "output": item.output,
        },
        "listing": None
        if listing is None
        else {
            "price": listing[1],
            "price_per_rune_sats": listing[1] / units if units else None,
            "secureListing": True,
            "listingId": listing[0],
            "createdAt": iso_ms(listing[2]),
        },
        "market": item_market,
    }


def _pending_orders(market: Market, address: str) -> list[Json]:
    """Sales of this address (as seller or buyer) whose purchase is still in the mempool."""
    with market.store.reading() as conn:
        rows = conn.execute(
            "SELECT id, inscription_id, runes_output, price, purchase_txid, seller_ord_address, "
            "ended_ms FROM secure_listings WHERE status = ? AND purchase_txid IS NOT NULL "
            "AND (seller_ord_address = ? OR buyer_token_address = ?) ORDER BY ended_ms, id",
            (SOLD, address, address),
        ).fetchall()
    pending = []
    for listing_id, inscription_id, runes_output, price, txid, seller, ended in rows:
        status = market.node.tx_status(txid)
        if status is None or status.get("confirmed"):
            continue
        pending.append(
            {
                "orderType": "ask",
                "side": "sell" if seller == address else "buy",
                "listingId": listing_id,
                "inscriptionId": inscription_id,
                "runesOutput": runes_output,
                "price": price,
                "txid": txid,
                "timestamp": iso_ms(ended),
            }
        )
    return pending


def wallet_contents(market: Market, query: ContentsQuery) -> Json:
    listing_targets.sync(market)
    held_inscriptions, held_runes = market.node.read_index(
        lambda conn: held_items(conn, query.address)
    )
    if query.item_type == "rune":
        held_inscriptions = []
    if query.item_type == "inscription":
        held_runes = []
    if query.collection is not None:
        held_inscriptions = [i for i in held_inscriptions if i.collection == query.collection]
        held_runes = [r for r in held_runes if r.spaced == query.collection]
    with market.store.reading() as conn:
        listed = _active_listings(conn, "inscription_id", [i.id for i in held_inscriptions])
        listed_runes = _active_listings(conn, "runes_output", [r.output for r in held_runes])
    if query.listed_only:
        held_inscriptions = [i for i in held_inscriptions if i.id in listed]
        held_runes = [r for r in held_runes if r.output in listed_runes]
    items: list[HeldInscription | HeldRunes] = [*held_inscriptions, *held_runes]
    page = items[query.cursor : query.cursor + query.limit]
    end = query.cursor + len(page)
    slugs = {i.collection for i in page if isinstance(i, HeldInscription) and i.collection}
    slugs |= {r.spaced for r in page if isinstance(r, HeldRunes)}
    markets = _markets(market, slugs, market.now_ms())
    names = {slug: _collection_name(market, slug) for slug in slugs}
    ordinals, runes = [], []
    for item in page:
        if isinstance(item, HeldInscription):
            item_market = None if item.collection is None else markets[item.collection]
            name = None if item.collection is None else names[item.collection]
            ordinals.append(_ordinal(item, name, listed.get(item.id), item_market))
        else:
            runes.append(_rune(item, listed_runes.get(item.output), markets[item.spaced]))
    return {
        "results": {"ordinals": ordinals, "runes": runes},
        "pending_orders": _pending_orders(market, query.address),
        "nextCursor": end if end < len(items) else None,
        "total": len(items),
    }


def _collection_name(market: Market, slug: str) -> str | None:
    found = market.node.collection(slug)
    return None if found is None else str(found["name"])
