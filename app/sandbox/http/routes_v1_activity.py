"""`GET /v1/activity/listings`, `/activity/bids`, `/activity/sales`: the market's orders and
sales in the public service's shapes (app/sandbox/market/activity_views.py,
docs/market-data.md). Bad query values are 400s naming the parameter; a `collectionSlug` that
is neither a collection, a range slug nor an etched rune is a 404."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query
from fastapi.responses import JSONResponse

from app.sandbox.http.errors import NOT_FOUND, ApiError, error_responses
from app.sandbox.http.market_deps import MarketDep
from app.sandbox.market import listing_targets, listings
from app.sandbox.market.activity_views import (
    BID_READ_INDEXES,
    MAX_PAGE_SIZE,
    ActivityQuery,
    bids_page,
    listings_page,
    resolve_slug,
    sales_page,
)
from app.sandbox.market.service import Json, Market

router = APIRouter(tags=["market data"], responses=error_responses(400, 401, 404, 500))

CollectionSlug = Annotated[
    str | None,
    Query(
        min_length=1,
        max_length=128,
        description="a collection's slug, a range slug (sub1k, sub10k, sub100k) or a rune's name",
    ),
]
Active = Annotated[bool, Query(description="only open orders (true, the default) or all")]
Page = Annotated[int, Query(ge=1, le=1_000_000, description="1-based page number")]
PageSize = Annotated[int, Query(ge=1, le=MAX_PAGE_SIZE, description="rows per page")]
SortBy = Annotated[Literal["price", "unitPrice", "createdAt"], Query()]
SaleSortBy = Annotated[Literal["price", "unitPrice", "createdAt", "fillCompletedAt"], Query()]
Direction = Annotated[Literal["asc", "desc"], Query()]
TimeRange = Annotated[
    Literal["24h", "7d", "30d"] | None, Query(description="only what was created (sold) since")
]


def install(market: Market) -> None:
    listings.install(market)  # the secure listing tables this module reads
    market.store.ensure_schema(listing_targets.SCHEMA)
    market.store.ensure_schema(BID_READ_INDEXES)


def _query(
    market: Market,
    slug: str | None,
    active: bool,
    page: int,
    page_size: int,
    sort_by: str,
    direction: str,
    time_range: str | None,
) -> ActivityQuery:
    resolved = None
    if slug is not None:
        resolved = resolve_slug(market, slug)
        if resolved is None:
            raise ApiError(
                404,
                NOT_FOUND,
                f"collectionSlug {slug!r} is neither a collection, a range slug nor an etched "
                "rune of this sandbox (GET /v1/collection?collection_id= looks one up)",
            )
    return ActivityQuery(
        resolved, active, page, page_size, sort_by, direction == "desc", time_range
    )


@dataclass(frozen=True)
class _Common:
    """The query parameters the three reads share (each names its own sort keys)."""

    slug: str | None
    active: bool
    page: int
    page_size: int
    direction: str
    time_range: str | None


def _common(
    collectionSlug: CollectionSlug = None,
    active: Active = True,
    page: Page = 1,
    pageSize: PageSize = 100,
    sortDirection: Direction = "desc",
    timeRange: TimeRange = None,
) -> _Common:
    return _Common(collectionSlug, active, page, pageSize, sortDirection, timeRange)


Common = Annotated[_Common, Depends(_common)]


def _serve(
    read: Callable[[Market, ActivityQuery], Json], market: Market, common: _Common, sort_by: str
) -> JSONResponse:
    # Plain JSON rows: returned as they are, not walked again by FastAPI's encoder (a 500-row
    # page costs about half as much).
    c = common
    query = _query(
        market, c.slug, c.active, c.page, c.page_size, sort_by, c.direction, c.time_range
    )
    return JSONResponse({"success": True, "data": read(market, query)})


@router.get("/activity/listings", summary="listings (asks), sorted and paged")
def get_activity_listings(market: MarketDep, common: Common, sortBy: SortBy = "createdAt") -> Any:
    return _serve(listings_page, market, common, sortBy)


@router.get("/activity/bids", summary="collection, trait and rune bids, sorted and paged")
def get_activity_bids(market: MarketDep, common: Common, sortBy: SortBy = "createdAt") -> Any:
    return _serve(bids_page, market, common, sortBy)


@router.get("/activity/sales", summary="sales (filled bids, bought listings), sorted and paged")
def get_activity_sales(
    market: MarketDep, common: Common, sortBy: SaleSortBy = "fillCompletedAt"
) -> Any:
    # `active` is accepted as on the other two (a sale is complete either way).
    return _serve(sales_page, market, common, sortBy)
