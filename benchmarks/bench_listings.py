"""Speed of secure listings over HTTP (in-process ASGI app on a fresh regtest data directory):
building 100 secure listing PSBTs (`POST /v1/intent/secure-bulk-sell`) and verifying 100 signed
ones (`POST /v1/list/secure`: PSBT parsing, intent lookup, item state, signature hash type and
Bitcoin Core's interpreter per listing, then activation). Each round lists 100 new inscriptions.

Run: .venv/bin/python -m benchmarks.bench_listings [--listings 100] [--rounds 5] [--profile]
Targets on the 2-core dev VM: each under 1 s for 100 listings.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from app.sandbox.chain.node import Node
from app.sandbox.http.app import create_app
from app.wallet.addresses import Network
from app.wallet.keys import MnemonicSeed, derive_wallet_keys
from app.wallet.presets import get_preset
from app.wallet.psbt_io import parse_psbt, psbt_to_base64
from app.wallet.psbt_signer import SigningKey, requests_for, sign_psbt

MNEMONIC = " ".join(["abandon"] * 11 + ["about"])  # public test mnemonic, regtest only
TARGET_S = 1.0


async def _round(
    client: httpx.AsyncClient, node: Node, count: int, profiler: cProfile.Profile | None
) -> tuple[float, float]:
    keys = derive_wallet_keys(MnemonicSeed(MNEMONIC), get_preset("xverse-native"), Network.REGTEST)
    seller = keys.ordinals
    listings: list[dict[str, Any]] = []
    for _ in range(count):
        inscription = node.create_inscription(seller.address)["inscriptionId"]
        listings.append(
            {
                "price": 25_000,
                "inscriptionId": inscription,
                "sellerOrdAddress": seller.address,
                "sellerReceiveAddress": keys.payment.address,
                "tapInternalKey": seller.public.public_key.hex(),
            }
        )
    if profiler:
        profiler.enable()
    start = time.perf_counter()
    built = await client.post("/v1/intent/secure-bulk-sell", json={"listings": listings})
    build_s = time.perf_counter() - start
    if profiler:
        profiler.disable()
    assert built.status_code == 200, built.text
    signer = SigningKey(seller.private_key)
    signed = []
    for entry in built.json()["data"]["seller"]["secureListingPSBTs"]:
        psbt = parse_psbt(entry["base64"])
        sign_psbt(psbt, signer, requests_for(entry["indicesToSign"], 0x81))
        signed.append(psbt_to_base64(psbt))
    body = {"listings": listings, "signedSecureListingPSBTs": signed}
    if profiler:
        profiler.enable()
    start = time.perf_counter()
    listed = await client.post("/v1/list/secure", json=body)
    verify_s = time.perf_counter() - start
    if profiler:
        profiler.disable()
    assert listed.status_code == 200, listed.text
    assert len(listed.json()["data"]["listings"]) == count
    return build_s, verify_s


async def run(count: int, rounds: int, profile: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        node = Node.open(Path(tmp))
        app = create_app(node)
        profiler = cProfile.Profile() if profile else None
        transport = httpx.ASGITransport(app=app)
        try:
            async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
                await _round(client, node, 5, None)  # warm-up: imports, caches, first tables
                times = [await _round(client, node, count, profiler) for _ in range(rounds)]
        finally:
            app.state.market.close()
            node.close()
    build = statistics.median(t[0] for t in times)
    verify = statistics.median(t[1] for t in times)
    print(f"secure listings, {count} per request, median of {rounds} rounds")
    print(f"{'operation':<44}{'median':>10}{'target':>10}")
    for name, value in (
        (f"build {count} PSBTs (intent/secure-bulk-sell)", build),
        (f"verify {count} signed PSBTs (list/secure)", verify),
    ):
        verdict = "ok" if value < TARGET_S else "MISSED"
        print(f"{name:<44}{value * 1000:>8.1f}ms{TARGET_S * 1000:>8.0f}ms  {verdict}")
    if profiler:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--listings", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    asyncio.run(run(args.listings, args.rounds, args.profile))


if __name__ == "__main__":
    main()
