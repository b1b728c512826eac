"""Speed of the served sandbox through HTTP (`bidwallet sandbox serve` in its own process,
an httpx client on loopback, one connection):
broadcasts accepted per second via `POST /esplora/tx` (1-in-2-out P2WPKH and P2TR spends,
pre-built), mining a block of 1,000 transactions via `POST /sandbox/mine`, and
`GET /esplora/address/{a}/utxo` latency with 10,000 UTXOs on one address.

Run: .venv/bin/python -m benchmarks.bench_sandbox_http [--txs 1000] [--utxos 10000]
Targets on the 2-core dev VM (the chain's, measured here with the HTTP stack on top):
>= 300 broadcasts/s, a 1,000-transaction block in < 2 s.
"""

from __future__ import annotations

import argparse
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.sandbox.txbuild import Coin, Key, P2trKey, P2wpkhKey, SignedTx, spend, split

FAN_OUT = 1000  # outputs per funding transaction (stays under the standard weight limit)
FAN_OUT_FEE = 100_000
COIN_SATS = 20_000
READY_DEADLINE_S = 30.0
RATE_CHUNK = 100


@contextmanager
def serving(data_dir: Path) -> Iterator[str]:
    """`bidwallet sandbox serve` as its own process, as the app runs it (a server in a thread of
    this process would share the client's GIL); yields its base URL once it prints `ready`."""
    process = subprocess.Popen(
        [sys.executable, "-m", "app", "sandbox", "serve", "--port", "0", "--data", str(data_dir)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()  # blocks until `ready http://...` or exit
        if not line.startswith("ready "):
            raise RuntimeError(f"the sandbox did not start: {line!r}")
        yield line.split()[1]
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=READY_DEADLINE_S)


def fund(client: httpx.Client, key: Key, count: int) -> list[Coin]:
    """`count` confirmed coins of COIN_SATS on `key`: faucet payments fanned out over HTTP."""
    coins: list[Coin] = []
    while len(coins) < count:
        n = min(FAN_OUT, count - len(coins))
        amount = n * COIN_SATS + FAN_OUT_FEE
        paid = client.post("/sandbox/faucet", json={"address": key.address, "sats": amount})
        paid.raise_for_status()
        source = Coin(paid.json()["txid"], paid.json()["vout"], amount, key)
        fan_out = spend([source], [(key.address, COIN_SATS)] * n)
        client.post("/esplora/tx", content=fan_out.hex).raise_for_status()
        coins += [Coin(fan_out.txid, vout, COIN_SATS, key) for vout in range(n)]
    client.post("/sandbox/mine", json={"blocks": 1}).raise_for_status()
    return coins


def broadcast_rate(client: httpx.Client, txs: list[SignedTx]) -> float:
    """Median rate over chunks of RATE_CHUNK broadcasts (robust to a busy neighbour)."""
    rates = []
    for first in range(0, len(txs), RATE_CHUNK):
        chunk = txs[first : first + RATE_CHUNK]
        start = time.perf_counter()
        for tx in chunk:
            client.post("/esplora/tx", content=tx.hex).raise_for_status()
        rates.append(len(chunk) / (time.perf_counter() - start))
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--txs", type=int, default=1000, help="broadcasts, half of each type")
    parser.add_argument("--utxos", type=int, default=10_000, help="UTXOs on the queried address")
    parser.add_argument("--rounds", type=int, default=15, help="UTXO queries to take the median of")
    args = parser.parse_args()

    with (
        tempfile.TemporaryDirectory(prefix="bench-sandbox-http-") as tmp,
        serving(Path(tmp) / "data") as url,
        httpx.Client(base_url=url, timeout=120) as client,
    ):
        rows = run(client, args.txs, args.utxos, args.rounds)
    width = max(len(name) for name, _ in rows)
    for name, figure in rows:
        print(f"{name:<{width}}  {figure}")


def run(client: httpx.Client, txs: int, utxo_count: int, rounds: int) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    half = txs // 2
    wpkh, tr = P2wpkhKey.from_label("bench-wpkh"), P2trKey.from_label("bench-tr")
    to_wpkh, to_tr = P2wpkhKey.from_label("bench-wpkh-to"), P2trKey.from_label("bench-tr-to")
    wpkh_txs = [split(c, to_wpkh, wpkh, 5_000, 500) for c in fund(client, wpkh, half)]
    tr_txs = [split(c, to_tr, tr, 5_000, 500) for c in fund(client, tr, txs - half)]

    rate = broadcast_rate(client, wpkh_txs)
    rows.append(("POST /esplora/tx, P2WPKH 1-in-2-out", f"{rate:,.0f} tx/s (median)"))
    rate = broadcast_rate(client, tr_txs)
    rows.append(("POST /esplora/tx, P2TR 1-in-2-out", f"{rate:,.0f} tx/s (median)"))
    batch = wpkh_txs + tr_txs
    start = time.perf_counter()
    height = client.post("/sandbox/mine", json={"blocks": 1}).json()["height"]
    elapsed = time.perf_counter() - start
    for tx in (batch[0], batch[-1]):  # the whole batch went into that one block
        assert client.get(f"/esplora/tx/{tx.txid}/status").json()["block_height"] == height
    rows.append((f"POST /sandbox/mine, a block of {len(batch)} txs", f"{elapsed:.2f} s"))

    holder = P2wpkhKey.from_label("bench-utxo-holder")
    fund(client, holder, utxo_count)
    path = f"/esplora/address/{holder.address}/utxo"
    timings = []
    for _ in range(rounds):
        start = time.perf_counter()
        response = client.get(path)
        timings.append(time.perf_counter() - start)
        assert len(response.json()) == utxo_count
    median_ms = statistics.median(timings) * 1000
    rows.append(
        (f"GET /esplora/address/{{a}}/utxo, {utxo_count:,} UTXOs", f"{median_ms:.0f} ms (median)")
    )
    return rows


if __name__ == "__main__":
    main()
