"""POST /v1/bid/place: who signed what (spec 5.1) and the one-use rule of a signed message.

Signatures come from `app.wallet` and, for BIP-137, also from coincurve (a library the app
does not use at run time), so the verifier is not only checked against its own signer."""

from __future__ import annotations

import base64
import hashlib
import itertools
from dataclasses import replace

import coincurve
import httpx
import pytest

from app.core.bid_message import bid_message, colon_line
from app.core.bid_request import Trait
from app.wallet.addresses import AddressType
from app.wallet.message import MessageScheme
from tests.sandbox.market.helpers import (
    User,
    advance,
    bid_body,
    bid_request,
    error,
    fund,
    funded_user,
    key_for_label,
    now_ms,
    ok,
    place,
    signed,
    tie,
)

_labels = itertools.count()
TRAITS = (Trait("Hat", "Crown"), Trait("Eyes", "Laser"))


async def new_user(
    client: httpx.AsyncClient, payment_type: AddressType = AddressType.P2WPKH
) -> tuple[User, str]:
    return await funded_user(client, f"sig-{next(_labels)}", 200_000, payment_type)


@pytest.mark.parametrize(
    ("payment_type", "scheme"),
    [
        (AddressType.P2WPKH, MessageScheme.BIP322_SIMPLE),
        (AddressType.P2WPKH, MessageScheme.BIP137),
        (AddressType.P2SH_P2WPKH, MessageScheme.BIP322_SIMPLE),
        (AddressType.P2SH_P2WPKH, MessageScheme.BIP137),
        (AddressType.P2TR, MessageScheme.BIP322_SIMPLE),
        (AddressType.P2PKH, MessageScheme.BIP137),
    ],
)
async def test_payment_key_signature_of_each_kind_is_accepted(
    client: httpx.AsyncClient, payment_type: AddressType, scheme: MessageScheme
) -> None:
    user, _ = await new_user(client, payment_type)
    req = bid_request(user, await now_ms(client), traits=TRAITS)
    assert ok(await place(client, signed(req, user.payment, scheme=scheme)))["bidCount"] == 2


def coincurve_bip137(label: str, message: str) -> str:
    """BIP-137 for a P2WPKH address (header 39 + recid), signed by coincurve."""
    data = message.encode()
    size = bytes([len(data)]) if len(data) < 0xFD else b"\xfd" + len(data).to_bytes(2, "little")
    first = hashlib.sha256(b"\x18Bitcoin Signed Message:\n" + size + data).digest()
    digest = hashlib.sha256(first).digest()
    key = coincurve.PrivateKey(key_for_label(label).secret)
    recoverable = key.sign_recoverable(digest, hasher=None)
    return base64.b64encode(bytes([39 + recoverable[64]]) + recoverable[:64]).decode()


async def test_bip137_signature_made_by_coincurve(client: httpx.AsyncClient) -> None:
    label = f"sig-cc-{next(_labels)}"
    user, _ = await funded_user(client, label, 200_000)
    req = bid_request(user, await now_ms(client), traits=TRAITS)
    body = replace(
        req, signed_bidding_message=coincurve_bip137(f"{label}:payment", bid_message(req))
    )
    assert ok(await place(client, body.to_json()))["bidCount"] == 2
    # The same key over another message (another price) does not verify for this one.
    other = replace(req, price=req.price + 1_000, timestamp=req.timestamp + 1)
    forged = replace(other, signed_bidding_message=body.signed_bidding_message)
    await advance(client, 1_000)
    error(await place(client, forged.to_json()), 400, "INVALID_SIGNATURE")


async def test_signature_by_the_ordinals_address_is_refused(client: httpx.AsyncClient) -> None:
    user, _ = await new_user(client)
    req = bid_request(user, await now_ms(client))
    error(await place(client, signed(req, user.ordinals)), 400, "SIGNED_BY_ORDINALS_ADDRESS")
    trait_req = replace(req, attributes=TRAITS)
    body = signed(trait_req, user.ordinals, message=colon_line(trait_req))
    error(await place(client, body), 400, "SIGNED_BY_ORDINALS_ADDRESS")
    assert ok(await place(client, signed(req, user.payment)))["bidCount"] == 1


async def test_trait_bid_signed_over_the_colon_line_only(client: httpx.AsyncClient) -> None:
    user, _ = await new_user(client)
    req = bid_request(user, await now_ms(client), traits=TRAITS)
    body = signed(req, user.payment, message=colon_line(req))
    error(await place(client, body), 400, "COLLECTION_BID_ATTRIBUTES_NOT_SIGNED")
    assert ok(await place(client, signed(req, user.payment)))["bidCount"] == 2


async def test_a_signed_message_places_one_request(client: httpx.AsyncClient) -> None:
    user, _ = await new_user(client, AddressType.P2TR)
    req = bid_request(user, await now_ms(client))
    first = signed(req, user.payment)
    assert ok(await place(client, first))["bidCount"] == 1
    await advance(client, 1_000)  # the rate allows another bid: only the message is the reason
    error(await place(client, first), 400, "COLLECTION_BID_SIGNATURE_USED")
    again = signed(req, user.payment)  # taproot signatures are randomised: new bytes
    assert again["signedBiddingMessage"] != first["signedBiddingMessage"]
    error(await place(client, again), 400, "COLLECTION_BID_SIGNATURE_USED")
    # A new timestamp is a new message.
    fresh = bid_body(user, await now_ms(client))
    assert ok(await place(client, fresh))["bidCount"] == 1


async def test_a_refused_request_does_not_use_up_its_message(client: httpx.AsyncClient) -> None:
    user = User.make(f"sig-unfunded-{next(_labels)}")
    wallet = await tie(client, user)
    body = bid_body(user, await now_ms(client))
    error(await place(client, body), 400, "COLLECTION_BID_POOL_INSUFFICIENT_BALANCE")
    await fund(client, wallet, 50_000)
    assert ok(await place(client, body))["bidCount"] == 1


async def test_tampered_or_garbage_signatures(client: httpx.AsyncClient) -> None:
    user, _ = await new_user(client)
    body = bid_body(user, await now_ms(client))
    error(await place(client, {**body, "price": 20_000}), 400, "INVALID_SIGNATURE")
    error(await place(client, {**body, "signedBiddingMessage": "AAAA"}), 400, "INVALID_SIGNATURE")
    other = User.make("sig-someone-else")
    error(
        await place(client, signed(bid_request(user, await now_ms(client)), other.payment)),
        400,
        "INVALID_SIGNATURE",
    )


async def test_key_address_and_wallet_must_match_the_bidder(client: httpx.AsyncClient) -> None:
    user, _ = await new_user(client)
    now = await now_ms(client)
    stranger = User.make("sig-stranger")
    req = bid_request(user, now, pubkey_hex=stranger.pubkey_hex)
    body = error(await place(client, signed(req, user.payment)), 400, "PUBKEY_ADDRESS_MISMATCH")
    assert body["field"] == "bidderAddressPublicKey"
    lone = User.make(f"sig-no-wallet-{next(_labels)}")
    error(await place(client, bid_body(lone, now)), 400, "BIDDING_WALLET_NOT_FOUND")
    other_receiver = replace(
        bid_request(user, now), bidder_token_receive_address=lone.ordinals.address
    )
    error(
        await place(client, signed(other_receiver, user.payment)),
        400,
        "BIDDING_WALLET_IDENTITY_MISMATCH",
    )


async def test_taproot_payment_key_may_be_sent_xonly_in_the_bid(client: httpx.AsyncClient) -> None:
    user, _ = await new_user(client, AddressType.P2TR)
    req = bid_request(user, await now_ms(client), pubkey_hex=user.pubkey_hex[2:])
    assert ok(await place(client, signed(req, user.payment)))["bidCount"] == 1
