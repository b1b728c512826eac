"""The strategy engine against a real sandbox process on loopback (issue 17): N pools, each an
"above the top bid" strategy, ticked by hand. Waits for the 500 ms pace are made by advancing
the sandbox clock (as in the tests), so the figures are the engine's and the service's work:

- first tick (every pool placed), steady tick (market, balance and open bids read; nothing to
  do), and a tick after a rival outbids in every pool (cancel and re-place): wall ms;
- the pace: bid requests a second of simulated time against the spec's bound of 2 a second
  per receive address (100 %: the bound used exactly, never passed);
- reaction: wall ms from the start of the tick after an outbid to our new bid in the pool.

Run: .venv/bin/python -m benchmarks.bench_strategy_engine [--pools 20]
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import tempfile
import time
from pathlib import Path

import httpx

from app.core.limits import BID_RATE_INTERVAL_MS
from app.core.pools import PoolKey
from app.core.strategy_rules import AboveTopBid
from app.net.clients import NetClients
from app.net.config import ServiceConfig
from app.services.bidding_wallet import get_bidding_wallet
from app.services.context import ServiceContext
from app.services.sandbox_process import start_sandbox
from benchmarks.bench_services_bids import Clock, ClockSleeper, new_keys, post
from tests.support.strategy_engine import approve_policy, engine_for


async def rival(http: httpx.AsyncClient, slug: str, price: int) -> None:
    body = {"kind": "collection", "slug": slug, "price": price, "quantity": 1,
            "bidder": f"rival-{secrets.token_hex(6)}", "fundSats": 10_000_000}  # fmt: skip
    await post(http, "/sandbox/market/bids", body)


async def bench(http: httpx.AsyncClient, ctx: ServiceContext, pools: int, profile: Path) -> None:
    slugs = [f"eng-{secrets.token_hex(4)}" for _ in range(pools)]
    for slug in slugs:
        await post(http, "/sandbox/collections", {"slug": slug, "name": "Bench", "traits": []})
        await post(http, "/sandbox/market/floor", {"slug": slug, "price": 100_000})
        await rival(http, slug, 10_000)
    wallet = await get_bidding_wallet(ctx)
    await post(http, "/sandbox/faucet", {"address": wallet.address, "sats": 100_000_000})
    await post(http, "/sandbox/mine", {"blocks": 1})
    keys = [PoolKey(s) for s in slugs]
    budget = 3 * 51_000
    policy = approve_policy(ctx, profile, keys, 50_000, pools * budget)
    rule = AboveTopBid(max_unit_price=50_000, max_floor_percent=100)
    engine = engine_for(
        ctx, profile, policy, [(k, rule, budget) for k in keys], total=pools * budget,
        units_per_tick=pools,
    )  # fmt: skip
    await engine.start()
    figures: dict[str, str] = {}
    totals = [0, 0]  # bid requests, simulated ms the pace waited

    async def timed_tick(name: str) -> int:
        simulated = ctx.clock.now_ms()
        start = time.perf_counter()
        report = await engine.tick()
        wall = (time.perf_counter() - start) * 1000
        requests = sum(1 for r in report.results if r.action.kind != "cancel" and r.done)
        paced = ctx.clock.now_ms() - simulated
        totals[0] += requests
        totals[1] += paced
        figures[name] = f"{wall:,.0f} ms wall, {requests} bid requests, {paced:,} ms paced"
        return requests

    await timed_tick(f"first tick, {pools} pools")
    await timed_tick("steady tick")
    for slug in slugs:
        await rival(http, slug, 20_000)
    start = time.perf_counter()
    await timed_tick("after an outbid in every pool")
    per_pool = (time.perf_counter() - start) * 1000 / pools
    figures["reaction, outbid to our new bid"] = f"{per_pool:,.0f} ms a pool (mean, one tick)"
    # n requests at the bound are (n - 1) intervals of 500 ms apart: 100 % is the bound used
    # exactly; above it would break the spec's limit.
    requests, paced = totals
    share = (requests - 1) * BID_RATE_INTERVAL_MS / paced if paced else 0.0
    figures["pace: requests a second / the bound"] = f"{share:.0%} ({requests} requests)"
    width = max(len(k) for k in figures)
    for name, value in figures.items():
        print(f"{name:<{width}}  {value}")


async def run(pools: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        sandbox = await start_sandbox(Path(tmp) / "data")
        try:
            async with httpx.AsyncClient(base_url=sandbox.url, timeout=120) as http:
                clock = Clock((await http.get("/sandbox/info")).json()["clockMs"])
                clients = NetClients.open(ServiceConfig.sandbox(sandbox.url))
                ctx = ServiceContext(
                    clients, new_keys(), clock=clock, sleeper=ClockSleeper(http, clock)
                )
                await post(
                    http, "/sandbox/faucet", {"address": ctx.payment_address, "sats": 100_000}
                )
                await bench(http, ctx, pools, Path(tmp) / "profile")
                await clients.aclose()
        finally:
            await sandbox.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pools", type=int, default=20)
    args = parser.parse_args()
    asyncio.run(run(args.pools))


if __name__ == "__main__":
    main()
