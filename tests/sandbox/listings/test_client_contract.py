"""The app's marketplace client (`app.net.marketplace`) against the sandbox's issue-6 routes:
the shapes it expects are the ones served (single-inscription bids, secure listings, errors)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from app.net.errors import HttpError
from app.net.marketplace import MarketplaceClient
from app.net.marketplace_requests import (
    InscriptionBidIntentRequest,
    InscriptionBidPlacement,
    Listing,
    SecureListingSubmission,
)
from app.sandbox.chain.node import Node
from tests.sandbox.conftest import ASGI_BASE_URL
from tests.sandbox.inscription_bids.bidding import new_bidder, sandbox_inscription
from tests.sandbox.listings.helpers import SIGHASH_ALL, SIGHASH_ALL_ANYONECANPAY, sign
from tests.sandbox.listings.selling import inscribe, new_seller


@pytest.fixture
async def market_client(sandbox_app: FastAPI) -> AsyncIterator[MarketplaceClient]:
    transport = httpx.ASGITransport(app=sandbox_app, raise_app_exceptions=False)
    async with MarketplaceClient(f"{ASGI_BASE_URL}/v1", transport=transport) as client:
        yield client


async def test_inscription_bid_through_the_apps_client(
    market_client: MarketplaceClient, sandbox_node: Node
) -> None:
    bidder = new_bidder(sandbox_node)
    inscription_id, _ = sandbox_inscription(sandbox_node)
    unsigned = await market_client.create_inscription_bid_intent(
        InscriptionBidIntentRequest(
            price=42_000,
            inscription_id=inscription_id,
            bidder_address=bidder.payment.address,
            bidder_token_receive_address=bidder.ordinals.address,
            bidder_public_key=bidder.payment.public.public_key.hex(),
        )
    )
    assert unsigned.psbt_hex is not None
    signed = sign(unsigned.psbt_base64, bidder.payment, [1], SIGHASH_ALL)
    placed = await market_client.place_inscription_bid(
        InscriptionBidPlacement(
            price=42_000,
            inscription_id=inscription_id,
            bidder_address=bidder.payment.address,
            bidder_token_receive_address=bidder.ordinals.address,
            signed_bidding_psbt=signed,
            unsigned_bidding_psbt=unsigned.psbt_base64,
        )
    )
    assert placed.message == "Successfully bid!"
    [entry] = await market_client.get_bids(bidder.ordinals.address)
    assert (entry.type, entry.inscription_id, entry.price) == ("individual", inscription_id, 42_000)
    assert entry.bid_id == placed.raw["bidId"]


async def test_secure_listing_through_the_apps_client(
    market_client: MarketplaceClient, sandbox_node: Node
) -> None:
    seller = new_seller()
    listings = tuple(
        Listing(
            price=30_000 + n,
            seller_ord_address=seller.ordinals.address,
            seller_receive_address=seller.payment.address,
            inscription_id=inscribe(sandbox_node, seller),
            tap_internal_key=seller.ordinals.public.public_key.hex(),
        )
        for n in range(2)
    )
    intent = await market_client.create_secure_bulk_sell_intent(listings)
    assert [p.indices_to_sign for p in intent.psbts] == [(0,), (0,)]
    signed = tuple(
        sign(p.psbt_base64, seller.ordinals, p.indices_to_sign, SIGHASH_ALL_ANYONECANPAY)
        for p in intent.psbts
    )
    result = await market_client.list_secure(SecureListingSubmission(listings, signed))
    assert [x.status for x in result.listings] == ["active", "active"]
    assert [x.inscription_id for x in result.listings] == [x.inscription_id for x in listings]
    tap = Listing(
        price=30_000,
        seller_ord_address=seller.ordinals.address,
        seller_receive_address=seller.payment.address,
        inscription_id=inscribe(sandbox_node, seller, tap_transfer=True),
        tap_internal_key=seller.ordinals.public.public_key.hex(),
    )
    with pytest.raises(HttpError) as refused:
        await market_client.create_secure_sell_intent(tap)
    assert refused.value.status == 400
    assert refused.value.error_code == "SECURE_LISTING_UNSUPPORTED"
