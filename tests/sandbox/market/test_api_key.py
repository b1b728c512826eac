"""`--api-key K`: the /v1 routes want `x-api-key: K` (401 UNAUTHORIZED otherwise); the scenario,
Esplora and ord routes stay open. Without the option any key (or none) is accepted."""

from __future__ import annotations

import httpx

from tests.sandbox.market.conftest import ClientFactory
from tests.sandbox.market.helpers import User, error, ok

KEY = "sandbox-test-key"


async def test_v1_needs_the_key_when_configured(make_client: ClientFactory) -> None:
    client = await make_client(api_key=KEY)
    user = User.make("apikey")
    params = {"address": user.ordinals.address}
    error(await client.get("/v1/address/bids", params=params), 401, "UNAUTHORIZED")
    wrong = await client.get("/v1/address/bids", params=params, headers={"x-api-key": "nope"})
    body = error(wrong, 401, "UNAUTHORIZED")
    assert KEY not in body["message"] and "nope" not in body["message"]
    error(await client.post("/v1/bid/place", json={}), 401, "UNAUTHORIZED")
    right = await client.get("/v1/address/bids", params=params, headers={"x-api-key": KEY})
    assert ok(right) == {"results": []}
    # Outside /v1: the local chain and scenario tools need no key.
    ok(await client.get("/sandbox/info"))
    assert (await client.get("/esplora/blocks/tip/height")).status_code == 200


async def test_any_key_is_accepted_by_default(client: httpx.AsyncClient) -> None:
    params = {"address": User.make("apikey-default").ordinals.address}
    for headers in ({}, {"x-api-key": "whatever"}):
        assert ok(await client.get("/v1/address/bids", params=params, headers=headers)) == {
            "results": []
        }
