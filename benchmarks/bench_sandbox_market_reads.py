"""Speed of the sandbox's market reads through its HTTP app (in-process ASGI client: FastAPI,
validation, SQL and the JSON rows are all in the figure; no socket), on a pool of 10,000 open
bids (10 requests of 1,000 trait bids at 10 prices):

- `GET /v1/activity/bids` page 1 of 500, by price descending;
- the same, page 20 (the last 500: the deepest offset);
- `GET /v1/activity/bids` with `active=false` page 1 of 500, by createdAt;
- `GET /v1/collection-stats/floors` of the collection;
then 1,000 secure listings by 10 sandbox sellers (`POST /sandbox/market/listings`):
- the first read after them, which records each listing's collection (listing_targets);
- `GET /v1/activity/listings` page 1 of 500, by price ascending (the ask ladder).

Run: .venv/bin/python -m benchmarks.bench_sandbox_market_reads [--rounds 15] [--listings 1000]
Target: a 500-row page of 10,000 bids < 100 ms (a client pages the pool once per refresh).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from app.core.bid_request import Trait
from app.sandbox.chain.node import Node
from app.sandbox.http.app import create_app
from tests.sandbox.market.helpers import bid_body, funded_user, ok

TRAITS = tuple(Trait("Tag", f"v{i:02d}") for i in range(50))
RATE_GAP_MS = 60_000  # more than a 50-trait request's rate wait (25 s)
SLUG = "bench"


async def fill_pool(client: httpx.AsyncClient, node: Node) -> None:
    user, _ = await funded_user(client, "bench-reads", 5_000_000_000)
    for step in range(10):
        node.clock.advance(RATE_GAP_MS)
        body = bid_body(
            user, node.clock.now_ms(), slug=SLUG, traits=TRAITS, quantity=20,
            price=10_000 + 1_000 * step,
        )  # fmt: skip
        assert ok(await client.post("/v1/bid/place", json=body))["bidCount"] == 1_000


async def timed(
    client: httpx.AsyncClient, path: str, params: dict[str, Any], rounds: int, rows: int | None
) -> list[float]:
    timings = []
    for _ in range(rounds):
        start = time.perf_counter()
        response = await client.get(path, params=params)
        timings.append(time.perf_counter() - start)
        data = ok(response)
        if rows is not None:
            assert len(data["items"]) == rows and data["pagination"]["total"] == 10_000
    return timings


async def add_listings(client: httpx.AsyncClient, count: int) -> None:
    for i in range(count):
        body = {"slug": SLUG, "price": 20_000 + 100 * (i * 7919 % count), "seller": f"s{i % 10}"}
        ok(await client.post("/sandbox/market/listings", json=body))
        if i % 20 == 19:  # keep the sellers' unconfirmed chains short
            ok(await client.post("/sandbox/mine", json={"blocks": 1}))


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


async def run(rounds: int, listings: int) -> None:
    page = {"collectionSlug": SLUG, "pageSize": 500, "sortBy": "price", "sortDirection": "desc"}
    measures: list[tuple[str, list[float]]] = []
    with tempfile.TemporaryDirectory(prefix="bench-market-reads-") as tmp:
        node = Node.open(Path(tmp))
        try:
            node.create_collection(
                SLUG, "Bench", [{"trait_type": "Tag", "values": [t.value for t in TRAITS]}]
            )
            transport = httpx.ASGITransport(app=create_app(node))
            async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
                await fill_pool(client, node)
                bids, floors = "/v1/activity/bids", "/v1/collection-stats/floors"
                cases: list[tuple[str, str, dict[str, Any], int | None]] = [
                    ("/activity/bids page 1 of 500, price desc", bids, page, 500),
                    ("/activity/bids page 20 of 500, price desc", bids, {**page, "page": 20}, 500),
                    (
                        "/activity/bids active=false, createdAt",
                        bids,
                        {**page, "active": "false", "sortBy": "createdAt"},
                        500,
                    ),
                    (
                        "/collection-stats/floors, one slug",
                        floors,
                        {"type": "ordinals", "slugs": SLUG},
                        None,
                    ),
                ]
                for name, path, params, rows in cases:
                    measures.append((name, await timed(client, path, params, rounds, rows)))
                if listings:
                    await add_listings(client, listings)
                    asks = {**page, "sortDirection": "asc"}
                    path = "/v1/activity/listings"
                    first = await timed(client, path, {**asks, "pageSize": 1}, 1, None)
                    measures.append((f"first read after {listings:,} listings", first))
                    name = f"/activity/listings page 1 of 500 ({listings:,})"
                    measures.append((name, await timed(client, path, asks, rounds, None)))
        finally:
            node.close()
    print(f"{'measure (10,000 open bids)':<48} {'median':>11} {'min':>11} {'max':>11}")
    for name, timings in measures:
        print(
            f"{name:<48} {_ms(statistics.median(timings))} {_ms(min(timings))} {_ms(max(timings))}"
        )
    print(f"(rounds: {rounds}; target: a 500-row page < 100 ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--listings", type=int, default=1_000)
    args = parser.parse_args()
    asyncio.run(run(args.rounds, args.listings))


if __name__ == "__main__":
    main()
