"""`POST /sandbox/bids/fill`: the scenario API's seller accepting a collection or trait bid."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from app.sandbox.http.errors import error_responses
from app.sandbox.http.market_deps import MarketDep
from app.sandbox.http.params import MAX_ADDRESS_CHARS
from app.sandbox.market.fills import fill_bid

router = APIRouter(prefix="/sandbox", tags=["sandbox"], responses=error_responses(400, 500))


class FillRequest(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore")

    bidId: Annotated[str, Field(min_length=1, max_length=64)]
    sellerAddress: Annotated[str, Field(min_length=1, max_length=MAX_ADDRESS_CHARS)] | None = None


@router.post(
    "/bids/fill",
    responses=error_responses(404, 409),
    summary="a sandbox collector sells a matching inscription to a collection or trait bid",
)
def post_fill(body: FillRequest, market: MarketDep) -> Any:
    return fill_bid(market, body.bidId, body.sellerAddress)
