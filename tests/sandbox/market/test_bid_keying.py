"""`--bids-keyed-by payment`: bids are listed under the payment address that signs them and
cancelled by it (the public service does not document which address it keys bids by; the
default, the ordinals address, is what every other market test uses)."""

from __future__ import annotations

import httpx

from app.wallet.message import sign_message
from tests.sandbox.market.conftest import ClientFactory
from tests.sandbox.market.helpers import (
    User,
    advance,
    bid_body,
    error,
    funded_user,
    now_ms,
    ok,
    place,
)


async def listed(client: httpx.AsyncClient, address: str) -> list[str]:
    results = ok(await client.get("/v1/address/bids", params={"address": address}))["results"]
    return sorted(e["bid_id"]["$oid"] for e in results)  # same-millisecond bids: any order


async def credential(client: httpx.AsyncClient, user: User, payment: bool) -> tuple[str, str]:
    key = user.payment if payment else user.ordinals
    challenge = ok(await client.get("/v1/challenge", params={"address": key.address}))
    return key.address, sign_message(key, challenge["challenge"]).signature


def cancel_body(maker: str, signature: str, ids: list[str]) -> dict[str, object]:
    return {"makerAddress": maker, "orderType": "bid", "signature": signature, "_ids": ids}


async def test_payment_keyed_bids_are_listed_and_cancelled_by_the_payment_address(
    make_client: ClientFactory,
) -> None:
    client = await make_client(bids_keyed_by="payment")
    assert ok(await client.get("/sandbox/info"))["bidsKeyedBy"] == "payment"
    user, _ = await funded_user(client, "keyed-payment", 500_000)
    now = await now_ms(client)
    ids = ok(await place(client, bid_body(user, now, quantity=2)))["bidIds"]
    await advance(client, 500)
    rune = bid_body(user, now + 500, slug="SANDBOX•DEMO•RUNE", meta_type="runes", price=20_000)
    ids += ok(await place(client, rune))["bidIds"]
    assert await listed(client, user.payment.address) == sorted(ids)
    assert await listed(client, user.ordinals.address) == []

    # The ordinals address's credential is valid, but these are not its bids.
    maker, signature = await credential(client, user, payment=False)
    refused = error(
        await client.post("/v1/cancel", json=cancel_body(maker, signature, ids)),
        403,
        "CANCEL_NOT_MAKER",
    )
    assert refused["details"]["ids"] == ids
    # A credential of the payment address signed by another key is no credential at all.
    maker, _ = await credential(client, user, payment=True)
    body = cancel_body(maker, signature, ids[:1])
    error(await client.post("/v1/cancel", json=body), 403, "CANCEL_CREDENTIAL_INVALID")

    maker, signature = await credential(client, user, payment=True)
    done = ok(await client.post("/v1/cancel", json=cancel_body(maker, signature, ids)))
    assert (done["successCount"], done["failedCount"]) == (3, 0)
    assert await listed(client, user.payment.address) == []


async def test_ordinals_keying_is_the_default(make_client: ClientFactory) -> None:
    client = await make_client()
    assert ok(await client.get("/sandbox/info"))["bidsKeyedBy"] == "ordinals"
    user, _ = await funded_user(client, "keyed-ordinals", 100_000)
    ids = ok(await place(client, bid_body(user, await now_ms(client))))["bidIds"]
    assert await listed(client, user.ordinals.address) == sorted(ids)
    assert await listed(client, user.payment.address) == []
    maker, signature = await credential(client, user, payment=True)
    body = cancel_body(maker, signature, ids)
    error(await client.post("/v1/cancel", json=body), 403, "CANCEL_NOT_MAKER")
