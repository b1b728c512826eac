"""The app's own marketplace client (`app.net.marketplace`) against the sandbox: every shape it
reads (data.multiSig.address, bid_id.$oid, retryAfterMs, the cancel summary, the withdraw
PSBT and txid) is what the sandbox sends, and its typed errors come out."""

from __future__ import annotations

from dataclasses import replace

import httpx
import pytest
from fastapi import FastAPI

from app.net.errors import BidRateLimited, WalletIdentityMismatch
from app.net.marketplace import MarketplaceClient
from app.net.marketplace_requests import (
    CancelRequest,
    WithdrawIntentRequest,
    WithdrawSubmission,
)
from app.sandbox.chain.node import Node
from app.wallet.message import sign_message
from app.wallet.psbt_io import parse_psbt, psbt_to_base64
from app.wallet.psbt_signer import requests_for, sign_psbt
from tests.sandbox.market.helpers import User, bid_request, fund, now_ms, signed


async def test_client_flow_against_the_sandbox(
    client: httpx.AsyncClient, frozen_node: Node, sandbox_app: FastAPI
) -> None:
    transport = httpx.ASGITransport(app=sandbox_app)
    async with MarketplaceClient("http://sandbox.test/v1", transport=transport) as market:
        await client_flow(client, market)


async def client_flow(client: httpx.AsyncClient, market: MarketplaceClient) -> None:
    user = User.make("client-compat")
    wallet = await market.get_bidding_wallet(
        user.ordinals.address, user.payment.address, user.pubkey_hex
    )
    assert wallet.user_payment_address == user.payment.address
    await fund(client, wallet.address, 100_000)
    stranger = User.make("client-compat-other")
    with pytest.raises(WalletIdentityMismatch):
        await market.get_bidding_wallet(
            stranger.ordinals.address, user.payment.address, user.pubkey_hex
        )

    req = bid_request(user, await now_ms(client), quantity=2)
    placed = await market.place_collection_bid(signed(req, user.payment))
    assert placed.message == "Successfully bid!"
    again = replace(req, price=2_000)
    with pytest.raises(BidRateLimited) as limited:
        await market.place_collection_bid(signed(again, user.payment))
    assert limited.value.retry_after_ms == 500

    entries = await market.get_bids(user.ordinals.address)
    assert [(e.type, e.price, e.collection_slug) for e in entries] == [
        ("collection", 10_000, "pixel-punks")
    ] * 2
    challenge = await market.get_challenge(user.ordinals.address)
    signature = sign_message(user.ordinals, challenge.challenge).signature
    assert (await market.verify_challenge(user.ordinals.address, signature)).valid
    result = await market.cancel(
        CancelRequest(user.ordinals.address, signature, (entries[0].bid_id,))
    )
    assert (result.success, result.success_count, result.failed_count) == (True, 1, 0)
    assert [o.bid_id for o in result.outcomes] == [entries[0].bid_id]

    intent = await market.create_withdraw_intent(
        WithdrawIntentRequest(user.payment.address, 30_000)
    )
    assert intent.payment_utxo_count == 1
    psbt = parse_psbt(intent.psbt_base64)
    sign_psbt(psbt, user.payment.private_key, requests_for(range(len(psbt.inputs)), 0x00))
    done = await market.withdraw(WithdrawSubmission(psbt_to_base64(psbt)))
    assert len(done.txid) == 64
