"""`GET /v1/activity/{bids,listings,sales}` (issue 16): the public service's shapes, sorting
both ways, paging totals, and what is active (open, not expired at the service clock) against
expired, cancelled and filled bids, ended and sold listings."""

from __future__ import annotations

import re

import httpx
import pytest

from app.core.limits import MIN_BID_EXPIRY_MS
from tests.sandbox.market.helpers import advance, error, now_ms, ok
from tests.sandbox.market.market_reads import (
    CROWN,
    activity,
    competing_bid,
    competing_listing,
    new_collection,
    prices,
)

ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


async def test_bids_sort_both_ways_and_page_with_totals(client: httpx.AsyncClient) -> None:
    slug = await new_collection(client, "bids-sort")
    for price in (5_000, 3_000, 7_000, 4_000, 6_000):
        await competing_bid(client, slug=slug, price=price)
    await competing_bid(client, kind="trait", slug=slug, trait=CROWN, price=8_000)

    asc = await prices(client, "bids", collectionSlug=slug, sortBy="price", sortDirection="asc")
    assert asc == [3_000, 4_000, 5_000, 6_000, 7_000, 8_000]
    desc = await prices(client, "bids", collectionSlug=slug, sortBy="price", sortDirection="desc")
    assert desc == asc[::-1]

    pages = []
    for page in (1, 2, 3):
        data = await activity(
            client, "bids", collectionSlug=slug, sortBy="unitPrice", sortDirection="desc",
            page=page, pageSize=2,
        )  # fmt: skip
        assert data["pagination"] == {"page": page, "pageSize": 2, "total": 6, "totalPages": 3}
        pages.append([row["price"] for row in data["items"]])
    assert pages == [[8_000, 7_000], [6_000, 5_000], [4_000, 3_000]]
    beyond = await activity(client, "bids", collectionSlug=slug, page=4, pageSize=2)
    assert beyond["items"] == [] and beyond["pagination"]["total"] == 6


async def test_bid_rows_carry_the_documented_fields(client: httpx.AsyncClient) -> None:
    slug = await new_collection(client, "bids-shape")
    plain = await competing_bid(client, slug=slug, price=9_000)
    trait = await competing_bid(client, kind="trait", slug=slug, trait=CROWN, price=11_000)
    rows = {r["id"]: r for r in (await activity(client, "bids", collectionSlug=slug))["items"]}
    assert set(rows) == {plain, trait}

    row = rows[plain]
    assert row["_id"] == plain and row["type"] == "bid" and row["orderType"] == "bid"
    assert row["collectionSlug"] == slug and row["inscriptionId"] is None
    assert (row["price"], row["unitPrice"], row["quantity"]) == (9_000, 9_000, 1)
    assert ISO.match(row["timestamp"]) and ISO.match(row["expiry"])
    assert row["status"] == "open" and row["runes"] is None
    bid = row["bid"]
    assert bid["kind"] == "collection" and bid["attribute"] is None
    assert bid["price"] == 9_000 and bid["expiry"] == row["expiry"]
    assert bid["bidderAddress"].startswith("bcrt1q")  # the payment address (P2WPKH)
    assert bid["bidderTokenReceiveAddress"].startswith("bcrt1p")

    assert rows[trait]["bid"]["kind"] == "trait"
    assert rows[trait]["bid"]["attribute"] == CROWN


async def test_a_rune_bid_is_priced_in_total_and_per_unit(client: httpx.AsyncClient) -> None:
    rune = ok(await client.get("/ord/rune/SANDBOX•DEMO•RUNE"))
    divisibility = rune["entry"]["divisibility"] if "entry" in rune else rune["divisibility"]
    bid_id = await competing_bid(
        client, kind="rune", rune="SANDBOX•DEMO•RUNE", price=50_000, quantity=100
    )
    # Named without its spacers, the rune still selects its bids.
    rows = (await activity(client, "bids", collectionSlug="SANDBOXDEMORUNE", pageSize=500))["items"]
    row = next(r for r in rows if r["id"] == bid_id)
    assert row["collectionSlug"] == "SANDBOX•DEMO•RUNE"
    assert (row["price"], row["quantity"], row["unitPrice"]) == (50_000, 100, 500.0)
    assert row["bid"]["kind"] == "rune" and row["bid"]["attribute"] is None
    assert row["runes"] == {"name": "SANDBOX•DEMO•RUNE", "amount": str(100 * 10**divisibility)}


async def test_only_open_unexpired_bids_are_active(client: httpx.AsyncClient) -> None:
    slug = await new_collection(client, "bids-states")
    short = await competing_bid(client, slug=slug, price=20_000, expiresInMs=MIN_BID_EXPIRY_MS)
    cancelled = await competing_bid(client, slug=slug, price=21_000)
    filled = await competing_bid(client, slug=slug, price=22_000)
    lasting = await competing_bid(client, slug=slug, price=23_000)
    ok(await client.delete(f"/sandbox/market/bids/{cancelled}"))
    sale = ok(await client.post("/sandbox/market/sale", json={"bidId": filled}))

    def ids(data: dict[str, object]) -> set[str]:
        return {row["id"] for row in data["items"]}  # type: ignore[attr-defined]

    assert ids(await activity(client, "bids", collectionSlug=slug)) == {short, lasting}
    await advance(client, MIN_BID_EXPIRY_MS)  # expiry is exclusive: now == expiry is over
    assert ids(await activity(client, "bids", collectionSlug=slug)) == {lasting}

    every = await activity(client, "bids", collectionSlug=slug, active="false")
    states = {row["id"]: row["status"] for row in every["items"]}
    assert states == {short: "expired", cancelled: "cancelled", filled: "filled", lasting: "open"}
    ended = {row["id"]: row for row in every["items"]}
    assert (
        ISO.match(ended[cancelled]["cancelledAt"]) and ended[cancelled]["fillCompletedAt"] is None
    )
    assert ISO.match(ended[filled]["fillCompletedAt"])

    sales = (await activity(client, "sales", collectionSlug=slug))["items"]
    assert len(sales) == 1
    row = sales[0]
    assert row["type"] == "sale" and row["id"] == filled and row["price"] == 22_000
    assert row["txid"] == sale["txid"] and row["inscriptionId"] == sale["inscriptionId"]
    assert row["sellerAddress"] == sale["sellerAddress"]
    assert row["buyerAddress"] == ended[filled]["bid"]["bidderTokenReceiveAddress"]
    assert row["timestamp"] == row["fillCompletedAt"] == ended[filled]["fillCompletedAt"]


async def test_listings_sort_by_price_and_leave_when_sold(client: httpx.AsyncClient) -> None:
    slug = await new_collection(client, "asks")
    made = {}
    for price in (5_000, 3_000, 9_000):
        made[price] = await competing_listing(client, slug, price)
    asc = await prices(client, "listings", collectionSlug=slug, sortBy="price", sortDirection="asc")
    assert asc == [3_000, 5_000, 9_000]
    desc = await activity(
        client, "listings", collectionSlug=slug, sortBy="price", sortDirection="desc"
    )
    assert [r["price"] for r in desc["items"]] == [9_000, 5_000, 3_000]
    assert desc["pagination"]["total"] == 3

    row = desc["items"][-1]
    listing = made[3_000]
    assert row["id"] == row["_id"] == listing["id"]
    assert (row["type"], row["orderType"], row["collectionSlug"]) == ("listing", "ask", slug)
    assert row["inscriptionId"] == listing["inscriptionId"] and row["unitPrice"] == 3_000
    assert ISO.match(row["timestamp"]) and row["status"] == "active"
    ask = row["ask"]
    assert ask["inscriptionId"] == listing["inscriptionId"] and ask["price"] == 3_000
    assert ask["sellerOrdAddress"] == listing["sellerOrdAddress"]
    assert ask["sellerReceiveAddress"] == listing["sellerReceiveAddress"]
    assert ask["collectionSlug"] == slug and ask["unconfirmed"] is True  # minted, not mined
    ok(await client.post("/sandbox/mine", json={"blocks": 1}))
    mined = await activity(client, "listings", collectionSlug=slug, sortBy="price")
    assert all(r["ask"]["unconfirmed"] is False for r in mined["items"])

    bought = ok(await client.post("/sandbox/market/sale", json={"slug": slug}))
    assert bought["listingId"] == listing["id"]
    after = await prices(
        client, "listings", collectionSlug=slug, sortBy="price", sortDirection="asc"
    )
    assert after == [5_000, 9_000]
    every = await activity(client, "listings", collectionSlug=slug, active="false")
    states = {r["id"]: r["status"] for r in every["items"]}
    assert states[listing["id"]] == "sold" and every["pagination"]["total"] == 3

    sales = (await activity(client, "sales", collectionSlug=slug))["items"]
    assert [(s["id"], s["price"], s["orderType"]) for s in sales] == [(listing["id"], 3_000, "ask")]
    assert sales[0]["txid"] == bought["purchaseTxid"]
    assert sales[0]["inscriptionId"] == listing["inscriptionId"]
    assert sales[0]["buyerAddress"] == bought["buyerTokenReceiveAddress"]


async def test_sales_sort_by_price_both_ways(client: httpx.AsyncClient) -> None:
    slug = await new_collection(client, "sales-sort")
    for price in (4_000, 8_000, 6_000):
        listing = await competing_listing(client, slug, price)
        ok(await client.post("/sandbox/market/sale", json={"listingId": listing["id"]}))
    asc = await prices(client, "sales", collectionSlug=slug, sortBy="price", sortDirection="asc")
    assert asc == [4_000, 6_000, 8_000]
    desc = await activity(client, "sales", collectionSlug=slug, sortBy="price")
    assert [s["price"] for s in desc["items"]] == [8_000, 6_000, 4_000]
    assert desc["pagination"]["totalPages"] == 1


@pytest.mark.parametrize(
    ("params", "named"),
    [
        ({"pageSize": 0}, "pageSize"),
        ({"pageSize": 501}, "pageSize"),
        ({"page": 0}, "page"),
        ({"sortBy": "rarity"}, "sortBy"),
        ({"sortDirection": "up"}, "sortDirection"),
        ({"active": "maybe"}, "active"),
        ({"timeRange": "1y"}, "timeRange"),
        ({"collectionSlug": ""}, "collectionSlug"),
    ],
)
async def test_bad_query_values_are_400s_naming_them(
    client: httpx.AsyncClient, params: dict[str, object], named: str
) -> None:
    for side in ("listings", "bids", "sales"):
        body = error(
            await client.get(f"/v1/activity/{side}", params=params), 400, "INVALID_REQUEST"
        )
        assert named in body["message"]


async def test_an_unknown_collection_is_a_404(client: httpx.AsyncClient) -> None:
    for side in ("listings", "bids", "sales"):
        response = await client.get(f"/v1/activity/{side}", params={"collectionSlug": "no-such"})
        assert "no-such" in error(response, 404, "NOT_FOUND")["message"]


async def test_time_range_keeps_recent_orders(client: httpx.AsyncClient) -> None:
    slug = await new_collection(client, "recent")
    old = await competing_bid(client, slug=slug, price=2_000, expiresInMs=30 * 86_400_000)
    await advance(client, 2 * 86_400_000)
    new = await competing_bid(client, slug=slug, price=2_000)
    day = await activity(client, "bids", collectionSlug=slug, timeRange="24h")
    assert [r["id"] for r in day["items"]] == [new]
    week = await activity(client, "bids", collectionSlug=slug, timeRange="7d")
    assert {r["id"] for r in week["items"]} == {old, new}
    assert await now_ms(client)  # the clock is the service's, moved only by the test
