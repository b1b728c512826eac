"""`GET /v1/collection`: one collection's catalog entry with its traits and their counts, in
the public service's documented shape (`data.collection` is an array; `category_attributes`
with `categoryAttributes=true`). The sandbox's collections come from `POST /sandbox/collections`;
like the public service it offers no search: a client looks a collection up by its slug."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from app.sandbox.http.errors import NOT_FOUND, ApiError, error_responses
from app.sandbox.http.market_deps import MarketDep
from app.sandbox.market.collection_stats import category_attributes

router = APIRouter(tags=["marketplace"], responses=error_responses(400, 401, 404, 500))

Slug = Annotated[str, Query(min_length=1, max_length=128, description="the collection's slug")]


@router.get("/collection", summary="a collection's catalog entry and its traits, by slug")
def get_collection(market: MarketDep, collection_id: Slug, categoryAttributes: bool = False) -> Any:
    node = market.node
    found = node.collection(collection_id)
    if found is None:
        raise ApiError(404, NOT_FOUND, f"collection {collection_id} not found")
    entry: dict[str, Any] = {
        "id": found["slug"],
        "name": found["name"],
        "description": None,
        "total_items": found["inscriptionCount"],
        "image_url": None,
    }
    if categoryAttributes:
        entry["category_attributes"] = category_attributes(market, found)
    return {"success": True, "data": {"collection": [entry]}}
