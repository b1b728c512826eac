"""`POST /v1/intent/withdraw` and `POST /v1/withdraw`: take funds out of the bidding wallet."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body

from app.sandbox.http.errors import error_responses
from app.sandbox.http.market_deps import MarketDep
from app.sandbox.market.withdraw import create_intent, submit_withdrawal

router = APIRouter(tags=["marketplace"], responses=error_responses(400, 401, 500))


@router.post("/intent/withdraw", summary="an unsigned PSBT paying the payment address")
def post_intent_withdraw(market: MarketDep, body: Annotated[Any, Body()]) -> Any:
    return {"success": True, "data": create_intent(market, body)}


@router.post("/withdraw", summary="broadcast a withdrawal PSBT signed by the payment key")
def post_withdraw(market: MarketDep, body: Annotated[Any, Body()]) -> Any:
    return {"success": True, "data": submit_withdrawal(market, body)}
