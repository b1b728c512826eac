"""`/v1` routes of single-inscription bids: `POST /intent/bid` builds the PSBT (spec 4.4);
`POST /bid/place` (routes_v1_bids) hands the single-inscription form to
`inscription_bids.place_inscription_bid`; the bids of an address, with their state, are at
`GET /address/inscription-bids` and one bid at `GET /inscription-bids/{bidId}`."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Path, Query

from app.sandbox.http.errors import error_responses
from app.sandbox.http.market_deps import MarketDep
from app.sandbox.http.params import MAX_ADDRESS_CHARS
from app.sandbox.market import inscription_bids
from app.sandbox.market.service import Market

router = APIRouter(tags=["single-inscription bids"], responses=error_responses(400, 401, 500))

BidId = Annotated[str, Path(pattern=r"^[0-9a-f]{24}$", description="24 hex digits")]
BidStatus = Literal["open", "cancelled", "accepted", "inscription_moved", "funding_spent"]


def install(market: Market) -> None:
    inscription_bids.install(market)


@router.post(
    "/intent/bid",
    responses=error_responses(404, 409),
    summary="build the unsigned PSBT of a bid on one inscription",
)
def post_intent_bid(market: MarketDep, body: Annotated[Any, Body()]) -> Any:
    return {"success": True, "data": inscription_bids.create_bid_intent(market, body)}


@router.get(
    "/address/inscription-bids",
    summary="single-inscription bids of an ordinals or payment address, with their state",
)
def get_address_inscription_bids(
    market: MarketDep,
    address: Annotated[str, Query(min_length=1, max_length=MAX_ADDRESS_CHARS)],
    status: BidStatus | None = None,
) -> Any:
    bids = inscription_bids.bids_of(market, address, status)
    results = [inscription_bids.bid_entry(market, bid) for bid in bids]
    return {"success": True, "data": {"results": results}}


@router.get(
    "/inscription-bids/{bidId}",
    responses=error_responses(404),
    summary="one single-inscription bid and its state",
)
def get_inscription_bid(market: MarketDep, bidId: BidId) -> Any:
    return {"success": True, "data": inscription_bids.get_bid(market, bidId)}
