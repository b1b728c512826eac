"""Single-inscription bids on the `Market`: installation, listing, cancelling.

`install(market)` (called once by the `/v1` router module) creates the tables, registers
`place_inscription_bid` as the single-inscription form of `POST /bid/place`, adds the open bids
to `GET /address/bids` (type `individual`), lets `POST /cancel` cancel them, and starts the chain
watcher (with a first sweep, so bids whose coins moved while the service was down end now).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.core.errors import ErrorCode
from app.sandbox.market.errors import MarketError
from app.sandbox.market.inscription_bids_intent import create_bid_intent
from app.sandbox.market.inscription_bids_place import place_inscription_bid
from app.sandbox.market.inscription_bids_store import (
    CANCELLED,
    OPEN,
    SCHEMA,
    InscriptionBid,
    bid_by_id,
    bids_of_address,
    end_bid,
)
from app.sandbox.market.inscription_bids_watch import sweep, watch
from app.sandbox.market.service import Json, Market

__all__ = [
    "CancellableInscriptionBids",
    "bid_entry",
    "bids_of",
    "create_bid_intent",
    "get_bid",
    "install",
    "place_inscription_bid",
]

BID_TYPE = "individual"  # the public service's type of a bid on one inscription
_INSTALLED = "_inscription_bids_installed"


def install(market: Market) -> None:
    if getattr(market, _INSTALLED, False):
        return
    setattr(market, _INSTALLED, True)
    market.store.ensure_schema(SCHEMA)

    def placer(body: Mapping[str, Any]) -> Json:
        return place_inscription_bid(market, body)

    def lister(address: str, now_ms: int) -> list[Json]:
        del now_ms  # these bids have no expiry
        return [bid_entry(market, bid) for bid in bids_of(market, address, OPEN, keyed=True)]

    market.inscription_bid_placer = placer
    market.bid_listers.append(lister)
    market.external_bids.append(CancellableInscriptionBids(market))
    watch(market)
    sweep(market)


def bids_of(
    market: Market, address: str, status: str | None = None, *, keyed: bool = False
) -> list[InscriptionBid]:
    """Bids of `address` (ordinals or payment address); with `keyed`, only those keyed by it
    (`Market.keyed_address`), as `GET /address/bids` lists them."""
    with market.store.reading() as conn:
        bids = bids_of_address(conn, address, status)
    if not keyed:
        return bids
    return [b for b in bids if market.keyed_address(b.token_address, b.bidder_address) == address]


def bid_entry(market: Market, bid: InscriptionBid) -> Json:
    """A bid as `GET /address/bids` and `GET /address/inscription-bids` list it."""
    info = market.node.ord_inscription(bid.inscription_id)
    collection = None if info is None else info.get("collection")
    return {
        "bid_id": {"$oid": bid.id},
        "type": BID_TYPE,
        "inscription_id": bid.inscription_id,
        "price": bid.price,
        "quantity": 1,
        "expiration": None,
        "createdAt": bid.created_ms,
        "collectionSlug": collection,
        "metaType": "ordinals",
        "isNonCustodial": True,
        "bidderAddress": bid.bidder_address,
        "bidderTokenReceiveAddress": bid.token_address,
        "inscription_metadata": {"collection": {"id": collection}} if collection else None,
        "status": bid.status,
        "endedAt": bid.ended_ms,
        "endTxid": bid.end_txid,
    }


def get_bid(market: Market, bid_id: str) -> Json:
    with market.store.reading() as conn:
        bid = bid_by_id(conn, bid_id)
    if bid is None:
        raise MarketError(
            ErrorCode.INSCRIPTION_BID_NOT_FOUND,
            f"no single-inscription bid {bid_id}",
            field="bidId",
        )
    return bid_entry(market, bid)


class CancellableInscriptionBids:
    """Single-inscription bids as `POST /cancel` sees them (`service.ExternalBids`); it calls
    both methods under the market lock, after checking the maker's credential and that every
    id is a bid of that maker."""

    def __init__(self, market: Market) -> None:
        self._market = market

    def makers(self, ids: Sequence[str]) -> dict[str, str]:
        with self._market.store.reading() as conn:
            bids = [bid_by_id(conn, i) for i in ids]
        keyed = self._market.keyed_address
        return {b.id: keyed(b.token_address, b.bidder_address) for b in bids if b is not None}

    def cancel(self, ids: Sequence[str], now_ms: int) -> list[str]:
        with self._market.store.transaction() as conn:
            return [i for i in ids if end_bid(conn, i, CANCELLED, now_ms)]
