"""Lists beyond the spec that a service may offer: the seller's listings and an address's
single-inscription bids, each with its state; None where the service answers 404 or 405."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest
from net_router import Router
from net_samples import INSCRIPTION, ORD, TXID, client

from app.net.errors import BadResponse, MarketplaceError, ServerError
from app.net.marketplace import MarketplaceClient
from app.net.marketplace_states import InscriptionBidState, SellerListing

Call = Callable[[MarketplaceClient], Awaitable[Any]]


def listings(c: MarketplaceClient) -> Awaitable[list[SellerListing] | None]:
    return c.get_seller_listings(ORD)


def bid_states(c: MarketplaceClient) -> Awaitable[list[InscriptionBidState] | None]:
    return c.get_inscription_bid_states(ORD)


BOTH = pytest.mark.parametrize(
    ("path", "call"), [("/v1/listings", listings), ("/v1/address/inscription-bids", bid_states)]
)

# --- the seller's listings ------------------------------------------------------------------

# GET /v1/listings?sellerOrdAddress= as the sandbox answers it (app/sandbox/market/listings.py).
LISTED = {
    "success": True,
    "data": {
        "listings": [
            {"id": "l1", "inscriptionId": INSCRIPTION, "price": 150_000, "status": "active"},
            {"id": "l2", "runesOutput": f"{TXID}:1", "price": 90_000, "status": "sold"},
        ]
    },
}


async def test_the_sellers_listings_are_asked_by_ordinals_address(router: Router) -> None:
    router.json("GET", "/v1/listings", LISTED)
    async with client(router) as c:
        found = await c.get_seller_listings(ORD)
    assert router.last.url.params["sellerOrdAddress"] == ORD
    assert found is not None
    assert [(x.listing_id, x.item, x.price, x.state) for x in found] == [
        ("l1", INSCRIPTION, 150_000, "active"),
        ("l2", f"{TXID}:1", 90_000, "sold"),
    ]
    assert (found[0].inscription_id, found[0].runes_output) == (INSCRIPTION, None)
    assert (found[1].inscription_id, found[1].runes_output) == (None, f"{TXID}:1")


async def test_a_listing_without_id_is_skipped_and_its_other_fields_are_tolerated(
    router: Router,
) -> None:
    entries = [
        {"inscriptionId": INSCRIPTION, "status": "active"},  # no id: cannot be shown
        {"id": 7},
        "not an object",
        {"id": "l3", "price": "150000", "status": 1},
    ]
    router.json("GET", "/v1/listings", {"data": {"listings": entries}})
    async with client(router) as c:
        found = await c.get_seller_listings(ORD)
    assert found is not None
    assert [(x.listing_id, x.item, x.price, x.state) for x in found] == [
        ("l3", "?", None, "active")
    ]


# --- single-inscription bids with their state -----------------------------------------------

# GET /v1/address/inscription-bids?address= as the sandbox answers it.
BID_STATES = {
    "success": True,
    "data": {
        "results": [
            {"bid_id": {"$oid": "a" * 24}, "inscription_id": INSCRIPTION, "price": 50_000},
            {
                "bid_id": "b" * 24,
                "inscription_id": INSCRIPTION,
                "price": 60_000,
                "status": "accepted",
                "endTxid": TXID,
            },
        ]
    },
}


async def test_inscription_bids_are_asked_by_address_with_their_state(router: Router) -> None:
    router.json("GET", "/v1/address/inscription-bids", BID_STATES)
    async with client(router) as c:
        found = await c.get_inscription_bid_states(ORD)
    assert router.last.url.params["address"] == ORD
    assert found == [
        InscriptionBidState("a" * 24, INSCRIPTION, 50_000, "open", None),
        InscriptionBidState("b" * 24, INSCRIPTION, 60_000, "accepted", TXID),
    ]


async def test_a_bid_without_its_ids_is_skipped(router: Router) -> None:
    entries = [
        {"inscription_id": INSCRIPTION, "price": 1},
        {"bid_id": {"oid": "x"}, "inscription_id": INSCRIPTION},
        {"bid_id": "c" * 24},
        "not an object",
        {"bid_id": "d" * 24, "inscription_id": INSCRIPTION, "price": True, "endTxid": 5},
    ]
    router.json("GET", "/v1/address/inscription-bids", {"data": {"results": entries}})
    async with client(router) as c:
        found = await c.get_inscription_bid_states(ORD)
    assert found == [InscriptionBidState("d" * 24, INSCRIPTION, None, "open", None)]


# --- both: not offered, refused, malformed --------------------------------------------------


@BOTH
@pytest.mark.parametrize("status", [404, 405])
async def test_a_service_without_the_list_gives_none(
    router: Router, path: str, call: Call, status: int
) -> None:
    router.add("GET", path, httpx.Response(status, json={"detail": "Not Found"}))
    async with client(router) as c:
        assert await call(c) is None


@BOTH
async def test_an_unknown_route_is_not_offered(router: Router, path: str, call: Call) -> None:
    async with client(router) as c:  # the router answers 404 {"detail"} for any unknown route
        assert await call(c) is None


@BOTH
@pytest.mark.parametrize(("status", "error"), [(400, MarketplaceError), (500, ServerError)])
async def test_other_errors_are_raised(
    router: Router, path: str, call: Call, status: int, error: type[Exception]
) -> None:
    body = {"errorCode": "BAD_ADDRESS", "message": "no such address"}
    router.json("GET", path, body, status=status)
    async with client(router) as c:
        with pytest.raises(error) as caught:
            await call(c)
    assert getattr(caught.value, "status", None) == status


@BOTH
@pytest.mark.parametrize("body", [[], {"data": {}}, {"data": {"listings": {}, "results": {}}}])
async def test_a_body_without_the_list_is_a_bad_response(
    router: Router, path: str, call: Call, body: Any
) -> None:
    router.json("GET", path, body)
    async with client(router) as c:
        with pytest.raises(BadResponse, match=path.removeprefix("/v1")):
            await call(c)
