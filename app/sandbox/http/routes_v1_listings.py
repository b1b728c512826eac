"""`/v1` routes of secure listings: the intents (spec 4.9, 4.10), `POST /list/secure` (4.11),
`POST /intent/secure-purchase` (4.12), and a seller's listings with their state at
`GET /listings?sellerOrdAddress=` and `GET /listings/{listingId}`."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Path, Query

from app.sandbox.http.errors import error_responses
from app.sandbox.http.market_deps import MarketDep
from app.sandbox.http.params import MAX_ADDRESS_CHARS
from app.sandbox.market import listings
from app.sandbox.market.listings_intent import (
    create_secure_bulk_sell_intent,
    create_secure_sell_intent,
)
from app.sandbox.market.listings_submit import list_secure
from app.sandbox.market.purchase_requests import secure_purchase
from app.sandbox.market.service import Market

router = APIRouter(tags=["secure listings"], responses=error_responses(400, 401, 500))

ListingId = Annotated[str, Path(pattern=r"^[0-9a-f]{24}$", description="24 hex digits")]
ListingStatus = Literal["active", "sold", "replaced", "item_moved"]
Body_ = Annotated[Any, Body()]


def install(market: Market) -> None:
    listings.install(market)


@router.post(
    "/intent/secure-sell",
    responses=error_responses(404),
    summary="build the secure listing PSBT of one listing (sign input 0 with ALL|ANYONECANPAY)",
)
def post_intent_secure_sell(market: MarketDep, body: Body_) -> Any:
    return {"success": True, "data": create_secure_sell_intent(market, body)}


@router.post(
    "/intent/secure-bulk-sell",
    responses=error_responses(404),
    summary="build one secure listing PSBT per listing (at most 100), in order",
)
def post_intent_secure_bulk_sell(market: MarketDep, body: Body_) -> Any:
    return {"success": True, "data": create_secure_bulk_sell_intent(market, body)}


@router.post(
    "/list/secure",
    responses=error_responses(404),
    summary="activate secure listings from their signed secure listing PSBTs",
)
def post_list_secure(market: MarketDep, body: Body_) -> Any:
    return {"success": True, "data": list_secure(market, body)}


@router.post(
    "/intent/secure-purchase",
    responses=error_responses(404, 409),
    summary="buy active secure listings (completed at once for a sandbox-held buyer)",
)
def post_intent_secure_purchase(market: MarketDep, body: Body_) -> Any:
    return {"success": True, "data": secure_purchase(market, body)}


@router.get("/listings", summary="the secure listings of a seller, with their state")
def get_listings(
    market: MarketDep,
    sellerOrdAddress: Annotated[str, Query(min_length=1, max_length=MAX_ADDRESS_CHARS)],
    status: ListingStatus | None = None,
) -> Any:
    return {
        "success": True,
        "data": {"listings": listings.listings_of(market, sellerOrdAddress, status)},
    }


@router.get("/listings/{listingId}", responses=error_responses(404), summary="one secure listing")
def get_listing(market: MarketDep, listingId: ListingId) -> Any:
    return {"success": True, "data": listings.get_listing(market, listingId)}
