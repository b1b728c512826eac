"""Speed of the bid and funding use cases (app/services), client side and end to end against a
real sandbox process on loopback:

- sign + verify-own of one bid request (CPU, what runs in the executor): no trait, 3 traits,
  50 traits;
- `place_bid` end to end (pre-flight reads, signing, POST): median latency; bulk placement of
  many 1-bid requests, requests per second. Waits for the 500 ms pace are made by advancing
  the sandbox clock, so the figure is our overhead plus the service's, not the pace;
- `prepare_funding` with many UTXOs on the payment address (Esplora UTXOs, one ord answer per
  UTXO, coin selection, PSBT, review and verdict), and `execute_funding` (sign + broadcast);
- `cancel_bids` of 100 bids in one request, the challenge signed once.

Run: .venv/bin/python -m benchmarks.bench_services_bids [--rounds 15] [--bulk 50] [--utxos 100]
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from embit import bip39

from app.core.bid_request import Trait
from app.net.clients import NetClients
from app.net.config import ServiceConfig
from app.services.bidding_wallet import get_bidding_wallet
from app.services.bids import BidSpec, build_request, place_bid, place_bids, sign_bid
from app.services.cancel import cancel_bids
from app.services.context import ServiceContext
from app.services.funding import execute_funding, prepare_funding
from app.services.open_bids import fetch_open_bids
from app.services.sandbox_process import start_sandbox
from app.wallet.addresses import Network
from app.wallet.keys import MnemonicSeed, WalletKeys, derive_wallet_keys
from app.wallet.message import MessageScheme
from app.wallet.presets import get_preset


class Clock:
    """Moved only by the sleeper, like the tests' clock."""

    def __init__(self, ms: int) -> None:
        self.ms = ms

    def now_ms(self) -> int:
        return self.ms


class ClockSleeper:
    def __init__(self, http: httpx.AsyncClient, clock: Clock) -> None:
        self.http, self.clock = http, clock

    async def sleep_ms(self, ms: int) -> None:
        await self.http.post("/sandbox/clock", json={"advanceMs": ms})
        self.clock.ms += ms


def new_keys() -> WalletKeys:
    mnemonic = bip39.mnemonic_from_bytes(secrets.token_bytes(16))
    return derive_wallet_keys(MnemonicSeed(mnemonic), get_preset("leather"), Network.REGTEST)


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


async def timed(rounds: int, fn: Callable[[], Awaitable[Any]]) -> list[float]:
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        await fn()
        samples.append(time.perf_counter() - start)
    return samples


async def post(http: httpx.AsyncClient, path: str, body: dict[str, Any]) -> Any:
    response = await http.post(path, json=body)
    response.raise_for_status()
    return response.json()


def bench_signing(ctx: ServiceContext, rounds: int) -> dict[str, float]:
    keys = ctx.signing_keys()
    traits = [Trait(f"t{i}", "v") for i in range(50)]
    figures = {}
    for label, chosen in (("no trait", ()), ("3 traits", traits[:3]), ("50 traits", traits)):
        spec = BidSpec("pals", 10_000, 1, ctx.clock.now_ms() + 3_600_000, tuple(chosen))
        samples = []
        for i in range(rounds * 10):
            unsigned = build_request(ctx, spec, ctx.clock.now_ms() + i, "-")
            start = time.perf_counter()
            sign_bid(unsigned, keys.payment, MessageScheme.BIP322_SIMPLE, ctx.network)
            samples.append(time.perf_counter() - start)
        figures[f"sign + verify own, {label} (ms)"] = median_ms(samples)
    return figures


async def main(rounds: int, bulk: int, utxos: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        sandbox = await start_sandbox(Path(tmp) / "data")
        try:
            async with httpx.AsyncClient(base_url=sandbox.url, timeout=120) as http:
                info = (await http.get("/sandbox/info")).json()
                clock = Clock(info["clockMs"])
                clients = NetClients.open(ServiceConfig.sandbox(sandbox.url))
                ctx = ServiceContext(
                    clients, new_keys(), clock=clock, sleeper=ClockSleeper(http, clock)
                )
                figures = bench_signing(ctx, rounds)
                figures |= await bench_service(ctx, http, rounds, bulk, utxos)
                await clients.aclose()
        finally:
            await sandbox.stop()
    width = max(len(k) for k in figures)
    print(f"{'figure':<{width}}  median")
    for name, value in figures.items():
        print(f"{name:<{width}}  {value:,.2f}")


async def bench_service(
    ctx: ServiceContext, http: httpx.AsyncClient, rounds: int, bulk: int, utxos: int
) -> dict[str, float]:
    slug = f"bench-{secrets.token_hex(4)}"
    await post(http, "/sandbox/collections", {"slug": slug, "name": "Bench", "traits": []})
    wallet = await get_bidding_wallet(ctx)
    await post(http, "/sandbox/faucet", {"address": wallet.address, "sats": 50_000_000})
    for _ in range(utxos):
        await post(http, "/sandbox/faucet", {"address": ctx.payment_address, "sats": 20_000})
    await post(http, "/sandbox/mine", {"blocks": 1})
    figures: dict[str, float] = {}

    async def one() -> None:
        await place_bid(ctx, BidSpec.collection(slug, 1_000, 1, ctx.clock.now_ms() + 3_600_000))

    figures["place_bid end to end (ms)"] = median_ms(await timed(rounds, one))
    specs = [
        BidSpec.collection(slug, 1_000 * (i + 2), 1, ctx.clock.now_ms() + 3_600_000)
        for i in range(bulk)
    ]
    start = time.perf_counter()
    result = await place_bids(ctx, specs)
    assert len(result.placed) == bulk, result.failed
    figures[f"place_bids of {bulk}: requests/s"] = bulk / (time.perf_counter() - start)
    amount = utxos * 20_000 // 2

    async def prepare() -> None:
        await prepare_funding(ctx, amount, fee_rate=2)

    async def prepare_small() -> None:
        await prepare_funding(ctx, 30_000, fee_rate=2)

    figures[f"prepare_funding, {utxos} UTXOs, 2 needed (ms)"] = median_ms(
        await timed(max(3, rounds // 3), prepare_small)
    )
    figures[f"prepare_funding, {utxos} UTXOs, half needed (ms)"] = median_ms(
        await timed(max(3, rounds // 3), prepare)
    )
    plan = await prepare_funding(ctx, amount, fee_rate=2)
    start = time.perf_counter()
    await execute_funding(ctx, plan)
    figures[f"execute_funding, {len(plan.selection.coins)} inputs (ms)"] = (
        time.perf_counter() - start
    ) * 1000
    ids = [e.bid_id for e in await fetch_open_bids(ctx)][:100]
    start = time.perf_counter()
    report = await cancel_bids(ctx, ids)
    assert report.all_cancelled
    figures[f"cancel_bids of {len(ids)} (ms)"] = (time.perf_counter() - start) * 1000
    return figures


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--bulk", type=int, default=50)
    parser.add_argument("--utxos", type=int, default=100)
    args = parser.parse_args()
    asyncio.run(main(args.rounds, args.bulk, args.utxos))
