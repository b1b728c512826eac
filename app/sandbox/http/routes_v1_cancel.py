"""`GET /v1/challenge`, `GET /v1/challenge/verify` and `POST /v1/cancel`."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Query

from app.sandbox.http.errors import error_responses
from app.sandbox.http.market_deps import MarketDep
from app.sandbox.http.params import MAX_ADDRESS_CHARS
from app.sandbox.market.cancel import cancel_bids
from app.sandbox.market.challenge import issue_challenge, verify_challenge

router = APIRouter(tags=["marketplace"], responses=error_responses(400, 401, 500))

Address = Annotated[str, Query(min_length=1, max_length=MAX_ADDRESS_CHARS)]


@router.get("/challenge", summary="a challenge for the address's key to sign (BIP-322)")
def get_challenge(market: MarketDep, address: Address) -> Any:
    return {"success": True, "data": issue_challenge(market, address)}


@router.get("/challenge/verify", summary="whether a signature signs a live challenge")
def get_challenge_verify(
    market: MarketDep,
    address: Address,
    signature: Annotated[str, Query(min_length=1, max_length=4096)],
) -> Any:
    return {"success": True, "data": verify_challenge(market, address, signature)}


@router.post("/cancel", summary="cancel open bids of the maker", responses=error_responses(403))
def post_cancel(market: MarketDep, body: Annotated[Any, Body()]) -> Any:
    return {"success": True, "data": cancel_bids(market, body)}
