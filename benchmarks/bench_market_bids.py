"""Speed of the sandbox marketplace through its HTTP app (in-process ASGI client, so FastAPI,
validation, signature checks and SQLite are all in the figure; no socket):

- latency of one 1,000-bid trait request (50 traits x quantity 20), a fresh wallet each round;
- placements per second of 1-bid requests across many wallets (sequential requests);
- `GET /v1/address/bids` latency with 10,000 open bids on one address.

Bodies are signed (BIP-322, P2WPKH) before the clock starts; the service clock is moved with
`Node.clock.advance` between rounds so the bid rate never interferes.

Run: .venv/bin/python -m benchmarks.bench_market_bids [--rounds 15] [--wallets 200]
Targets: a 1,000-bid request < 150 ms, the 10,000-bid listing < 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

import httpx

from app.core.bid_request import Trait
from app.sandbox.chain.node import Node
from app.sandbox.http.app import create_app
from tests.sandbox.market.helpers import bid_body, funded_user, ok

TRAITS = tuple(Trait("Tag", f"v{i:02d}") for i in range(50))
RATE_GAP_MS = 60_000  # more than any request's rate wait (50 traits: 25 s)


async def trait_request_latency(client: httpx.AsyncClient, node: Node, rounds: int) -> list[float]:
    timings = []
    for i in range(rounds):
        user, _ = await funded_user(client, f"bench-trait-{i}", 50_000_000)
        body = bid_body(user, node.clock.now_ms(), slug="bench", traits=TRAITS, quantity=20)
        start = time.perf_counter()
        response = await client.post("/v1/bid/place", json=body)
        timings.append(time.perf_counter() - start)
        assert ok(response)["bidCount"] == 1_000
    return timings


async def placements_per_second(client: httpx.AsyncClient, node: Node, wallets: int) -> float:
    users = [(await funded_user(client, f"bench-many-{i}", 100_000))[0] for i in range(wallets)]
    now = node.clock.now_ms()
    bodies = [bid_body(user, now) for user in users]
    start = time.perf_counter()
    for body in bodies:
        ok(await client.post("/v1/bid/place", json=body))
    return wallets / (time.perf_counter() - start)


async def listing_latency(client: httpx.AsyncClient, node: Node, rounds: int) -> list[float]:
    user, _ = await funded_user(client, "bench-list", 500_000_000)
    for _ in range(10):
        node.clock.advance(RATE_GAP_MS)
        body = bid_body(user, node.clock.now_ms(), slug="bench", traits=TRAITS, quantity=20)
        assert ok(await client.post("/v1/bid/place", json=body))["bidCount"] == 1_000
    timings = []
    params = {"address": user.ordinals.address}
    for _ in range(rounds):
        start = time.perf_counter()
        response = await client.get("/v1/address/bids", params=params)
        timings.append(time.perf_counter() - start)
        assert len(ok(response)["results"]) == 10_000
    return timings


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


async def run(rounds: int, wallets: int) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-market-") as tmp:
        node = Node.open(Path(tmp))
        try:
            node.create_collection(
                "bench", "Bench", [{"trait_type": "Tag", "values": [t.value for t in TRAITS]}]
            )
            transport = httpx.ASGITransport(app=create_app(node))
            async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
                trait = await trait_request_latency(client, node, rounds)
                rate = await placements_per_second(client, node, wallets)
                listing = await listing_latency(client, node, rounds)
        finally:
            node.close()
    print(f"{'measure':<48} {'median':>11} {'target':>10}")
    print(
        f"{'1,000-bid trait request (50 traits x 20)':<48} "
        f"{_ms(statistics.median(trait))} {'< 150 ms':>10}"
    )
    print(f"{'1-bid placements across ' + str(wallets) + ' wallets':<48} {rate:8.0f} /s {'':>10}")
    print(
        f"{'GET /v1/address/bids, 10,000 open bids':<48} "
        f"{_ms(statistics.median(listing))} {'< 100 ms':>10}"
    )
    print(
        f"(rounds: {rounds}; min/max trait {_ms(min(trait))}/{_ms(max(trait))}, "
        f"listing {_ms(min(listing))}/{_ms(max(listing))})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--wallets", type=int, default=200)
    args = parser.parse_args()
    asyncio.run(run(args.rounds, args.wallets))


if __name__ == "__main__":
    main()
