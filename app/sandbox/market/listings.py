"""Secure listings on the `Market`: installation and the seller's view of their listings.

`install(market)` (called once by the `/v1` listing router) creates the tables and starts the
chain watcher, with a first sweep so listings whose item moved while the service was down end.
The flows themselves: `listings_intent` (PSBTs), `listings_submit` (`POST /list/secure`),
`purchase` (`POST /intent/secure-purchase`, `POST /sandbox/listings/purchase`).
"""

from __future__ import annotations

from app.core.errors import ErrorCode
from app.sandbox.market.errors import MarketError
from app.sandbox.market.listings_store import SCHEMA, listing_by_id, listings_of_seller
from app.sandbox.market.listings_view import listing_entry
from app.sandbox.market.listings_watch import sweep, watch
from app.sandbox.market.service import Json, Market

_INSTALLED = "_secure_listings_installed"


def install(market: Market) -> None:
    if getattr(market, _INSTALLED, False):
        return
    setattr(market, _INSTALLED, True)
    market.store.ensure_schema(SCHEMA)
    watch(market)
    sweep(market)


def listings_of(market: Market, seller_ord_address: str, status: str | None = None) -> list[Json]:
    with market.store.reading() as conn:
        listings = listings_of_seller(conn, seller_ord_address, status)
    return [listing_entry(listing) for listing in listings]


def get_listing(market: Market, listing_id: str) -> Json:
    with market.store.reading() as conn:
        listing = listing_by_id(conn, listing_id)
    if listing is None:
        raise MarketError(
            ErrorCode.LISTING_NOT_FOUND, f"no secure listing {listing_id}", field="listingId"
        )
    return listing_entry(listing)
