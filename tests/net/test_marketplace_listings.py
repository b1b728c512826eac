"""Secure listings: intents, submission, and the secure purchase intent."""

from __future__ import annotations

from typing import Any

import pytest
from net_router import Router
from net_samples import INSCRIPTION, ORD, PAY, PSBT_B64, TXID, body_of, client

from app.net.errors import BadResponse
from app.net.marketplace_requests import (
    InvalidRequest,
    Listing,
    SecureListingSubmission,
    SecurePurchaseIntentRequest,
)

# --- secure listings ------------------------------------------------------------------------

LISTING = Listing(
    price=150_000,
    seller_ord_address=ORD,
    seller_receive_address=PAY,
    inscription_id=INSCRIPTION,
    collection_slug="bitcoin-puppets",
    tap_internal_key="ab" * 32,
)
SECURE = {"data": {"seller": {"secureListingPSBTs": [{"base64": PSBT_B64, "indicesToSign": [0]}]}}}


async def test_secure_sell_intent(router: Router) -> None:
    router.json("POST", "/v1/intent/secure-sell", SECURE)
    async with client(router) as c:
        intent = await c.create_secure_sell_intent(LISTING)
    assert body_of(router.last) == {
        "price": 150_000,
        "inscriptionId": INSCRIPTION,
        "sellerOrdAddress": ORD,
        "sellerReceiveAddress": PAY,
        "collectionSlug": "bitcoin-puppets",
        "tapInternalKey": "ab" * 32,
    }
    assert [(p.psbt_base64, p.indices_to_sign) for p in intent.psbts] == [(PSBT_B64, (0,))]


async def test_secure_bulk_sell_intent_sends_listings(router: Router) -> None:
    router.json("POST", "/v1/intent/secure-bulk-sell", SECURE)
    runes = Listing(
        price=90_000, seller_ord_address=ORD, seller_receive_address=PAY, runes_output=f"{TXID}:1"
    )
    async with client(router) as c:
        await c.create_secure_bulk_sell_intent([runes, runes])
    sent = body_of(router.last)
    assert [entry["runesOutput"] for entry in sent["listings"]] == [f"{TXID}:1"] * 2
    assert "inscriptionId" not in sent["listings"][0]


@pytest.mark.parametrize(
    "psbts",
    [
        [{"base64": PSBT_B64}],
        [{"indicesToSign": [0]}],
        [{"base64": PSBT_B64, "indicesToSign": "0"}],
        [],
    ],
)
async def test_secure_sell_intent_is_strict_about_what_to_sign(
    router: Router, psbts: list[Any]
) -> None:
    router.json(
        "POST", "/v1/intent/secure-sell", {"data": {"seller": {"secureListingPSBTs": psbts}}}
    )
    async with client(router) as c:
        with pytest.raises(BadResponse):
            await c.create_secure_sell_intent(LISTING)


def test_listing_needs_exactly_one_item() -> None:
    with pytest.raises(InvalidRequest):
        Listing(price=1, seller_ord_address=ORD, seller_receive_address=PAY)
    with pytest.raises(InvalidRequest):
        Listing(
            price=1,
            seller_ord_address=ORD,
            seller_receive_address=PAY,
            inscription_id=INSCRIPTION,
            runes_output=f"{TXID}:0",
        )


async def test_list_secure(router: Router) -> None:
    router.json(
        "POST",
        "/v1/list/secure",
        {
            "data": {
                "listings": [
                    {
                        "_id": {"$oid": "L1"},
                        "price": 150_000,
                        "inscriptionId": INSCRIPTION,
                        "status": "active",
                    }
                ]
            }
        },
    )
    async with client(router) as c:
        result = await c.list_secure(SecureListingSubmission((LISTING,), ("SIGNEDPSBT",)))
    sent = body_of(router.last)
    assert sent["signedSecureListingPSBTs"] == ["SIGNEDPSBT"]
    assert sent["listings"][0]["inscriptionId"] == INSCRIPTION
    (listing,) = result.listings
    assert (listing.listing_id, listing.status, listing.price) == ("L1", "active", 150_000)


async def test_list_secure_without_ids_is_a_bad_response(router: Router) -> None:
    router.json("POST", "/v1/list/secure", {"data": {"listings": [{"price": 1}]}})
    async with client(router) as c:
        with pytest.raises(BadResponse) as caught:
            await c.list_secure(SecureListingSubmission((LISTING,), ("SIGNEDPSBT",)))
    assert caught.value.field == "listings[0]._id"


async def test_secure_purchase_intent(router: Router) -> None:
    router.json(
        "POST",
        "/v1/intent/secure-purchase",
        {"data": {"referralAddress": PAY, "creatorFee": False, "psbts": ["x"]}},
    )
    request = SecurePurchaseIntentRequest(
        buyer_address=PAY,
        buyer_token_receive_address=ORD,
        inscription_ids=(INSCRIPTION,),
        fee_rate="halfHourFee",
        extra={"splitQuantity": 1},
    )
    async with client(router) as c:
        intent = await c.create_secure_purchase_intent(request)
    assert body_of(router.last) == {
        "buyerAddress": PAY,
        "buyerTokenReceiveAddress": ORD,
        "inscriptionIds": [INSCRIPTION],
        "feeRate": "halfHourFee",
        "splitQuantity": 1,
    }
    assert (intent.referral_address, intent.creator_fee, intent.raw["psbts"]) == (PAY, False, ["x"])
