"""Challenge, cancel, withdraw and single-inscription bids."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from net_router import Router
from net_samples import INSCRIPTION, ORD, PAY, PSBT_B64, PUBKEY, TXID, body_of, client

from app.net.errors import BadResponse
from app.net.marketplace_requests import (
    CancelRequest,
    InscriptionBidIntentRequest,
    InscriptionBidPlacement,
    InvalidRequest,
    WithdrawIntentRequest,
    WithdrawSubmission,
)

# --- challenge and cancel -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "expiry"),
    [
        ({"data": {"challenge": "Sign in to Satflow: 8f2e"}}, None),
        ({"challenge": "Sign in to Satflow: 8f2e"}, None),
        (
            {"data": {"challenge": "Sign in to Satflow: 8f2e", "expiresAt": 1_800_000_060_000}},
            1_800_000_060_000,
        ),
        (
            {"challenge": "Sign in to Satflow: 8f2e", "expiresAt": "2027-01-15T08:00:00Z"},
            1_800_000_000_000,
        ),
    ],
)
async def test_challenge_shapes(router: Router, answer: dict[str, Any], expiry: int | None) -> None:
    router.json("GET", "/v1/challenge", answer)
    async with client(router) as c:
        challenge = await c.get_challenge(ORD)
    assert challenge.challenge == "Sign in to Satflow: 8f2e"
    assert challenge.expires_at_ms == expiry
    assert router.last.url.params["address"] == ORD


async def test_verify_challenge(router: Router) -> None:
    router.json("GET", "/v1/challenge/verify", {"data": {"validity": True, "publicKey": PUBKEY}})
    async with client(router) as c:
        result = await c.verify_challenge(ORD, "AkcwRAIg==")
    assert result.valid and result.public_key == PUBKEY
    assert dict(router.last.url.params) == {"address": ORD, "signature": "AkcwRAIg=="}


async def test_cancel_one_sends_id_and_parses_summary(router: Router) -> None:
    router.json(
        "POST",
        "/v1/cancel",
        {
            "data": {
                "success": True,
                "summary": {"id": "b1", "success": True},
                "successCount": 1,
                "failedCount": 0,
            }
        },
    )
    async with client(router) as c:
        result = await c.cancel(CancelRequest(ORD, "sig", ("b1",)))
    assert body_of(router.last) == {
        "makerAddress": ORD,
        "orderType": "bid",
        "signature": "sig",
        "_id": "b1",
    }
    assert (result.success, result.success_count, result.failed_count) == (True, 1, 0)
    assert [(o.bid_id, o.success) for o in result.outcomes] == [("b1", True)]


async def test_cancel_many_sends_ids_and_tolerates_any_summary(router: Router) -> None:
    router.json(
        "POST",
        "/v1/cancel",
        {"data": {"summary": [{"id": {"$oid": "b1"}, "success": True}, {"id": "b2"}, "junk"]}},
    )
    async with client(router) as c:
        result = await c.cancel(CancelRequest(ORD, "sig", ("b1", "b2")))
    sent = body_of(router.last)
    assert sent["_ids"] == ["b1", "b2"] and sent["multiple"] is True and "_id" not in sent
    assert result.success is None and result.success_count is None
    assert [(o.bid_id, o.success) for o in result.outcomes] == [("b1", True), ("b2", None)]


def test_cancel_needs_ids() -> None:
    with pytest.raises(InvalidRequest):
        CancelRequest(ORD, "sig", ())


# --- withdraw -------------------------------------------------------------------------------


async def test_withdraw_intent_and_submit(router: Router) -> None:
    router.json(
        "POST",
        "/v1/intent/withdraw",
        {
            "data": {
                "unsignedPSBTBase64": PSBT_B64,
                "unsignedPSBTHex": "70736274",
                "paymentUtxoCount": 3,
            }
        },
    )
    router.json("POST", "/v1/withdraw", {"data": {"txid": TXID.upper()}})
    async with client(router) as c:
        intent = await c.create_withdraw_intent(WithdrawIntentRequest(PAY, 50_000))
        assert body_of(router.last) == {"userAddress": PAY, "amount": 50_000}
        done = await c.withdraw(WithdrawSubmission(signed_withdraw_psbt="SIGNED"))
    assert (intent.psbt_base64, intent.payment_utxo_count) == (PSBT_B64, 3)
    assert body_of(router.last) == {"signedWithdrawPSBT": "SIGNED"}
    assert done.txid == TXID


async def test_withdraw_with_malformed_txid_is_a_bad_response(router: Router) -> None:
    router.json("POST", "/v1/withdraw", {"data": {"txid": "not-a-txid"}})
    async with client(router) as c:
        with pytest.raises(BadResponse) as caught:
            await c.withdraw(WithdrawSubmission(signed_withdraw_psbt="SIGNED"))
    assert caught.value.field == "txid"


@pytest.mark.parametrize("amount", [0, -5, True, 1.5])
def test_withdraw_amount_must_be_positive_sats(amount: Any) -> None:
    with pytest.raises(InvalidRequest):
        WithdrawIntentRequest(PAY, amount)


# --- single-inscription bids ----------------------------------------------------------------


async def test_inscription_bid_intent_and_placement(router: Router) -> None:
    router.json(
        "POST",
        "/v1/intent/bid",
        {
            "data": {
                "bidder": {
                    "unsignedBiddingPSBTBase64": PSBT_B64,
                    "unsignedBiddingPSBTHex": "70736274",
                    "bidderPaymentUTXOs": [],
                }
            }
        },
    )
    router.json("POST", "/v1/bid/place", {"data": {"message": "ok"}})
    intent = InscriptionBidIntentRequest(20_000, INSCRIPTION, PAY, ORD, PUBKEY)
    async with client(router) as c:
        psbt = await c.create_inscription_bid_intent(intent)
        assert body_of(router.last) == {
            "price": 20_000,
            "inscriptionId": INSCRIPTION,
            "bidderAddress": PAY,
            "bidderTokenReceiveAddress": ORD,
            "bidderPublicKey": PUBKEY,
        }
        placed = await c.place_inscription_bid(
            InscriptionBidPlacement(20_000, INSCRIPTION, PAY, ORD, signed_bidding_psbt="SIGNED")
        )
    assert (psbt.psbt_base64, psbt.psbt_hex) == (PSBT_B64, "70736274")
    assert body_of(router.last)["signedBiddingPSBT"] == "SIGNED"
    assert placed.message == "ok"


async def test_inscription_bid_psbt_from_hex_only(router: Router) -> None:
    raw = b"psbt\xff\x01\x02"
    router.json(
        "POST", "/v1/intent/bid", {"data": {"bidder": {"unsignedBiddingPSBTHex": raw.hex()}}}
    )
    async with client(router) as c:
        psbt = await c.create_inscription_bid_intent(
            InscriptionBidIntentRequest(20_000, INSCRIPTION, PAY, ORD, PUBKEY)
        )
    assert base64.b64decode(psbt.psbt_base64) == raw


async def test_inscription_bid_without_psbt_names_the_field(router: Router) -> None:
    router.json("POST", "/v1/intent/bid", {"data": {"bidder": {}}})
    async with client(router) as c:
        with pytest.raises(BadResponse) as caught:
            await c.create_inscription_bid_intent(
                InscriptionBidIntentRequest(20_000, INSCRIPTION, PAY, ORD, PUBKEY)
            )
    assert caught.value.field == "bidder.unsignedBiddingPSBTBase64"
