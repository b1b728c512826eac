"""Helpers of the single-inscription bid tests: a sandbox-held inscription to bid on, a funded
bidder from `app.wallet.keys`, the intent and place bodies."""

from __future__ import annotations

import itertools
from typing import Any

import httpx

from app.sandbox.chain.node import Node
from app.wallet.keys import WalletKeys
from tests.sandbox.listings.helpers import SIGHASH_ALL, ok, sign, user

_accounts = itertools.count(10)
_owners = itertools.count(1)


def new_bidder(node: Node, fund: int | None = 500_000, preset: str = "xverse-native") -> WalletKeys:
    """A fresh test user whose payment address holds `fund` sats (unconfirmed)."""
    bidder = user(next(_accounts), preset)
    if fund:
        node.faucet(bidder.payment.address, fund)
    return bidder


def sandbox_inscription(node: Node, postage: int = 10_000) -> tuple[str, str]:
    """(inscription id, owner address) of a new inscription a sandbox key holds."""
    owner = node.sandbox_address(f"bid-seller-{next(_owners)}")
    created = node.create_inscription(owner, postage=postage)
    return created["inscriptionId"], owner


def intent_body(bidder: WalletKeys, inscription_id: str, price: int = 100_000) -> dict[str, Any]:
    return {
        "price": price,
        "inscriptionId": inscription_id,
        "bidderAddress": bidder.payment.address,
        "bidderTokenReceiveAddress": bidder.ordinals.address,
        "bidderPublicKey": bidder.payment.public.public_key.hex(),
    }


def place_body(body: dict[str, Any], signed_psbt: str) -> dict[str, Any]:
    fields = ("price", "inscriptionId", "bidderAddress", "bidderTokenReceiveAddress")
    return {name: body[name] for name in fields} | {"signedBiddingPSBT": signed_psbt}


async def open_bid(
    client: httpx.AsyncClient, bidder: WalletKeys, inscription_id: str, price: int = 100_000
) -> tuple[str, dict[str, Any]]:
    """Intent, signature with app.wallet, placement: (bid id, intent data)."""
    body = intent_body(bidder, inscription_id, price)
    data = await ok(await client.post("/v1/intent/bid", json=body))
    psbt = data["bidder"]
    signed = sign(
        psbt["unsignedBiddingPSBTBase64"], bidder.payment, psbt["indicesToSign"], SIGHASH_ALL
    )
    placed = await ok(await client.post("/v1/bid/place", json=place_body(body, signed)))
    return placed["bidId"], data


async def bid_status(client: httpx.AsyncClient, bid_id: str) -> str:
    data = await ok(await client.get(f"/v1/inscription-bids/{bid_id}"))
    status: str = data["status"]
    return status
