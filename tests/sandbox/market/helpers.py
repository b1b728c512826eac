"""Helpers for the marketplace tests: deterministic test users (keys from `app.wallet`), signed
bid bodies, and thin HTTP wrappers over the in-process sandbox."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import Any

import httpx
from embit.ec import PrivateKey

from app.core.bid_message import bid_message
from app.core.bid_request import CollectionBidRequest, Trait
from app.wallet.addresses import AddressType, KeyRole, Network
from app.wallet.keys import RoleKey, role_key_from_private
from app.wallet.message import MessageScheme, sign_message

MINUTE_MS = 60_000
PRICE = 10_000


def key_for_label(label: str) -> PrivateKey:
    return PrivateKey(hashlib.sha256(f"bidwallet-market-test:{label}".encode()).digest())


@dataclass(frozen=True, repr=False)
class User:
    """A test user: payment key (P2WPKH by default) and ordinals key (P2TR)."""

    payment: RoleKey
    ordinals: RoleKey

    @classmethod
    def make(cls, label: str, payment_type: AddressType = AddressType.P2WPKH) -> User:
        payment = role_key_from_private(
            key_for_label(f"{label}:payment"), payment_type, Network.REGTEST, KeyRole.PAYMENT
        )
        ordinals = role_key_from_private(
            key_for_label(f"{label}:ordinals"),
            AddressType.P2TR,
            Network.REGTEST,
            KeyRole.ORDINALS,
        )
        return cls(payment, ordinals)

    @property
    def pubkey_hex(self) -> str:
        return self.payment.public.public_key.hex()

    def __repr__(self) -> str:
        return f"User({self.payment.address}, {self.ordinals.address})"


def ok(response: httpx.Response, status: int = 200) -> Any:
    assert response.status_code == status, f"{response.status_code}: {response.text[:500]}"
    body = response.json()
    return body["data"] if isinstance(body, dict) and "data" in body else body


def error(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, f"{response.status_code}: {response.text[:500]}"
    body: dict[str, Any] = response.json()
    assert body["errorCode"] == code, body
    assert body["message"], body
    return body


async def now_ms(client: httpx.AsyncClient) -> int:
    clock: int = ok(await client.get("/sandbox/info"))["clockMs"]
    return clock


async def advance(client: httpx.AsyncClient, ms: int) -> None:
    ok(await client.post("/sandbox/clock", json={"advanceMs": ms}))


async def tie(client: httpx.AsyncClient, user: User, pubkey_hex: str | None = None) -> str:
    """The user's bidding-wallet address (ties the wallet on first use)."""
    params = {
        "ordinalsAddress": user.ordinals.address,
        "paymentAddress": user.payment.address,
        "paymentPubkey": pubkey_hex or user.pubkey_hex,
    }
    data = ok(await client.get("/v1/address/bidding-wallet", params=params))
    address: str = data["multiSig"]["address"]
    assert data["address"] == address
    return address


async def fund(client: httpx.AsyncClient, address: str, sats: int, mine: bool = False) -> str:
    body = ok(await client.post("/sandbox/faucet", json={"address": address, "sats": sats}))
    if mine:
        ok(await client.post("/sandbox/mine", json={"blocks": 1}))
    txid: str = body["txid"]
    return txid


async def funded_user(
    client: httpx.AsyncClient, label: str, sats: int, payment_type: AddressType = AddressType.P2WPKH
) -> tuple[User, str]:
    user = User.make(label, payment_type)
    address = await tie(client, user)
    if sats:
        await fund(client, address, sats)
    return user, address


def bid_request(
    user: User,
    now: int,
    *,
    slug: str = "pixel-punks",
    price: int = PRICE,
    quantity: int = 1,
    traits: tuple[Trait, ...] = (),
    meta_type: str = "ordinals",
    expiry_ms: int | None = None,
    timestamp: int | None = None,
    pubkey_hex: str | None = None,
) -> CollectionBidRequest:
    return CollectionBidRequest(
        price=price,
        collection_slug=slug,
        bidder_address=user.payment.address,
        bidder_address_public_key=pubkey_hex or user.pubkey_hex,
        bidder_token_receive_address=user.ordinals.address,
        quantity=quantity,
        meta_type=meta_type,
        bid_expiry=now + 20 * MINUTE_MS if expiry_ms is None else expiry_ms,
        timestamp=now if timestamp is None else timestamp,
        signed_bidding_message="",
        attributes=traits,
    )


def signed(
    req: CollectionBidRequest,
    key: RoleKey,
    message: str | None = None,
    scheme: MessageScheme | None = None,
) -> dict[str, object]:
    """The wire body of `req` signed by `key` over `message` (default: the bid message)."""
    text = bid_message(req) if message is None else message
    signature = sign_message(key, text, scheme).signature
    return replace(req, signed_bidding_message=signature).to_json()


def bid_body(user: User, now: int, **kwargs: Any) -> dict[str, object]:
    return signed(bid_request(user, now, **kwargs), user.payment)


async def place(client: httpx.AsyncClient, body: dict[str, object]) -> httpx.Response:
    return await client.post("/v1/bid/place", json=body)


async def open_bids(client: httpx.AsyncClient, user: User) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = ok(
        await client.get("/v1/address/bids", params={"address": user.ordinals.address})
    )["results"]
    return results


async def cancel_credential(client: httpx.AsyncClient, user: User) -> str:
    challenge = ok(await client.get("/v1/challenge", params={"address": user.ordinals.address}))
    return sign_message(user.ordinals, challenge["challenge"]).signature
