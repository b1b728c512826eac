"""Speed of the secure listing use case on 100 listings, against a real sandbox process:
`prepare_listings` (bulk intent, ord and chain facts, 100 reviews) and `execute_listings`
(100 signatures in the executor, one `POST /list/secure`); and the CPU part alone: reviewing
(`decide`) and signing (`sign_plan`) 100 listing PSBTs, without I/O.

Run: .venv/bin/python -m benchmarks.bench_services_listings [--rounds 3] [--count 100]
Target on the 2-core dev VM: each CPU step for 100 PSBTs < 1 s, the whole flow < 10 s.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import statistics
import tempfile
import time
from pathlib import Path

import httpx
from embit import bip39

from app.net.clients import NetClients
from app.net.config import ServiceConfig
from app.services.acp_signatures import ledger_of
from app.services.context import ServiceContext
from app.services.listings import ListingItem, execute_listings, prepare_listings
from app.services.psbt_flow import decide, sign_plan
from app.wallet.addresses import Network
from app.wallet.keys import MnemonicSeed, WalletKeys, derive_wallet_keys
from app.wallet.presets import get_preset
from tests.sandbox.sandbox_process import SandboxProcess


def fresh_keys() -> WalletKeys:
    mnemonic = bip39.mnemonic_from_bytes(secrets.token_bytes(16))
    return derive_wallet_keys(MnemonicSeed(mnemonic), get_preset("leather"), Network.REGTEST)


async def inscribe(http: httpx.AsyncClient, address: str, count: int) -> list[str]:
    ids = []
    for _ in range(count):
        response = await http.post("/sandbox/inscriptions", json={"address": address})
        response.raise_for_status()
        ids.append(response.json()["inscriptionId"])
    (await http.post("/sandbox/mine", json={"blocks": 1})).raise_for_status()
    return ids


def median_s(samples: list[float]) -> str:
    return f"{statistics.median(samples):8.3f} s"


async def run(url: str, rounds: int, count: int, tmp: str) -> None:
    prepare, execute, review, sign = [], [], [], []
    async with httpx.AsyncClient(base_url=url, timeout=300) as http:
        for _ in range(rounds):
            keys = fresh_keys()
            clients = NetClients.open(ServiceConfig.sandbox(url))
            ctx = ServiceContext(clients, keys, acp_ledger=ledger_of(Path(tmp) / "machine"))
            ids = await inscribe(http, keys.ordinals.address, count)
            items = [ListingItem(100_000 + n, i) for n, i in enumerate(ids)]
            start = time.perf_counter()
            plan = await prepare_listings(ctx, items)
            prepare.append(time.perf_counter() - start)
            plans = [item.psbt for item in plan.items]
            start = time.perf_counter()
            for p in plans:
                decide(p.psbt_base64, p.review.context, p.intent, p.signer, p.label)
            review.append(time.perf_counter() - start)
            start = time.perf_counter()
            ledger = ledger_of(Path(tmp) / "sign-only")  # a throwaway machine: no collisions
            for p in plans:
                sign_plan(p, keys, ledger)
            sign.append(time.perf_counter() - start)
            start = time.perf_counter()
            done = await execute_listings(ctx, plan)
            execute.append(time.perf_counter() - start)
            assert len(done.listings) == count
            await clients.aclose()
    print(f"secure listings, {count} per round, median of {rounds} rounds")
    print(f"  prepare_listings (intent + facts + reviews)   {median_s(prepare)}")
    print(f"  execute_listings (sign in executor + submit)  {median_s(execute)}")
    print(f"  decide x{count} (review + policy, CPU only)      {median_s(review)}")
    print(f"  sign_plan x{count} (sign + check, CPU only)      {median_s(sign)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--count", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        process = SandboxProcess(Path(tmp) / "logs", Path(tmp) / "data")
        try:
            asyncio.run(run(process.url, args.rounds, args.count, tmp))
        finally:
            process.terminate()


if __name__ == "__main__":
    main()
