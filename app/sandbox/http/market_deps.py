"""FastAPI dependency for the marketplace routers: the app's `Market`."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.sandbox.market.service import Market


def get_market(request: Request) -> Market:
    market: Market = request.app.state.market
    return market


MarketDep = Annotated[Market, Depends(get_market)]
