"""Helpers of the secure listing tests: sellers from `app.wallet.keys` holding real
inscriptions and runes on the sandbox chain, listing bodies, signing and activation."""

from __future__ import annotations

import itertools
from typing import Any

import httpx

from app.sandbox.chain.node import Node
from app.wallet.keys import WalletKeys
from tests.sandbox.listings.helpers import SIGHASH_ALL_ANYONECANPAY, ok, sign, user

_accounts = itertools.count(40)


def new_seller(preset: str = "xverse-native") -> WalletKeys:
    return user(next(_accounts), preset)


def inscribe(node: Node, seller: WalletKeys, **kwargs: Any) -> str:
    return str(node.create_inscription(seller.ordinals.address, **kwargs)["inscriptionId"])


def listing_body(
    seller: WalletKeys,
    inscription_id: str | None = None,
    runes_output: str | None = None,
    price: int = 50_000,
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "price": price,
        "sellerOrdAddress": seller.ordinals.address,
        "sellerReceiveAddress": seller.payment.address,
        "sellerPaymentAddress": seller.payment.address,  # accepted and ignored
        "sellerPaymentPublicKey": seller.payment.public.public_key.hex(),
    }
    if inscription_id is not None:
        body["inscriptionId"] = inscription_id
    if runes_output is not None:
        body["runesOutput"] = runes_output
    if seller.ordinals.public.xonly_public_key is not None:
        body["tapInternalKey"] = seller.ordinals.public.xonly_public_key.hex()
    return body


def sign_listing(entry: dict[str, Any], seller: WalletKeys) -> str:
    return sign(entry["base64"], seller.ordinals, entry["indicesToSign"], SIGHASH_ALL_ANYONECANPAY)


async def activate(
    client: httpx.AsyncClient, seller: WalletKeys, listings: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Bulk intent, signatures, `/list/secure`: the activated listings."""
    data = await ok(await client.post("/v1/intent/secure-bulk-sell", json={"listings": listings}))
    signed = [sign_listing(e, seller) for e in data["seller"]["secureListingPSBTs"]]
    body = {"listings": listings, "signedSecureListingPSBTs": signed}
    result = await ok(await client.post("/v1/list/secure", json=body))
    created: list[dict[str, Any]] = result["listings"]
    return created


async def listing_status(client: httpx.AsyncClient, listing_id: str) -> str:
    status: str = (await ok(await client.get(f"/v1/listings/{listing_id}")))["status"]
    return status
