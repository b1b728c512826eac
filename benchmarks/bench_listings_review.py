"""A bulk of 100 secure listings from the user's "review" to the reviews ready to show, against a
real sandbox process: `prepare_listings` (the bulk intent, what ord and the chain say of every
input, a sample of the live ANYONECANPAY signatures asked about, 100 reviews, the check against
the live signatures), end to end, then each part again on its own so the figure can be read.

Each round lists 100 new inscriptions of a fresh key. With --sign (the default) each round's
listings are then signed and submitted, so later rounds meet a ledger holding the earlier
rounds' live signatures, as a seller listing in batches does.

Run: .venv/bin/python -m benchmarks.bench_listings_review [--rounds 7] [--count 100] [--no-sign]
Target on the 2-core dev VM: end to end <= 0.5 s for 100 listings (median).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

from app.net.clients import NetClients
from app.net.config import ServiceConfig
from app.services.acp_signatures import (
    forget_spent_signatures,
    ledger_of,
    refuse_live_collisions,
)
from app.services.context import ServiceContext
from app.services.listings import (
    LEDGER_SWEEP_SAMPLE,
    ListingItem,
    build_listings,
    execute_listings,
    prepare_listings,
    request_listing_psbts,
    review_listings,
)
from app.services.psbt_flow import gather_facts, input_outpoints, read_served_psbt
from benchmarks.bench_services_listings import fresh_keys, inscribe
from tests.sandbox.sandbox_process import SandboxProcess

TARGET_S = 0.5
PARTS = (
    "bulk intent (POST /intent/secure-bulk-sell)",
    "ord and chain facts of every input",
    "ledger upkeep (a sample of live signatures)",
    "reviews (one CPU pass)",
    "collision check against live signatures",
)


async def timed(samples: list[float], work: Callable[[], Awaitable[Any]]) -> Any:
    start = time.perf_counter()
    result = await work()
    samples.append(time.perf_counter() - start)
    return result


async def one_round(
    http: httpx.AsyncClient,
    url: str,
    machine: Path,
    count: int,
    sign: bool,
    figures: dict[str, list[float]],
) -> None:
    keys = fresh_keys()
    clients = NetClients.open(ServiceConfig.sandbox(url))
    try:
        ctx = ServiceContext(clients, keys, acp_ledger=ledger_of(machine))
        ids = await inscribe(http, keys.ordinals.address, count)
        items = [ListingItem(100_000 + n, i) for n, i in enumerate(ids)]
        plan = await timed(figures["end to end"], lambda: prepare_listings(ctx, items))
        assert len(plan.items) == count
        # The parts, each again on its own, on a new context (no lookups cached).
        ctx = ServiceContext(clients, keys, acp_ledger=ledger_of(machine))
        listings = build_listings(ctx, items)
        served = await timed(figures[PARTS[0]], lambda: request_listing_psbts(ctx, listings))
        outpoints = [
            o
            for s in served
            for o in input_outpoints(read_served_psbt(s.psbt_base64, "secure listing PSBT"))
        ]
        facts = await timed(figures[PARTS[1]], lambda: gather_facts(ctx, outpoints))
        await timed(
            figures[PARTS[2]], lambda: forget_spent_signatures(ctx, sample=LEDGER_SWEEP_SAMPLE)
        )
        context = ctx.review_context(facts)
        reviews = [(x, s, i.label) for i, x, s in zip(items, listings, served, strict=True)]
        planned = await timed(
            figures[PARTS[3]],
            lambda: ctx.run_cpu(review_listings, context, reviews, lambda d, t: None, None),
        )
        plans = [p.psbt for p in planned]
        await timed(figures[PARTS[4]], lambda: refuse_live_collisions(ctx, plans))
        if sign:
            done = await execute_listings(ctx, plan)
            assert len(done.listings) == count
    finally:
        await clients.aclose()


async def run(
    url: str, rounds: int, count: int, sign: bool, machine: Path
) -> dict[str, list[float]]:
    figures: dict[str, list[float]] = {"end to end": [], **{p: [] for p in PARTS}}
    async with httpx.AsyncClient(base_url=url, timeout=300) as http:
        await one_round(http, url, machine / "warm-up", 5, False, {k: [] for k in figures})
        for _ in range(rounds):
            await one_round(http, url, machine, count, sign, figures)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--no-sign", dest="sign", action="store_false")
    args = parser.parse_args()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        process = SandboxProcess(Path(tmp) / "logs", Path(tmp) / "data")
        try:
            figures = asyncio.run(run(process.url, args.rounds, args.count, args.sign, Path(tmp)))
        finally:
            process.terminate()
    load_after = os.getloadavg()
    end_to_end = statistics.median(figures["end to end"])
    verdict = "ok" if end_to_end <= TARGET_S else "OVER TARGET"
    signed = "signed and submitted after each round" if args.sign else "not signed"
    print(f"secure listings reviewed, {args.count} per round, {args.rounds} rounds ({signed})")
    print(f"  {'':46}{'median':>9}  min-max")
    for name, samples in figures.items():
        low, high = min(samples) * 1000, max(samples) * 1000
        print(f"  {name:<46}{statistics.median(samples) * 1000:7.0f}ms  {low:.0f}-{high:.0f}")
    print(f"  end to end target <= {TARGET_S * 1000:.0f} ms  {verdict}")
    print(
        "  load average before {:.2f} {:.2f} {:.2f}, after {:.2f} {:.2f} {:.2f} (2 cores)".format(
            *load_before, *load_after
        )
    )


if __name__ == "__main__":
    main()
