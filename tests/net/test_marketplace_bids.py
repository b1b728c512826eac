"""Bidding wallet, collection bids and open bids: spec shapes and the public variants."""

from __future__ import annotations

import json
from typing import Any

import pytest
from net_router import Router
from net_samples import INSCRIPTION, ORD, PAY, PUBKEY, body_of, client

from app.net.errors import BadResponse, MarketplaceError
from app.net.marketplace import MarketplaceClient
from app.net.marketplace_requests import InvalidRequest

# --- bidding wallet -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "answer",
    [
        {"success": True, "data": {"multiSig": {"address": "bc1pwallet"}}},  # spec, satflow-mm
        {"success": True, "data": {"address": "bc1pwallet", "userPaymentAddress": PAY}},  # docs
        {"multiSig": {"address": "bc1pwallet"}},  # legacy, no envelope
    ],
)
async def test_bidding_wallet_shapes(router: Router, answer: dict[str, Any]) -> None:
    router.json("GET", "/v1/address/bidding-wallet", answer)
    async with client(router) as c:
        wallet = await c.get_bidding_wallet(ORD, PAY, PUBKEY)
    assert wallet.address == "bc1pwallet"
    assert dict(router.last.url.params) == {
        "ordinalsAddress": ORD,
        "paymentAddress": PAY,
        "paymentPubkey": PUBKEY,
    }


async def test_bidding_wallet_without_address_names_the_field(router: Router) -> None:
    router.json("GET", "/v1/address/bidding-wallet", {"data": {"multiSig": {}}})
    async with client(router) as c:
        with pytest.raises(BadResponse) as caught:
            await c.get_bidding_wallet(ORD, PAY, PUBKEY)
    assert caught.value.field == "multiSig.address"
    assert "data.multiSig.address or data.address" in str(caught.value)


# --- collection bids ------------------------------------------------------------------------


class _BidModel:
    def __init__(self, wire: Any) -> None:
        self.wire = wire

    def to_json(self) -> Any:
        return self.wire


BID = {
    "price": 25000,
    "collectionSlug": "bitcoin-puppets",
    "bidderAddress": PAY,
    "bidderAddressPublicKey": PUBKEY,
    "bidderTokenReceiveAddress": ORD,
    "quantity": 2,
    "metaType": "ordinals",
    "bidExpiry": 1_800_000_000_000,
    "timestamp": 1_799_999_000_000,
    "signedBiddingMessage": "AkcwRAIg",
    "attributes": [{"trait_type": "eyes", "value": "laser"}],
}


@pytest.mark.parametrize("request_form", ["dict", "model-dict", "model-text", "text"])
async def test_place_collection_bid_sends_the_wire_json(router: Router, request_form: str) -> None:
    router.json(
        "POST", "/v1/bid/place", {"success": True, "data": {"message": "Successfully bid!"}}
    )
    text = json.dumps(BID, separators=(",", ":"), ensure_ascii=False)
    request = {
        "dict": BID,
        "model-dict": _BidModel(BID),
        "model-text": _BidModel(text),
        "text": text,
    }[request_form]
    async with client(router) as c:
        placed = await c.place_collection_bid(request)  # type: ignore[arg-type]
    assert placed.message == "Successfully bid!"
    assert body_of(router.last) == BID
    if request_form.endswith("text"):
        assert router.last.content == text.encode()  # byte for byte, as signed


@pytest.mark.parametrize("bad", [42, _BidModel([1, 2]), "not json", "[1]"])
async def test_place_collection_bid_refuses_what_is_not_a_json_object(
    router: Router, bad: Any
) -> None:
    async with client(router) as c:
        with pytest.raises(InvalidRequest):
            await c.place_collection_bid(bad)
    assert router.requests == []


async def test_place_bid_without_message_still_succeeds(router: Router) -> None:
    router.json("POST", "/v1/bid/place", {"success": True, "data": {}})
    async with client(router) as c:
        assert (await c.place_collection_bid(BID)).message is None


# --- open bids ------------------------------------------------------------------------------


async def test_bids_spec_shape_with_oid_and_trait(router: Router) -> None:
    router.json(
        "GET",
        "/v1/address/bids",
        {
            "data": {
                "results": [
                    {
                        "type": "collection",
                        "attribute": {"trait_type": "eyes", "value": "laser"},
                        "bid_id": {"$oid": "66f1c0ffee"},
                        "price": 25000,
                        "expiration": 1_800_000_000_000,
                        "collectionSlug": "bitcoin-puppets",
                    }
                ]
            }
        },
    )
    async with client(router) as c:
        bids = await c.get_bids(ORD)
    assert router.last.url.params["address"] == ORD
    (bid,) = bids
    assert bid.bid_id == "66f1c0ffee"
    assert bid.is_trait_bid and bid.attribute is not None
    assert (bid.attribute.trait_type, bid.attribute.value) == ("eyes", "laser")
    assert (bid.price, bid.expiration_ms, bid.collection_slug) == (
        25000,
        1_800_000_000_000,
        "bitcoin-puppets",
    )
    assert bid.raw["type"] == "collection"


async def test_bids_public_shape_with_string_ids_and_metadata(router: Router) -> None:
    router.json(
        "GET",
        "/v1/address/bids",
        {
            "success": True,
            "data": {
                "results": [
                    {
                        "bid_id": "64b7f1a2",
                        "inscription_id": None,
                        "price": 120000,
                        "type": "collection",
                        "isNonCustodial": True,
                        "expiration": None,
                        "attribute": None,
                        "inscription_metadata": {"collection": {"id": "nodemonkes"}},
                        "runes_metadata": None,
                    },
                    {
                        "bid_id": "64b7f1a3",
                        "price": 50000,
                        "type": "rune",
                        "runes_metadata": {"runes": [{"name": "DOG•GO•TO•THE•MOON"}]},
                    },
                    {
                        "bid_id": "64b7f1a4",
                        "price": "30000",
                        "type": "individual",
                        "inscription_id": INSCRIPTION,
                    },
                ]
            },
        },
    )
    async with client(router) as c:
        first, rune, single = await c.get_bids(ORD)
    assert (first.bid_id, first.collection_slug, first.attribute) == (
        "64b7f1a2",
        "nodemonkes",
        None,
    )
    assert first.is_non_custodial is True and first.expiration_ms is None
    assert rune.is_rune_bid and rune.rune_name == "DOG•GO•TO•THE•MOON"
    assert single.inscription_id == INSCRIPTION and single.price == 30000


async def test_rune_bid_name_falls_back_to_collection_slug(router: Router) -> None:
    router.json(
        "GET",
        "/v1/address/bids",
        {"data": {"results": [{"bid_id": "x", "type": "rune", "collectionSlug": "RUNE•X"}]}},
    )
    async with client(router) as c:
        (bid,) = await c.get_bids(ORD)
    assert bid.rune_name == "RUNE•X"


async def test_public_404_for_unknown_address_is_no_bids(router: Router) -> None:
    router.json("GET", "/v1/address/bids", {"error": "No bids found"}, status=404)
    async with client(router) as c:
        assert await c.get_bids(ORD) == []


async def test_missing_route_404_is_not_mistaken_for_no_bids(router: Router) -> None:
    # A wrong base URL must not look like "you have no open bids" (the retry rule reads them).
    async with MarketplaceClient("http://market.test/v2", transport=router.transport) as c:
        with pytest.raises(MarketplaceError) as caught:
            await c.get_bids(ORD)
    assert caught.value.status == 404


async def test_bid_without_id_is_a_bad_response(router: Router) -> None:
    router.json("GET", "/v1/address/bids", {"data": {"results": [{"type": "collection"}]}})
    async with client(router) as c:
        with pytest.raises(BadResponse) as caught:
            await c.get_bids(ORD)
    assert caught.value.field == "results[0].bid_id"


async def test_bids_without_results_is_a_bad_response(router: Router) -> None:
    router.json("GET", "/v1/address/bids", {"data": {}})
    async with client(router) as c:
        with pytest.raises(BadResponse, match=r"missing field data\.results"):
            await c.get_bids(ORD)


async def test_sandbox_style_404_is_not_mistaken_for_no_bids(router: Router) -> None:
    router.json(
        "GET",
        "/v1/address/bids",
        {"errorCode": "NOT_FOUND", "message": "no route GET /v1/address/bids"},
        status=404,
    )
    async with client(router) as c:
        with pytest.raises(MarketplaceError) as caught:
            await c.get_bids(ORD)
    assert (caught.value.status, caught.value.error_code) == (404, "NOT_FOUND")
