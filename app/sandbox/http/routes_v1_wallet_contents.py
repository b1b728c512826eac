"""`GET /v1/address/wallet-contents`: an address's inscriptions and rune balances with their
listings and market, and its pending orders (app/sandbox/market/wallet_contents.py,
docs/market-data.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query

from app.sandbox.http.errors import error_responses
from app.sandbox.http.market_deps import MarketDep
from app.sandbox.http.params import MAX_ADDRESS_CHARS
from app.sandbox.market import listing_targets, listings
from app.sandbox.market.activity_views import resolve_slug
from app.sandbox.market.service import Market
from app.sandbox.market.wallet_contents import MAX_LIMIT, ContentsQuery, wallet_contents

router = APIRouter(tags=["market data"], responses=error_responses(400, 401, 500))


def install(market: Market) -> None:
    listings.install(market)
    market.store.ensure_schema(listing_targets.SCHEMA)


@router.get("/address/wallet-contents", summary="an address's items, listings and market")
def get_wallet_contents(
    market: MarketDep,
    address: Annotated[str, Query(min_length=1, max_length=MAX_ADDRESS_CHARS)],
    itemType: Literal["inscription", "rune", "all"] = "all",
    collection: Annotated[str | None, Query(min_length=1, max_length=128)] = None,
    listedOnly: bool = False,
    cursor: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = 100,
) -> Any:
    # An unknown collection holds nothing here: an empty page, as for any filter.
    wanted = None if collection is None else (resolve_slug(market, collection) or collection)
    query = ContentsQuery(address, itemType, wanted, listedOnly, cursor, limit)
    return {"success": True, "data": wallet_contents(market, query)}
