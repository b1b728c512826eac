"""Concurrent requests against the in-process app: the route functions run on the server's
worker threads, so these race for real. Placements never over-commit a pool and a bid is
cancelled once, however many cancels race for it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from app.sandbox.chain.node import Node
from app.sandbox.clock import wall_clock_ms
from app.sandbox.http.app import create_app
from tests.sandbox.market.conftest import asgi_client
from tests.sandbox.market.helpers import (
    bid_body,
    cancel_credential,
    funded_user,
    now_ms,
    ok,
    open_bids,
    place,
)

PLACEMENTS = 20
CANCELS = 50


class SteppingWall:
    """A wall clock that moves 600 ms on every read: more than the 500 ms bid rate, so the
    racing placements of one receive address are judged by their pools alone."""

    def __init__(self) -> None:
        self.ms = wall_clock_ms()

    def __call__(self) -> int:
        self.ms += 600
        return self.ms


@pytest.fixture
async def stepping_client(tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    node = Node.open(tmp_path / "node")
    node.clock._wall_ms = SteppingWall()  # test-only: see SteppingWall
    try:
        async with asgi_client(create_app(node)) as client:
            yield client
    finally:
        node.close()


async def test_concurrent_placements_never_over_commit_a_pool(
    stepping_client: httpx.AsyncClient,
) -> None:
    client = stepping_client
    # 50,000 sats cover exactly five bids of 9,000 + 1,000 maker fee in one pool.
    user, _ = await funded_user(client, "race-place", 50_000)
    now = await now_ms(client)
    bodies = [bid_body(user, now, price=9_000, timestamp=now + i) for i in range(PLACEMENTS)]
    responses = await asyncio.gather(*(place(client, body) for body in bodies))
    statuses = sorted(r.status_code for r in responses)
    codes = [r.json().get("errorCode") for r in responses if r.status_code != 200]
    assert statuses.count(200) == 5, [r.text for r in responses]
    assert set(codes) == {"COLLECTION_BID_POOL_INSUFFICIENT_BALANCE"}
    assert len(await open_bids(client, user)) == 5


async def test_concurrent_cancels_count_each_bid_once(client: httpx.AsyncClient) -> None:
    user, _ = await funded_user(client, "race-cancel", 200_000)
    ids = ok(await place(client, bid_body(user, await now_ms(client), quantity=10)))["bidIds"]
    signature = await cancel_credential(client, user)
    body = {"makerAddress": user.ordinals.address, "orderType": "bid", "signature": signature}
    responses = await asyncio.gather(
        *(client.post("/v1/cancel", json={**body, "_ids": ids}) for _ in range(CANCELS))
    )
    results = [ok(r) for r in responses]
    assert sum(r["successCount"] for r in results) == len(ids)
    cancelled = [bid_id for r in results for bid_id in r["cancelledIds"]]
    assert sorted(cancelled) == sorted(ids)  # each id once, across all 50 responses
    assert sum(r["failedCount"] for r in results) == len(ids) * (CANCELS - 1)
    assert await open_bids(client, user) == []
