"""Competing bids obey the marketplace's rules, as ours do (issue 16): each pool against the
bidder's own bidding-wallet balance with the maker fee, expiry, the 500 ms rate per bidder; and
a fill lowers the balance, so the bids it no longer covers are cancelled."""

from __future__ import annotations

import itertools
from typing import Any

import httpx

from tests.sandbox.market.helpers import MINUTE_MS, advance, error, now_ms, ok

_bidders = itertools.count(1)
SLUG = "pixel-punks"
CROWN = {"trait_type": "Hat", "value": "Crown"}


def bidder() -> str:
    return f"rules-{next(_bidders)}"


async def bid(client: httpx.AsyncClient, **fields: Any) -> httpx.Response:
    body = {"kind": "collection", "slug": SLUG, **fields}
    return await client.post("/sandbox/market/bids", json=body)


async def open_ids(client: httpx.AsyncClient, address: str) -> list[str]:
    results = ok(await client.get("/v1/address/bids", params={"address": address}))["results"]
    return [entry["bid_id"]["$oid"] for entry in results]


async def test_each_pool_must_fit_the_bidders_own_balance(client: httpx.AsyncClient) -> None:
    broke = bidder()
    refused = await bid(client, price=10_000, bidder=broke, fundSats=0)
    error(refused, 400, "COLLECTION_BID_POOL_INSUFFICIENT_BALANCE")

    name = bidder()  # 25,000 sats: one 12,000-sat bid plus the 1,000-sat maker fee per pool
    first = ok(await bid(client, price=12_000, bidder=name, fundSats=25_000))
    assert first["walletBalance"] == 25_000
    await advance(client, 500)
    second = await bid(client, price=12_000, bidder=name, fundSats=0)
    error(second, 400, "COLLECTION_BID_POOL_INSUFFICIENT_BALANCE")
    await advance(client, 500)
    other_pool = await bid(client, kind="trait", trait=CROWN, price=12_000, bidder=name, fundSats=0)
    assert ok(other_pool)["bidCount"] == 1  # another pool, judged against the same balance


async def test_a_bidder_places_one_bid_per_500_ms(client: httpx.AsyncClient) -> None:
    name = bidder()
    ok(await bid(client, price=10_000, bidder=name))
    limited = await bid(client, price=11_000, bidder=name)
    body = error(limited, 429, "SUBMIT_BID_RATE_LIMITED")
    assert body["retryAfterMs"] == 500
    await advance(client, 500)
    ok(await bid(client, price=11_000, bidder=name))


async def test_competing_bids_expire_like_ours(client: httpx.AsyncClient) -> None:
    now = await now_ms(client)
    too_soon = await bid(client, price=10_000, bidder=bidder(), expiry=now + MINUTE_MS)
    error(too_soon, 400, "COLLECTION_BID_EXPIRY_TOO_SOON")
    placed = ok(await bid(client, price=10_000, bidder=bidder(), expiresInMs=15 * MINUTE_MS))
    address = placed["bidderTokenReceiveAddress"]
    assert await open_ids(client, address) == placed["bidIds"]
    await advance(client, 15 * MINUTE_MS)
    assert await open_ids(client, address) == []
    refused = await client.post("/sandbox/market/sale", json={"bidId": placed["bidIds"][0]})
    error(refused, 404, "BID_NOT_FOUND")  # an expired bid cannot be filled


async def test_a_fill_cancels_the_competitors_bids_its_balance_no_longer_covers(
    client: httpx.AsyncClient,
) -> None:
    name = bidder()  # 30,000 sats cover a 14,000-sat bid (15,000 with the fee) in each pool
    collection = ok(await bid(client, price=14_000, bidder=name, fundSats=30_000))
    await advance(client, 500)
    trait = ok(await bid(client, kind="trait", trait=CROWN, price=14_000, bidder=name))
    await advance(client, 500)
    cheap = ok(await bid(client, kind="trait", trait=CROWN, price=5_000, bidder=name))
    address = collection["bidderTokenReceiveAddress"]
    assert len(await open_ids(client, address)) == 3

    [filled] = collection["bidIds"]
    sale = ok(await client.post("/sandbox/market/sale", json={"bidId": filled}))
    # 15,000 left: the 14,000 trait bid (15,000) still fits, the 5,000 one (6,000) no longer
    # fits beside it in the Crown pool, so the lower one goes (the pool rule's priority).
    assert sale["cancelledBidIds"] == cheap["bidIds"]
    assert await open_ids(client, address) == trait["bidIds"]
