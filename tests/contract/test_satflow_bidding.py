"""MarketplaceClient against Satflow's documented bodies: the bidding wallet, collection bids,
the open bids list (both id shapes, the metadata the market maker matches on, the 404 "no
bids"), the challenge and cancel. Sources: tests/contract/samples/satflow.py."""

from __future__ import annotations

from typing import Any

import pytest

from app.net.errors import BadResponse, MarketplaceError
from app.net.marketplace import MarketplaceClient
from app.net.marketplace_requests import CancelRequest
from tests.contract.samples import satflow as s
from tests.net.net_router import Router

BASE = "http://satflow.test/v1"


def client(router: Router) -> MarketplaceClient:
    return MarketplaceClient(BASE, api_key="k", transport=router.transport)


# --- bidding wallet ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "user_payment"),
    [(s.WALLET_DOCS, s.PAY), (s.WALLET_MULTISIG, None), (s.WALLET_LEGACY, None)],
    ids=["docs-data.address", "spec-data.multiSig.address", "legacy-multiSig.address"],
)
async def test_bidding_wallet_address_in_every_shape(
    router: Router, body: dict[str, Any], user_payment: str | None
) -> None:
    router.json("GET", "/v1/address/bidding-wallet", body)
    async with client(router) as c:
        wallet = await c.get_bidding_wallet(s.ORD, s.PAY, s.PUBKEY)
    assert (wallet.address, wallet.user_payment_address) == (s.BIDDING, user_payment)
    assert dict(router.last.url.params) == {
        "ordinalsAddress": s.ORD,
        "paymentAddress": s.PAY,
        "paymentPubkey": s.PUBKEY,
    }
    assert router.last.headers["x-api-key"] == "k"


async def test_bidding_wallet_null_address_is_a_bad_response(router: Router) -> None:
    router.json("GET", "/v1/address/bidding-wallet", s.WALLET_DOCS_NULL)
    async with client(router) as c:
        with pytest.raises(BadResponse) as caught:
            await c.get_bidding_wallet(s.ORD, s.PAY, s.PUBKEY)
    assert caught.value.field == "multiSig.address"


# --- placing a collection bid -----------------------------------------------------------------


@pytest.mark.parametrize("body", [s.BID_PLACED, s.BID_PLACED["data"]], ids=["v1", "legacy"])
async def test_bid_placed_message(router: Router, body: dict[str, Any]) -> None:
    router.json("POST", "/v1/bid/place", body)
    async with client(router) as c:
        placed = await c.place_collection_bid({"collectionSlug": "nodemonkes", "quantity": 1})
    assert placed.message == "Successfully bid!"


# --- open bids --------------------------------------------------------------------------------


@pytest.mark.parametrize("body", [s.BIDS, s.BIDS_LEGACY], ids=["v1", "legacy-walletBids"])
async def test_bid_list_reads_every_documented_kind(router: Router, body: dict[str, Any]) -> None:
    router.json("GET", "/v1/address/bids", body)
    async with client(router) as c:
        collection, trait, rune, individual = await c.get_bids(s.ORD)
    assert router.last.url.params["address"] == s.ORD

    # bid_id as a plain string (docs) and as {"$oid": ...} (spec): the same kind of id.
    assert [b.bid_id for b in (collection, trait, rune)] == list(s.BID_IDS)
    assert all(b.listed_under == s.ORD for b in (collection, trait, rune, individual))

    assert (collection.type, collection.price, collection.expiration_ms) == (
        "collection",
        120_000,
        1_767_225_600_000,
    )
    assert (collection.collection_slug, collection.is_trait_bid) == ("nodemonkes", False)
    assert collection.is_non_custodial is True and collection.inscription_id is None

    assert (trait.collection_slug, trait.is_trait_bid, trait.expiration_ms) == (
        "nodemonkes",
        True,
        None,
    )
    assert trait.attribute is not None
    assert (trait.attribute.trait_type, trait.attribute.value) == ("Background", "Orange")

    # satflow-mm: units = amount / 10 ** divisibility; the price is the total.
    assert rune.is_rune_bid and rune.rune_name == "DOG•GO•TO•THE•MOON"
    assert (rune.rune_amount, rune.rune_divisibility, rune.quantity, rune.price) == (
        100_000_000_000,
        5,
        1_000_000,
        2_000_000,
    )
    assert rune.collection_slug is None

    assert (individual.type, individual.inscription_id, individual.price) == (
        "individual",
        s.INSCRIPTION,
        250_000,
    )
    assert individual.is_non_custodial is False and not individual.is_rune_bid


async def test_bid_list_404_error_body_is_no_bids(router: Router) -> None:
    router.json("GET", "/v1/address/bids", s.NO_BIDS_404, status=404)
    async with client(router) as c:
        assert await c.get_bids(s.ORD) == []


async def test_bid_list_404_of_a_missing_route_stays_an_error(router: Router) -> None:
    # A wrong base URL must not read as "no bids": the retry rule decides from this list.
    router.json("GET", "/v1/other", {})  # /v1/address/bids is unrouted: {"detail": ...} 404
    async with client(router) as c:
        with pytest.raises(MarketplaceError) as caught:
            await c.get_bids(s.ORD)
    assert caught.value.status == 404


# --- challenge and cancel ---------------------------------------------------------------------


@pytest.mark.parametrize("body", [s.CHALLENGE, s.CHALLENGE_LEGACY], ids=["v1", "legacy"])
async def test_challenge_text_is_kept_exactly(router: Router, body: dict[str, Any]) -> None:
    router.json("GET", "/v1/challenge", body)
    async with client(router) as c:
        challenge = await c.get_challenge(s.ORD)
    assert challenge.challenge == s.CHALLENGE_TEXT  # signed byte for byte: newlines kept
    assert challenge.expires_at_ms is None
    assert router.last.url.params["address"] == s.ORD


@pytest.mark.parametrize(
    ("body", "valid", "key"), [(s.VERIFIED, True, s.PUBKEY), (s.NOT_VERIFIED, False, None)]
)
async def test_challenge_verification(
    router: Router, body: dict[str, Any], valid: bool, key: str | None
) -> None:
    router.json("GET", "/v1/challenge/verify", body)
    async with client(router) as c:
        result = await c.verify_challenge(s.ORD, "AUEB")
    assert (result.valid, result.public_key) == (valid, key)


async def test_cancel_summary(router: Router) -> None:
    router.json("POST", "/v1/cancel", s.CANCELLED)
    async with client(router) as c:
        result = await c.cancel(CancelRequest(s.ORD, "AUEB", (s.BID_IDS[0],)))
    assert (result.success, result.success_count, result.failed_count) == (True, 1, 0)
    assert [(o.bid_id, o.success) for o in result.outcomes] == [(s.BID_IDS[0], True)]


async def test_cancel_refused_signature_is_a_403_with_the_services_words(router: Router) -> None:
    router.json("POST", "/v1/cancel", s.BAD_SIGNATURE, status=403)
    async with client(router) as c:
        with pytest.raises(MarketplaceError) as caught:
            await c.cancel(CancelRequest(s.ORD, "AUEB", s.BID_IDS[:2]))
    error = caught.value
    assert (error.status, error.error_code, error.message) == (
        403,
        None,
        "Invalid signature or unauthorized",
    )
