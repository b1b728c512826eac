"""Cost of the live updates: the diff of two readings with many open bids (no change; 100
bids gone at once, 10 of them paid for by the balance's drop), and the requests and time of
one reading of a fresh wallet against a sandbox process (through a counting proxy).

Run: .venv/bin/python -m benchmarks.bench_live_updates [--bids 10000]
Both run in the executor in the app (`ctx.run_cpu`), never on the event loop.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import statistics
import tempfile
import time
from pathlib import Path

from embit import bip39

from app.core.market_events import MarketDiffer, MarketSnapshot, WatchedBid
from app.core.pools import MakerFee, PoolKey
from app.net.clients import NetClients
from app.net.config import ServiceConfig
from app.services.context import ServiceContext
from app.services.watch import REQUESTS_PER_READING, read_market
from app.wallet.addresses import Network
from app.wallet.keys import MnemonicSeed, derive_wallet_keys
from app.wallet.presets import get_preset
from tests.sandbox.sandbox_process import SandboxProcess
from tests.support.proxy import FaultProxy

FEE = MakerFee(0, 1_000)
NOW = 1_800_000_000_000


def _bids(count: int) -> list[WatchedBid]:
    return [
        WatchedBid(
            f"{i:024x}",
            f"col-{i % 40}",
            1_000 * (1 + i % 997),
            1,
            NOW * 2,
            PoolKey(f"col-{i % 40}"),
            i,
        )
        for i in range(count)
    ]


def _ms(fn: object, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def bench_diff(count: int) -> None:
    bids = _bids(count)
    balance = 10**9

    def unchanged() -> None:
        differ = MarketDiffer()
        differ.diff(MarketSnapshot(NOW, tuple(bids), balance, 10**8, FEE))
        differ.diff(MarketSnapshot(NOW, tuple(bids), balance, 10**8, FEE))

    drop = sum(b.price or 0 for b in bids[:10]) + 10 * 1_000

    def hundred_gone() -> None:
        differ = MarketDiffer()
        differ.diff(MarketSnapshot(NOW, tuple(bids), balance, 10**8, FEE))
        differ.diff(MarketSnapshot(NOW, tuple(bids[100:]), balance - drop, 10**8, FEE))

    print(f"diff, {count:,} open bids, nothing changed: {_ms(unchanged):.1f} ms (two readings)")
    print(f"diff, {count:,} open bids, 100 gone at once: {_ms(hundred_gone):.1f} ms")


async def bench_reading() -> None:
    with tempfile.TemporaryDirectory() as root:
        process = SandboxProcess(Path(root) / "logs", Path(root) / "data")
        try:
            async with FaultProxy(upstream=process.url) as proxy:
                words = bip39.mnemonic_from_bytes(secrets.token_bytes(16))
                keys = derive_wallet_keys(
                    MnemonicSeed(words), get_preset("leather"), Network.REGTEST
                )
                clients = NetClients.open(ServiceConfig.sandbox(proxy.url))
                ctx = ServiceContext(clients, keys)
                try:
                    await read_market(ctx)  # learns the bidding wallet
                    times = []
                    for _ in range(5):
                        before = len(proxy.seen)
                        start = time.perf_counter()
                        await read_market(ctx)
                        times.append((time.perf_counter() - start) * 1000)
                        requests = len(proxy.seen) - before
                finally:
                    await clients.aclose()
        finally:
            process.kill()
    print(
        f"one reading against the sandbox: {requests} requests (budgeted "
        f"{REQUESTS_PER_READING}), median {statistics.median(times):.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bids", type=int, default=10_000)
    args = parser.parse_args()
    bench_diff(args.bids)
    asyncio.run(bench_reading())


if __name__ == "__main__":
    main()
