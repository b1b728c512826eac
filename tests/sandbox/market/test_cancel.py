"""GET /v1/challenge, GET /v1/challenge/verify and POST /v1/cancel."""

from __future__ import annotations

import httpx

from app.sandbox.market.challenge import CHALLENGE_TTL_MS
from app.wallet.message import MessageScheme, sign_message
from tests.sandbox.market.helpers import (
    User,
    advance,
    bid_body,
    cancel_credential,
    error,
    funded_user,
    now_ms,
    ok,
    open_bids,
    place,
)


async def user_with_bids(
    client: httpx.AsyncClient, label: str, quantity: int
) -> tuple[User, list[str]]:
    user, _ = await funded_user(client, label, 500_000)
    ids: list[str] = ok(
        await place(client, bid_body(user, await now_ms(client), quantity=quantity))
    )["bidIds"]
    return user, ids


def cancel_body(user: User, signature: str, ids: list[str]) -> dict[str, object]:
    body: dict[str, object] = {"makerAddress": user.ordinals.address, "orderType": "bid"}
    body["signature"] = signature
    if len(ids) == 1:
        body["_id"] = ids[0]
    else:
        body["_ids"], body["multiple"] = ids, True
    return body


async def test_challenge_verify_gives_validity_and_the_key(client: httpx.AsyncClient) -> None:
    user = User.make("cancel-verify")
    address = user.ordinals.address
    challenge = ok(await client.get("/v1/challenge", params={"address": address}))
    assert address in challenge["challenge"]
    assert challenge["expiresAt"] == await now_ms(client) + CHALLENGE_TTL_MS
    signature = sign_message(user.ordinals, challenge["challenge"]).signature
    verdict = ok(
        await client.get(
            "/v1/challenge/verify", params={"address": address, "signature": signature}
        )
    )
    # A P2TR signature shows the output key (x-only), which is in the address.
    assert verdict == {"validity": True, "publicKey": user.ordinals.public.output_key.hex()}
    other = sign_message(
        User.make("cancel-verify-other").ordinals, challenge["challenge"]
    ).signature
    verdict = ok(
        await client.get("/v1/challenge/verify", params={"address": address, "signature": other})
    )
    assert verdict == {"validity": False, "publicKey": None}
    error(await client.get("/v1/challenge", params={"address": "nope"}), 400, "INVALID_ADDRESS")


async def test_verify_recovers_a_bip137_key(client: httpx.AsyncClient) -> None:
    user = User.make("cancel-verify-137")
    address = user.payment.address  # a P2WPKH address can sign BIP-137 too
    text = ok(await client.get("/v1/challenge", params={"address": address}))["challenge"]
    signature = sign_message(user.payment, text, MessageScheme.BIP137).signature
    verdict = ok(
        await client.get(
            "/v1/challenge/verify", params={"address": address, "signature": signature}
        )
    )
    assert verdict == {"validity": True, "publicKey": user.pubkey_hex}


async def test_cancel_one_and_several_reports_each_id(client: httpx.AsyncClient) -> None:
    user, ids = await user_with_bids(client, "cancel-some", 4)
    signature = await cancel_credential(client, user)
    result = ok(await client.post("/v1/cancel", json=cancel_body(user, signature, ids[:1])))
    assert result["success"] is True
    assert (result["successCount"], result["failedCount"]) == (1, 0)
    assert result["summary"] == [{"id": ids[0], "success": True}]
    # The same credential is reusable until it expires; an already cancelled and an unknown
    # id are reported as failed.
    unknown = "f" * 24
    result = ok(
        await client.post("/v1/cancel", json=cancel_body(user, signature, [*ids[:3], unknown]))
    )
    assert result["cancelledIds"] == ids[1:3]
    assert result["failedIds"] == [ids[0], unknown]
    assert (result["success"], result["successCount"], result["failedCount"]) == (False, 2, 2)
    assert [e["bid_id"]["$oid"] for e in await open_bids(client, user)] == ids[3:]


async def test_expired_credential_is_403(client: httpx.AsyncClient) -> None:
    user, ids = await user_with_bids(client, "cancel-expiry", 1)
    signature = await cancel_credential(client, user)
    await advance(client, CHALLENGE_TTL_MS - 1)
    # Still live 1 ms before expiry: verify says so (the bid itself stays open).
    params = {"address": user.ordinals.address, "signature": signature}
    verdict = ok(await client.get("/v1/challenge/verify", params=params))
    assert verdict["validity"] is True
    await advance(client, 1)
    response = await client.post("/v1/cancel", json=cancel_body(user, signature, ids))
    error(response, 403, "CANCEL_CREDENTIAL_INVALID")
    fresh = await cancel_credential(client, user)
    assert (
        ok(await client.post("/v1/cancel", json=cancel_body(user, fresh, ids)))["successCount"] == 1
    )


async def test_bad_credentials_are_403(client: httpx.AsyncClient) -> None:
    user, ids = await user_with_bids(client, "cancel-bad", 1)
    text = ok(await client.get("/v1/challenge", params={"address": user.ordinals.address}))[
        "challenge"
    ]
    by_payment_key = sign_message(user.payment, text).signature
    never_issued = sign_message(user.ordinals, text + " (edited)").signature
    for signature in (by_payment_key, never_issued, "AAAA"):
        response = await client.post("/v1/cancel", json=cancel_body(user, signature, ids))
        error(response, 403, "CANCEL_CREDENTIAL_INVALID")
    assert len(await open_bids(client, user)) == 1


async def test_bids_of_another_maker_are_403_and_nothing_is_cancelled(
    client: httpx.AsyncClient,
) -> None:
    alice, alice_ids = await user_with_bids(client, "cancel-alice", 1)
    bob, bob_ids = await user_with_bids(client, "cancel-bob", 1)
    signature = await cancel_credential(client, bob)
    response = await client.post(
        "/v1/cancel", json=cancel_body(bob, signature, [*bob_ids, *alice_ids])
    )
    body = error(response, 403, "CANCEL_NOT_MAKER")
    assert body["details"] == {"ids": alice_ids}
    assert len(await open_bids(client, alice)) == 1 and len(await open_bids(client, bob)) == 1


async def test_request_shape(client: httpx.AsyncClient) -> None:
    user, ids = await user_with_bids(client, "cancel-shape", 1)
    signature = await cancel_credential(client, user)
    body = cancel_body(user, signature, ids)
    error(await client.post("/v1/cancel", json={**body, "orderType": "ask"}), 400, "INVALID_FIELD")
    no_ids = {k: v for k, v in body.items() if k != "_id"}
    error(await client.post("/v1/cancel", json=no_ids), 400, "MISSING_FIELD")
    error(await client.post("/v1/cancel", json={**no_ids, "_ids": []}), 400, "INVALID_FIELD")
    error(await client.post("/v1/cancel", json=[body]), 400, "INVALID_FIELD")
