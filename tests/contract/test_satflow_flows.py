"""MarketplaceClient against Satflow's documented bodies: withdraw, single-inscription bids,
secure listings and purchases, and the lists Satflow does not offer. Sources:
tests/contract/samples/satflow.py."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest

from app.net.marketplace import MarketplaceClient
from app.net.marketplace_requests import (
    InscriptionBidIntentRequest,
    InscriptionBidPlacement,
    Listing,
    SecureListingSubmission,
    SecurePurchaseIntentRequest,
    WithdrawIntentRequest,
    WithdrawSubmission,
)
from tests.contract.samples import satflow as s
from tests.net.net_router import Router

BASE = "http://satflow.test/v1"
LISTING = Listing(90_000, s.ORD, s.PAY, inscription_id=s.INSCRIPTION)


def client(router: Router) -> MarketplaceClient:
    return MarketplaceClient(BASE, transport=router.transport)


def both(body: dict[str, Any]) -> pytest.MarkDecorator:
    """The v1 body and its legacy un-enveloped ``data`` (every parser reads ``data.X || X``)."""
    return pytest.mark.parametrize("body", [body, body["data"]], ids=["v1", "legacy"])


# --- withdraw ---------------------------------------------------------------------------------


@both(s.WITHDRAW_INTENT)
async def test_withdraw_intent(router: Router, body: dict[str, Any]) -> None:
    router.json("POST", "/v1/intent/withdraw", body)
    async with client(router) as c:
        intent = await c.create_withdraw_intent(WithdrawIntentRequest(s.PAY, 50_000))
    assert (intent.psbt_base64, intent.psbt_hex, intent.payment_utxo_count) == (
        s.PSBT_B64,
        s.PSBT_HEX,
        3,
    )


@pytest.mark.parametrize(
    ("request_", "sent"),
    [
        (WithdrawIntentRequest(s.PAY, 50_000), s.WITHDRAW_INTENT_BODY),
        (WithdrawIntentRequest(s.PAY, 50_000, fee_rate=12), s.WITHDRAW_INTENT_BODY_WITH_RATE),
    ],
    ids=["documented", "with-fee-rate"],
)
async def test_withdraw_intent_body(
    router: Router, request_: WithdrawIntentRequest, sent: dict[str, Any]
) -> None:
    router.json("POST", "/v1/intent/withdraw", s.WITHDRAW_INTENT)
    async with client(router) as c:
        await c.create_withdraw_intent(request_)
    assert json.loads(router.last.content) == sent


@both(s.WITHDRAWN)
async def test_withdraw_txid(router: Router, body: dict[str, Any]) -> None:
    router.json("POST", "/v1/withdraw", body)
    async with client(router) as c:
        result = await c.withdraw(WithdrawSubmission(s.PSBT_B64))
    assert result.txid == s.TXID


# --- single-inscription bids ------------------------------------------------------------------


@both(s.INSCRIPTION_BID_INTENT)
async def test_inscription_bid_intent(router: Router, body: dict[str, Any]) -> None:
    router.json("POST", "/v1/intent/bid", body)
    request = InscriptionBidIntentRequest(20_000, s.INSCRIPTION, s.PAY, s.ORD, s.PUBKEY)
    async with client(router) as c:
        psbt = await c.create_inscription_bid_intent(request)
    assert (psbt.psbt_base64, psbt.psbt_hex) == (s.PSBT_B64, s.PSBT_HEX)
    assert psbt.raw["bidder"]["bidderPaymentUTXOs"][0]["vout"] == 1


async def test_inscription_bid_intent_hex_only(router: Router) -> None:
    bidder = {"unsignedBiddingPSBTHex": "70736274ff01"}
    router.json("POST", "/v1/intent/bid", s.envelope({"bidder": bidder}))
    request = InscriptionBidIntentRequest(20_000, s.INSCRIPTION, s.PAY, s.ORD, s.PUBKEY)
    async with client(router) as c:
        psbt = await c.create_inscription_bid_intent(request)
    assert psbt.psbt_base64 == "cHNidP8B"  # the same bytes, as base64


async def test_inscription_bid_placed(router: Router) -> None:
    router.json("POST", "/v1/bid/place", s.BID_PLACED)
    placement = InscriptionBidPlacement(20_000, s.INSCRIPTION, s.PAY, s.ORD, s.PSBT_B64)
    async with client(router) as c:
        placed = await c.place_inscription_bid(placement)
    assert placed.message == "Successfully bid!"


# --- secure listings and purchases ------------------------------------------------------------


@both(s.SECURE_SELL_INTENT)
async def test_secure_sell_intents(router: Router, body: dict[str, Any]) -> None:
    router.json("POST", "/v1/intent/secure-sell", body)
    router.json("POST", "/v1/intent/secure-bulk-sell", body)
    async with client(router) as c:
        one = await c.create_secure_sell_intent(LISTING)
        bulk = await c.create_secure_bulk_sell_intent([LISTING])
    for intent in (one, bulk):
        assert [(p.psbt_base64, p.indices_to_sign) for p in intent.psbts] == [(s.PSBT_B64, (0,))]


@both(s.LISTED)
async def test_list_secure(router: Router, body: dict[str, Any]) -> None:
    router.json("POST", "/v1/list/secure", body)
    async with client(router) as c:
        result = await c.list_secure(SecureListingSubmission((LISTING,), (s.PSBT_B64,)))
    (listing,) = result.listings
    assert (listing.listing_id, listing.price, listing.inscription_id, listing.status) == (
        "6650c0ffee000000000000aa",
        90_000,
        s.INSCRIPTION,
        "active",
    )
    assert result.raw["txid"] == s.TXID


@both(s.SECURE_PURCHASE_INTENT)
async def test_secure_purchase_intent(router: Router, body: dict[str, Any]) -> None:
    router.json("POST", "/v1/intent/secure-purchase", body)
    request = SecurePurchaseIntentRequest(s.PAY, s.ORD, inscription_ids=(s.INSCRIPTION,))
    async with client(router) as c:
        intent = await c.create_secure_purchase_intent(request)
    assert (intent.referral_address, intent.creator_fee) == (s.PAY, False)


# --- lists Satflow does not document: "not offered" -------------------------------------------

Lister = Callable[[MarketplaceClient], Awaitable[Any]]


@pytest.mark.parametrize(
    "call",
    [lambda c: c.get_seller_listings(s.ORD), lambda c: c.get_inscription_bid_states(s.ORD)],
    ids=["listings", "inscription-bids"],
)
@pytest.mark.parametrize("status", [404, 405])
async def test_lists_beyond_the_spec_are_not_offered(
    router: Router, call: Lister, status: int
) -> None:
    router.add("GET", "/v1/listings", lambda _r: _html(status))
    router.add("GET", "/v1/address/inscription-bids", lambda _r: _html(status))
    async with client(router) as c:
        assert await call(c) is None


def _html(status: int) -> httpx.Response:
    # An Express-style answer for a route the service does not have.
    return httpx.Response(status, html="<pre>Cannot GET</pre>")
