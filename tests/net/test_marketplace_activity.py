"""`/activity/listings`, `/activity/bids`, `/activity/sales`: every variant the notes list
(../shared/notes/satflow-market-data.md, section 2), each test naming where its shape comes
from: [sandbox] the wire format the sandbox serves (issue 16's contract), [DOC] Satflow's docs,
[MM] satflow-mm, [3P] the other client. A row that cannot be read is skipped and counted; a
body of the wrong shape is a BadResponse."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from net_router import Router

from app.core.bid_request import Trait
from app.core.market_snapshot import MarketBid, MarketListing
from app.core.rate_limit import RateLimit
from app.net.errors import BadResponse, MarketplaceError, ServerError
from app.net.marketplace import MarketplaceClient
from app.net.marketplace_activity import ActivityPage, Sale
from app.net.marketplace_requests import InvalidRequest
from app.net.rate_limit import RateLimits

BASE = "http://market.test/v1"
EXPIRY_ISO = "2026-11-26T00:15:00.000Z"
EXPIRY_MS = 1_795_652_100_000  # the same moment


def ok(data: Any) -> dict[str, Any]:
    return {"success": True, "data": data}


def paged(items: list[Any], total: int | None = None) -> dict[str, Any]:
    count = len(items) if total is None else total
    return ok(
        {
            "items": items,
            "pagination": {"page": 1, "pageSize": 100, "total": count, "totalPages": 1},
        }
    )


SANDBOX_LISTING = {
    "_id": "a1",
    "id": "a1",
    "type": "listing",
    "orderType": "ask",
    "collectionSlug": "puppets",
    "inscriptionId": "abc" * 21 + "di0",
    "price": 25_000,
    "unitPrice": 25_000,
    "timestamp": "2026-11-25T22:00:00.000Z",
    "ask": {
        "inscriptionId": "abc" * 21 + "di0",
        "price": 25_000,
        "sellerOrdAddress": "bc1pseller",
        "sellerReceiveAddress": "bc1qseller",
        "collectionSlug": "puppets",
        "unconfirmed": False,
    },
}

SANDBOX_BID = {
    "_id": "b1",
    "id": "b1",
    "type": "bid",
    "orderType": "bid",
    "collectionSlug": "puppets",
    "inscriptionId": None,
    "price": 9_000,
    "unitPrice": 9_000,
    "quantity": 3,
    "timestamp": "2026-11-25T22:00:00.000Z",
    "expiry": EXPIRY_ISO,
    "bid": {
        "bidderAddress": "bc1prival",
        "price": 9_000,
        "quantity": 3,
        "expiry": EXPIRY_ISO,
        "kind": "collection",
        "attribute": None,
        "inscriptionId": None,
    },
    "runes": None,
}

SANDBOX_TRAIT_BID = {
    **SANDBOX_BID,
    "id": "b2",
    "_id": "b2",
    "quantity": 1,
    "bid": {
        **SANDBOX_BID["bid"],  # type: ignore[dict-item]
        "kind": "trait",
        "attribute": {"trait_type": "Background", "value": "Blue"},
    },
}

SANDBOX_RUNE_BID = {
    **SANDBOX_BID,
    "id": "b3",
    "_id": "b3",
    "collectionSlug": "DOG•GO•TO•THE•MOON",
    "price": 50_000,  # the total
    "unitPrice": 0.5,
    "quantity": 100_000,
    "bid": {**SANDBOX_BID["bid"], "kind": "rune", "price": 50_000, "quantity": 100_000},  # type: ignore[dict-item]
    "runes": {"name": "DOG•GO•TO•THE•MOON", "amount": "100000"},
}


async def call(router: Router, method: str, *args: Any, **kwargs: Any) -> Any:
    async with MarketplaceClient(BASE, api_key="k", transport=router.transport) as client:
        return await getattr(client, method)(*args, **kwargs)


async def listings(router: Router, slug: str = "puppets") -> ActivityPage[MarketListing]:
    page: ActivityPage[MarketListing] = await call(router, "get_activity_listings", slug)
    return page


async def bids(router: Router, slug: str = "puppets") -> ActivityPage[MarketBid]:
    page: ActivityPage[MarketBid] = await call(router, "get_activity_bids", slug)
    return page


# --- listings -----------------------------------------------------------------------------


async def test_sandbox_listing_page_and_the_query_sent(router: Router) -> None:
    router.json("GET", "/v1/activity/listings", paged([SANDBOX_LISTING], total=41))
    page = await listings(router)
    assert page == ActivityPage(
        rows=(MarketListing("a1", "abc" * 21 + "di0", 25_000, "bc1pseller", 1, "puppets"),),
        page=1,
        total=41,
        total_pages=1,
        skipped=0,
    )
    sent = router.last
    assert dict(sent.url.params) == {
        "collectionSlug": "puppets",
        "page": "1",
        "pageSize": "100",
        "sortBy": "unitPrice",
        "sortDirection": "asc",
        "active": "true",
    }
    assert sent.headers["x-api-key"] == "k"


async def test_mm_listings_array_with_ask_fields_only(router: Router) -> None:
    """[MM] reads data.listings and ask.{inscriptionId, price, sellerOrdAddress}."""
    row = {"ask": {"inscriptionId": "i1", "price": 30_000, "sellerOrdAddress": "bc1pmm"}}
    router.json("GET", "/v1/activity/listings", ok({"listings": [row]}))
    page = await listings(router)
    assert page.rows == (MarketListing("i1", "i1", 30_000, "bc1pmm"),)
    assert (page.total, page.page, page.skipped) == (None, None, 0)


async def test_mm_legacy_top_level_listings_without_envelope(router: Router) -> None:
    """[MM history] native.satflow.com/listings: a top-level listings[] of {inscriptionId,
    price, seller}, no envelope."""
    rows = [{"inscriptionId": "i9", "price": "12000", "seller": "bc1plegacy"}]
    router.json("GET", "/v1/activity/listings", {"listings": rows})
    assert (await listings(router)).rows == (MarketListing("i9", "i9", 12_000, "bc1plegacy"),)


async def test_3p_listings_total_unit_price_and_rows_not_live(router: Router) -> None:
    """[3P] data.listings + data.total; unitPrice over price; orderType ask only; a row with
    cancelledAt, invalidAt or fillPendingAt set is not live; ask.sellerReceiveAddress."""
    live = {
        "id": "x1",
        "unitPrice": 20_000,
        "price": 99,
        "orderType": "ask",
        "ask": {"inscriptionId": "i1", "sellerReceiveAddress": "bc1qrecv"},
    }
    rows = [
        live,
        {**live, "id": "x2", "cancelledAt": "2026-11-25T00:00:00Z"},
        {**live, "id": "x3", "invalidAt": 1},
        {**live, "id": "x4", "fillPendingAt": "2026-11-25T00:00:00Z"},
        {**live, "id": "x5", "orderType": "bid"},
        {**live, "id": "x6", "cancelledAt": None},
    ]
    router.json("GET", "/v1/activity/listings", ok({"listings": rows, "total": 6}))
    page = await listings(router)
    assert [r.listing_id for r in page.rows] == ["x1", "x6"]
    assert page.rows[0] == MarketListing("x1", "i1", 20_000, "bc1qrecv")
    assert (page.total, page.skipped) == (6, 0)


async def test_unreadable_listing_rows_are_skipped_and_counted(router: Router) -> None:
    rows = [
        SANDBOX_LISTING,
        "not an object",
        {"price": 5_000},  # no id of any kind
        {**SANDBOX_LISTING, "id": "n1", "_id": None, "unitPrice": None, "price": None, "ask": {}},
        {**SANDBOX_LISTING, "id": "n2", "unitPrice": -5},
        {**SANDBOX_LISTING, "id": "n3", "unitPrice": True, "price": None, "ask": {}},
        {**SANDBOX_LISTING, "id": "n4", "unitPrice": "NaN"},
    ]
    router.json("GET", "/v1/activity/listings", paged(rows))
    page = await listings(router)
    assert [r.listing_id for r in page.rows] == ["a1"]
    assert page.skipped == 6


# --- bids ---------------------------------------------------------------------------------


async def test_sandbox_bid_rows_of_every_kind(router: Router) -> None:
    router.json(
        "GET", "/v1/activity/bids", paged([SANDBOX_BID, SANDBOX_TRAIT_BID, SANDBOX_RUNE_BID])
    )
    page = await bids(router)
    assert page.rows == (
        MarketBid("b1", 9_000, 3, "bc1prival", "collection", None, EXPIRY_MS, "puppets"),
        MarketBid(
            "b2", 9_000, 1, "bc1prival", "trait", Trait("Background", "Blue"), EXPIRY_MS, "puppets"
        ),
        MarketBid("b3", 0.5, 100_000, "bc1prival", "rune", None, EXPIRY_MS, "DOG•GO•TO•THE•MOON"),
    )
    assert dict(router.last.url.params)["sortDirection"] == "desc"


async def test_3p_bids_array_total_and_the_price_fallbacks(router: Router) -> None:
    """[3P] data.bids + data.total; price from unitPrice, then price, then bid.price; expiry
    as a date or bid.expiry; bid.bidderAddress; no quantity (one row per unit)."""
    rows = [
        {"id": "p1", "unitPrice": 7_000, "price": 1, "bid": {"price": 2, "bidderAddress": "bc1qa"}},
        {
            "id": "p2",
            "price": 6_000,
            "bid": {"price": 2, "bidderAddress": "bc1qb"},
            "expiry": EXPIRY_MS,
        },
        {"id": "p3", "bid": {"price": 5_000, "bidderAddress": "bc1qc", "expiry": EXPIRY_ISO}},
        {
            "id": "p4",
            "bid": {
                "bidderAddress": "bc1qd",
                "attribute": {"trait_type": "Eyes", "value": "Laser"},
            },
            "unitPrice": "4000",
        },
    ]
    router.json("GET", "/v1/activity/bids", ok({"bids": rows, "total": 4}))
    page = await bids(router)
    assert page.rows == (
        MarketBid("p1", 7_000, 1, "bc1qa", "collection", None, None, None),
        MarketBid("p2", 6_000, 1, "bc1qb", "collection", None, EXPIRY_MS, None),
        MarketBid("p3", 5_000, 1, "bc1qc", "collection", None, EXPIRY_MS, None),
        MarketBid("p4", 4_000.0, 1, "bc1qd", "trait", Trait("Eyes", "Laser"), None, None),
    )
    assert (page.total, page.skipped) == (4, 0)


async def test_3p_item_bids_join_no_pool_and_rune_rows_without_unit_price(router: Router) -> None:
    """[3P] bid.inscriptionId marks a bid on one item; `runes` a rune bid, whose price is the
    total (divided by its units when no unitPrice is given)."""
    rows = [
        {"id": "item", "price": 50_000, "bid": {"inscriptionId": "i1", "bidderAddress": "x"}},
        {"id": "r1", "price": 30_000, "runes": {"name": "UNCOMMON•GOODS", "amount": "60000"}},
        {
            "id": "r2",
            "price": 30_000,
            "quantity": 10_000,
            "type": "rune",
            "collectionSlug": "UNCOMMONGOODS",
        },
    ]
    router.json("GET", "/v1/activity/bids", ok({"bids": rows}))
    page = await bids(router, "UNCOMMON•GOODS")
    assert [(b.bid_id, b.kind, b.unit_price, b.units, b.collection_slug) for b in page.rows] == [
        ("r1", "rune", 0.5, 60_000, "UNCOMMON•GOODS"),
        ("r2", "rune", 3.0, 10_000, "UNCOMMONGOODS"),
    ]
    assert page.skipped == 0


async def test_unreadable_bid_rows_are_skipped_and_counted(router: Router) -> None:
    rows = [
        SANDBOX_BID,
        None,
        {"unitPrice": 5_000},  # no id
        {"id": "z1"},  # no price anywhere
        {"id": "z2", "unitPrice": 0},
        {"id": "z3", "unitPrice": 5_000, "quantity": 0},
        {"id": "z4", "unitPrice": 5_000, "bid": {"kind": "trait", "attribute": {"value": "x"}}},
        {"_id": {"$oid": "65f0c0ffee"}, "unitPrice": 3_000, "expiry": "not a date"},
    ]
    router.json("GET", "/v1/activity/bids", paged(rows))
    page = await bids(router)
    assert [(b.bid_id, b.expires_at_ms) for b in page.rows] == [
        ("b1", EXPIRY_MS),
        ("65f0c0ffee", None),
    ]
    assert page.skipped == 6


# --- sales --------------------------------------------------------------------------------


async def test_sandbox_sales_page(router: Router) -> None:
    row = {
        "_id": "s1",
        "id": "s1",
        "type": "sale",
        "collectionSlug": "puppets",
        "inscriptionId": "i1",
        "price": 40_000,
        "unitPrice": 40_000,
        "timestamp": "2026-11-25T21:00:00Z",
        "fillCompletedAt": EXPIRY_ISO,
        "txid": "ab" * 32,
        "sellerAddress": "bc1ps",
        "buyerAddress": "bc1pb",
    }
    router.json("GET", "/v1/activity/sales", paged([row, {"id": "s2"}]))
    page: ActivityPage[Sale] = await call(router, "get_activity_sales", "puppets")
    assert page.rows == (
        Sale("s1", "puppets", "i1", 40_000, 40_000, EXPIRY_MS, "ab" * 32, "bc1ps", "bc1pb"),
    )
    assert page.skipped == 1
    params = dict(router.last.url.params)
    assert "active" not in params and params["sortBy"] == "createdAt"


# --- shapes, arguments, errors ---------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        ok({"pagination": {"total": 0}}),
        ok({"items": "none"}),
        ok(None),
        [],
        "text",
    ],
)
async def test_a_body_of_the_wrong_shape_is_a_bad_response(router: Router, body: Any) -> None:
    router.json("GET", "/v1/activity/bids", body)
    with pytest.raises(BadResponse) as caught:
        await bids(router)
    assert caught.value.path == "/activity/bids"


async def test_an_empty_page(router: Router) -> None:
    router.json("GET", "/v1/activity/bids", paged([]))
    assert await bids(router) == ActivityPage((), 1, 0, 1, 0)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"page": 0},
        {"page_size": 0},
        {"page_size": 501},
        {"sort_by": "rarity"},
        {"sort_direction": "up"},
    ],
)
async def test_bad_arguments_are_refused_before_sending(
    router: Router, kwargs: dict[str, Any]
) -> None:
    with pytest.raises(InvalidRequest):
        await call(router, "get_activity_bids", "puppets", **kwargs)
    with pytest.raises(InvalidRequest):
        await call(router, "get_activity_listings", "", page=1)
    assert router.requests == []


async def test_the_whole_markets_page_names_no_collection(router: Router) -> None:
    router.json("GET", "/v1/activity/listings", paged([SANDBOX_LISTING]))
    await call(router, "get_activity_listings", None, sort_by="createdAt", sort_direction="desc")
    assert "collectionSlug" not in dict(router.last.url.params)


async def test_errors_are_the_marketplace_errors(router: Router) -> None:
    router.json(
        "GET", "/v1/activity/bids", {"errorCode": "BAD_REQUEST", "message": "bad slug"}, 400
    )
    router.json("GET", "/v1/activity/listings", {"error": "boom"}, 503)
    with pytest.raises(MarketplaceError, match="bad slug"):
        await bids(router)
    with pytest.raises(ServerError):
        await listings(router)


async def test_a_429_is_waited_out_by_the_http_layer(router: Router) -> None:
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)  # the fake clock moves by what was slept

    answers = iter(
        [
            httpx.Response(429, json={"retryAfterMs": 1500}),
            httpx.Response(200, json=paged([SANDBOX_BID])),
        ]
    )
    router.add("GET", "/v1/activity/bids", lambda _request: next(answers))
    paced = RateLimits(RateLimit(5, 10), clock=lambda: sum(slept), sleep=sleep, jitter=lambda: 0.0)
    async with MarketplaceClient(
        BASE, transport=router.transport, pacer=paced.pacer(BASE)
    ) as client:
        page = await client.get_activity_bids("puppets")
    assert [b.bid_id for b in page.rows] == ["b1"]
    assert slept == [1.5]
