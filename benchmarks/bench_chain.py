"""Speed of the sandbox chain: broadcasts per second (1-in-2-out P2WPKH and P2TR spends,
pre-built, only the broadcast timed), mining a block of those 1,000 transactions, and
`address_utxos` latency with 10,000 UTXOs on one address. Also the first start of a fresh
data directory, and `create_runes` of a new rune (etched: commit, 5 blocks, reveal) and of an
etched one (sent from the sandbox's reserve by an edict), and `create_inscription` (a commit
and a reveal) and `create_inscriptions` of ten (one ord batch: one commit, one reveal).

Run: .venv/bin/python -m benchmarks.bench_chain [--txs 1000] [--utxos 10000] [--profile]
Targets on the 2-core dev VM: >= 300 broadcasts/s, a 1,000-transaction block in < 2 s,
a fresh data directory open in < 3 s.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import tempfile
import time
from pathlib import Path

from embit.ec import PrivateKey

from app.sandbox.chain.addresses import address_for_script
from app.sandbox.chain.inscribe_items import NewItem
from app.sandbox.chain.keys import script_for_key
from app.sandbox.chain.node import Node
from app.sandbox.chain.spend import Utxo, build_spend

FAN_OUT = 1000  # outputs per funding transaction: stays under the standard weight limit
FAN_OUT_FEE = 100_000
SPEND_VALUE = 20_000
SPEND_FEE = 500


def fund(node: Node, key: PrivateKey, spk: bytes, count: int, value: int) -> list[Utxo]:
    """`count` confirmed UTXOs of `value` sats on `spk` (faucet, then fan-out transactions)."""
    address = address_for_script(spk)
    assert address is not None
    utxos: list[Utxo] = []
    while len(utxos) < count:
        n = min(FAN_OUT, count - len(utxos))
        amount = n * value + FAN_OUT_FEE
        txid, vout = node.faucet(address, amount)
        raw = build_spend([Utxo(txid, vout, amount, spk)], [(spk, value)] * n, {spk: key})
        fan_txid = node.broadcast(raw)
        utxos += [Utxo(fan_txid, i, value, spk) for i in range(n)]
        if len(utxos) % 5000 == 0:
            node.mine(1)
    node.mine(1)
    return utxos


def prebuild_spends(utxos: list[Utxo], key: PrivateKey, spk: bytes) -> list[bytes]:
    pay_to = script_for_key(PrivateKey(b"\x07" * 32), "p2wpkh")
    keys = {spk: key}
    return [
        build_spend([u], [(pay_to, 9_000), (spk, u.value - 9_000 - SPEND_FEE)], keys) for u in utxos
    ]


def time_broadcasts(node: Node, raws: list[bytes], profile: bool) -> tuple[float, float]:
    """(accepted per second, median latency ms)."""
    latencies = []
    profiler = cProfile.Profile() if profile else None
    start = time.perf_counter()
    if profiler:
        profiler.enable()
    for raw in raws:
        t0 = time.perf_counter()
        node.broadcast(raw)
        latencies.append(time.perf_counter() - t0)
    if profiler:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
    elapsed = time.perf_counter() - start
    return len(raws) / elapsed, statistics.median(latencies) * 1000


def time_mine(node: Node, profile: bool) -> float:
    profiler = cProfile.Profile() if profile else None
    if profiler:
        profiler.enable()
    start = time.perf_counter()
    node.mine(1)
    elapsed = time.perf_counter() - start
    if profiler:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
    return elapsed


def time_create_runes(node: Node, count: int = 5) -> list[tuple[str, str]]:
    address = node.sandbox_address("bench-runes")
    new, sent = [], []
    for i in range(count):
        name = f"BENCH•RUNE•NUMBER•{'ABCDEFGHIJ'[i]}"
        start = time.perf_counter()
        node.create_runes(address, name, 10)
        new.append(time.perf_counter() - start)
    node.mine(1)
    for _ in range(count * 4):
        start = time.perf_counter()
        node.create_runes(address, name, 1)
        sent.append(time.perf_counter() - start)
    node.mine(1)
    return [
        (
            f"create_runes, a new rune (5 blocks), median of {count}",
            f"{statistics.median(new) * 1000:.0f} ms",
        ),
        (
            f"create_runes, an etched rune from the reserve, median of {count * 4}",
            f"{statistics.median(sent) * 1000:.1f} ms",
        ),
    ]


def time_create_inscriptions(node: Node, count: int = 40, batch: int = 10) -> list[tuple[str, str]]:
    """create_inscription (a commit and a reveal each) and a batch of `batch` (one of each)."""
    address = node.sandbox_address("bench-inscriptions")
    single, batched = [], []
    for i in range(count):
        start = time.perf_counter()
        node.create_inscription(address, "pixel-punks", {"Hat": "Cap"})
        single.append(time.perf_counter() - start)
        if i % 20 == 19:
            node.mine(1)
    items = [NewItem(address, collection_slug="pixel-punks", attributes={"Hat": "Cap"})] * batch
    for _ in range(5):
        start = time.perf_counter()
        node.create_inscriptions(items)
        batched.append(time.perf_counter() - start)
    node.mine(1)
    return [
        (
            f"create_inscription (commit + reveal), median of {count}",
            f"{statistics.median(single) * 1000:.1f} ms",
        ),
        (
            f"create_inscriptions, {batch} in one ord batch, median of 5",
            f"{statistics.median(batched) * 1000:.1f} ms",
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--txs", type=int, default=1000, help="spends per script type")
    parser.add_argument("--utxos", type=int, default=10_000, help="UTXOs on one address")
    parser.add_argument("--profile", action="store_true", help="print cProfile of timed parts")
    args = parser.parse_args()
    rows: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        opens = []
        for i in range(3):
            start = time.perf_counter()
            Node.open(Path(tmp) / f"fresh-{i}").close()
            opens.append(time.perf_counter() - start)
        rows.append(
            (
                "fresh data dir open (150 blocks + demo), median of 3",
                f"{statistics.median(opens):.2f} s",
            )
        )
        node = Node.open(Path(tmp) / "bench")
        try:
            rows.extend(time_create_runes(node))
            rows.extend(time_create_inscriptions(node))
            for kind in ("p2wpkh", "p2tr"):
                key = PrivateKey(bytes([0x11 if kind == "p2wpkh" else 0x22]) * 32)
                spk = script_for_key(key, kind)
                raws = prebuild_spends(fund(node, key, spk, args.txs, SPEND_VALUE), key, spk)
                rate, latency = time_broadcasts(node, raws, args.profile)
                rows.append((f"{kind} 1-in-2-out broadcasts accepted", f"{rate:.0f} /s"))
                rows.append((f"{kind} broadcast latency, median", f"{latency:.2f} ms"))
                seconds = time_mine(node, args.profile)
                rows.append((f"mine a block of {len(raws)} {kind} spends", f"{seconds:.3f} s"))
            key = PrivateKey(b"\x33" * 32)
            spk = script_for_key(key, "p2tr")
            fund(node, key, spk, args.utxos, 1_000)
            address = address_for_script(spk)
            assert address is not None
            runs = []
            for _ in range(7):
                start = time.perf_counter()
                utxos = node.address_utxos(address)
                runs.append(time.perf_counter() - start)
            assert len(utxos) == args.utxos
            rows.append(
                (
                    f"address_utxos with {args.utxos} UTXOs, median of 7",
                    f"{statistics.median(runs) * 1000:.1f} ms",
                )
            )
        finally:
            node.close()
    width = max(len(name) for name, _ in rows)
    print(f"{'measure':<{width}}  value")
    print(f"{'-' * width}  {'-' * 10}")
    for name, value in rows:
        print(f"{name:<{width}}  {value}")


if __name__ == "__main__":
    main()
