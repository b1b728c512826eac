"""`GET /v1/collection-stats` (one collection: floor, listed count, volumes, metadata) and
`GET /v1/collection-stats/floors` (several collections or runes at once), in the public
service's shapes (app/sandbox/market/collection_stats.py, docs/market-data.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query

from app.sandbox.http.errors import NOT_FOUND, ApiError, error_responses
from app.sandbox.http.market_deps import MarketDep
from app.sandbox.market import listing_targets, listings
from app.sandbox.market.activity_views import resolve_slug
from app.sandbox.market.collection_stats import collection_stats, floors
from app.sandbox.market.service import Market

router = APIRouter(tags=["market data"], responses=error_responses(400, 401, 404, 500))

MAX_FLOOR_SLUGS = 100
CollectionId = Annotated[
    str, Query(min_length=1, max_length=128, description="the collection's slug")
]
Slugs = Annotated[
    str,
    Query(
        min_length=1,
        max_length=MAX_FLOOR_SLUGS * 129,
        description=f"comma-separated slugs (runes: names), at most {MAX_FLOOR_SLUGS}",
    ),
]


def install(market: Market) -> None:
    listings.install(market)
    market.store.ensure_schema(listing_targets.SCHEMA)


@router.get("/collection-stats", summary="a collection's floor, listed count, volumes, metadata")
def get_collection_stats(market: MarketDep, collectionId: CollectionId) -> Any:
    collection = market.node.collection(collectionId)
    if collection is None:
        raise ApiError(404, NOT_FOUND, f"collection {collectionId!r} not found")
    return {"success": True, "data": collection_stats(market, collection)}


@router.get("/collection-stats/floors", summary="floors, listed counts and owners of several")
def get_collection_floors(
    market: MarketDep, type: Literal["ordinals", "runes"], slugs: Slugs
) -> Any:
    asked = [s.strip() for s in slugs.split(",")]
    if any(not s for s in asked) or len(asked) > MAX_FLOOR_SLUGS:
        raise ApiError(
            400,
            "BAD_REQUEST",
            f"slugs must be 1 to {MAX_FLOOR_SLUGS} comma-separated names, none empty",
        )
    known = [_known(market, slug, type == "runes") for slug in asked]
    found = list(dict.fromkeys(k for k in known if k is not None))
    if not found:
        raise ApiError(404, NOT_FOUND, f"none of the {type} {', '.join(asked)} is known")
    return {"success": True, "data": floors(market, found, type == "runes")}


def _known(market: Market, slug: str, rune: bool) -> str | None:
    """The collection slug, or the rune's spaced name, that `slug` names; None if unknown."""
    if not rune:
        return slug if market.node.collection(slug) is not None else None
    resolved = resolve_slug(market, slug)
    return resolved if resolved is not None and market.node.collection(slug) is None else None
