"""The strategy engine against a real sandbox process on loopback (issue 17): N pools, each an
"above the top bid" strategy, ticked by hand. Waits for the 500 ms pace are skipped by
advancing the sandbox clock (`strategy_sandbox`: the engine clock is wall time plus the
skipped waits), so the figures are the engine's and the service's work:

- first tick (every pool placed), steady tick (market, balance and open bids read; nothing to
  do), and a tick after a rival outbids in every pool (cancel and re-place): wall ms, and the
  tick's span on the engine clock;
- the pace: bid requests a second of the engine clock, from the first request of a tick to
  its last, against the spec's bound of 2 a second per receive address (100 %: the bound
  used exactly; never above it);
- reaction: wall ms from the start of the tick after an outbid to our new bid in the pool.

The hour-long run in a moving market is `bench_strategy_hour`.

Run: .venv/bin/python -m benchmarks.bench_strategy_engine [--pools 20]
"""

from __future__ import annotations

import argparse
import asyncio
import time

from app.core.pools import PoolKey
from app.core.strategy_rules import AboveTopBid
from benchmarks.strategy_sandbox import (
    EngineSandbox,
    add_collection,
    build_engine,
    engine_sandbox,
    fund_bidding_wallet,
    new_slug,
    pace_share,
    rival,
)


async def bench(sb: EngineSandbox, pools: int) -> None:
    slugs = [new_slug("eng") for _ in range(pools)]
    for slug in slugs:
        await add_collection(sb.http, slug, floor=100_000, rival_price=10_000)
    await fund_bidding_wallet(sb, 100_000_000)
    rule = AboveTopBid(max_unit_price=50_000, max_floor_percent=100)
    engine = build_engine(sb, [(PoolKey(s), rule, 3 * 51_000) for s in slugs], units_per_tick=pools)
    await engine.start()
    figures: dict[str, str] = {}
    clock = sb.ctx.clock

    async def timed_tick(name: str) -> None:
        start_ms, start = clock.now_ms(), time.perf_counter()
        first = len(sb.pace.requests)
        await engine.tick()
        wall = (time.perf_counter() - start) * 1000
        sent = sb.pace.requests[first:]
        span = clock.now_ms() - start_ms
        pace = f", pace {pace_share(sent):.0%} of the bound" if len(sent) > 1 else ""
        figures[name] = (
            f"{wall:,.0f} ms wall, {span:,} ms engine clock, {len(sent)} bid requests{pace}"
        )

    await timed_tick(f"first tick, {pools} pools")
    await timed_tick("steady tick")
    for slug in slugs:
        await rival(sb.http, slug, 20_000)
    start = time.perf_counter()
    await timed_tick("after an outbid in every pool")
    per_pool = (time.perf_counter() - start) * 1000 / pools
    figures["reaction, outbid to our new bid"] = f"{per_pool:,.0f} ms a pool (mean, one tick)"
    width = max(len(k) for k in figures)
    for name, value in figures.items():
        print(f"{name:<{width}}  {value}")


async def run(pools: int) -> None:
    async with engine_sandbox() as sb:
        await bench(sb, pools)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pools", type=int, default=20)
    args = parser.parse_args()
    asyncio.run(run(args.pools))


if __name__ == "__main__":
    main()
