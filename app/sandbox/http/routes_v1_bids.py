"""`POST /v1/bid/place` (collection, trait and rune bids; the single-inscription form goes to
the module that registered `Market.inscription_bid_placer`) and `GET /v1/address/bids`."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Query
from fastapi.responses import Response

from app.core.errors import ErrorCode
from app.sandbox.http.errors import error_responses
from app.sandbox.http.market_deps import MarketDep
from app.sandbox.http.params import MAX_ADDRESS_CHARS
from app.sandbox.market.bids import is_inscription_bid_body, open_bids_json, place_collection_bid
from app.sandbox.market.errors import MarketError

router = APIRouter(tags=["marketplace"], responses=error_responses(400, 401, 429, 500))


@router.post(
    "/bid/place", summary="place collection, trait or rune bids (or a single-inscription bid)"
)
def post_bid_place(market: MarketDep, body: Annotated[Any, Body()]) -> Any:
    if is_inscription_bid_body(body):
        placer = market.inscription_bid_placer
        if placer is None:
            raise MarketError(
                ErrorCode.INVALID_FIELD,
                "single-inscription bids are not available on this sandbox",
                field="signedBiddingPSBT",
            )
        return {"success": True, "data": placer(body)}
    return {"success": True, "data": place_collection_bid(market, body)}


@router.get("/address/bids", summary="open bids keyed by an address (ordinals by default)")
def get_address_bids(
    market: MarketDep,
    address: Annotated[str, Query(min_length=1, max_length=MAX_ADDRESS_CHARS)],
) -> Any:
    # JSON text written by the store: 10,000 entries through a response model cost ~10x more.
    return Response(open_bids_json(market, address), media_type="application/json")
