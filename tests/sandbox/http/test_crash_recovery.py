"""SIGKILL during a stream of broadcasts and mining, then restart on the same data: every
acknowledged transaction is still there, the index agrees with the chain, nothing half-applied."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from tests.sandbox.conftest import SandboxProcessFactory
from tests.sandbox.txbuild import Coin, P2wpkhKey, SignedTx, spend, split

COINS = 30
COIN_SATS = 20_000
MINES = 12
BLOCKS_PER_MINE = 3
KILL_AFTER_ACKS = 20
DEADLINE_S = 60.0


@dataclass
class Stream:
    """Two clients at once, one broadcasting, one mining, so that at the kill the server is
    almost surely in the middle of one of them. Records what was acknowledged."""

    url: str
    txs: list[SignedTx]
    acked_txids: list[str] = field(default_factory=list)
    acked_heights: list[int] = field(default_factory=list)
    enough: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self) -> list[threading.Thread]:
        threads = [
            threading.Thread(target=self._guarded, args=(self._broadcast,), daemon=True),
            threading.Thread(target=self._guarded, args=(self._mine,), daemon=True),
        ]
        for thread in threads:
            thread.start()
        return threads

    def _guarded(self, work: Callable[[httpx.Client], None]) -> None:
        try:
            with httpx.Client(base_url=self.url, timeout=DEADLINE_S) as client:
                work(client)
        except httpx.TransportError:
            pass  # the server was killed mid-stream: what was not acknowledged does not count

    def _broadcast(self, client: httpx.Client) -> None:
        for tx in self.txs:
            response = client.post("/esplora/tx", content=tx.hex)
            assert response.status_code == 200, response.text
            self._acked(self.acked_txids, tx.txid)

    def _mine(self, client: httpx.Client) -> None:
        for _ in range(MINES):
            response = client.post("/sandbox/mine", json={"blocks": BLOCKS_PER_MINE})
            assert response.status_code == 200, response.text
            self._acked(self.acked_heights, response.json()["height"])

    def _acked(self, into: list[Any], item: Any) -> None:
        with self._lock:
            into.append(item)
            if len(self.acked_txids) + len(self.acked_heights) >= KILL_AFTER_ACKS:
                self.enough.set()


def prepare_coins(client: httpx.Client, owner: P2wpkhKey) -> list[Coin]:
    """One faucet payment split into COINS confirmed coins of `owner`."""
    total = COINS * COIN_SATS + 2_000
    faucet = client.post("/sandbox/faucet", json={"address": owner.address, "sats": total}).json()
    source = Coin(faucet["txid"], faucet["vout"], total, owner)
    fan_out = spend([source], [(owner.address, COIN_SATS)] * COINS)
    assert client.post("/esplora/tx", content=fan_out.hex).status_code == 200
    assert client.post("/sandbox/mine", json={"blocks": 1}).status_code == 200
    return [Coin(fan_out.txid, vout, COIN_SATS, owner) for vout in range(COINS)]


def test_sigkill_mid_stream_loses_nothing_acknowledged(
    sandbox_process_factory: SandboxProcessFactory, tmp_path: Path
) -> None:
    data_dir = tmp_path / "data"
    owner, receiver = P2wpkhKey.from_label("crash-owner"), P2wpkhKey.from_label("crash-recv")
    first = sandbox_process_factory(data_dir=data_dir)
    with httpx.Client(base_url=first.url, timeout=DEADLINE_S) as client:
        coins = prepare_coins(client, owner)
    txs = [split(coin, receiver, owner, amount=5_000, fee=300) for coin in coins]
    stream = Stream(first.url, txs)
    threads = stream.start()
    assert stream.enough.wait(DEADLINE_S), "the stream stalled before the kill point"
    assert first.kill() == -signal.SIGKILL
    for thread in threads:
        thread.join(DEADLINE_S)
        assert not thread.is_alive()

    acked_txids, acked_heights = list(stream.acked_txids), list(stream.acked_heights)
    assert len(acked_txids) + len(acked_heights) >= KILL_AFTER_ACKS
    second = sandbox_process_factory(data_dir=data_dir)
    with httpx.Client(base_url=second.url, timeout=DEADLINE_S) as client:
        tip = int(client.get("/esplora/blocks/tip/height").text)
        assert tip >= max(acked_heights, default=0)
        for txid in acked_txids:
            status = client.get(f"/esplora/tx/{txid}/status")
            assert status.status_code == 200, f"acknowledged tx {txid} is lost"
            if status.json()["confirmed"]:
                assert status.json()["block_height"] <= tip

        present = [
            tx for tx in txs if client.get(f"/esplora/tx/{tx.txid}/status").status_code == 200
        ]
        # Acknowledged ones, plus perhaps the one in flight at the kill: a prefix of the stream.
        assert present == txs[: len(present)]
        assert len(acked_txids) <= len(present) <= len(acked_txids) + 1
        assert_index_agrees(client, owner, receiver, coins, present)

        # The recovered mempool is valid to the kernel: one more block confirms all of it.
        height = client.post("/sandbox/mine", json={"blocks": 1}).json()["height"]
        for tx in present:
            assert client.get(f"/esplora/tx/{tx.txid}/status").json()["confirmed"] is True
        assert int(client.get("/esplora/blocks/tip/height").text) == height
        assert_index_agrees(client, owner, receiver, coins, present)
    assert second.terminate() == 0


def assert_index_agrees(
    client: httpx.Client,
    owner: P2wpkhKey,
    receiver: P2wpkhKey,
    coins: list[Coin],
    present: list[SignedTx],
) -> None:
    """Esplora's UTXOs, Esplora's address sums and ord's outputs describe the same coins."""
    spent = {coin.outpoint for coin, _ in zip(coins, present, strict=False)}
    expected_owner = {c.outpoint for c in coins if c.outpoint not in spent} | {
        f"{tx.txid}:1" for tx in present
    }
    expected_receiver = {f"{tx.txid}:0" for tx in present}
    for key, expected in ((owner, expected_owner), (receiver, expected_receiver)):
        utxos = client.get(f"/esplora/address/{key.address}/utxo").json()
        assert {f"{u['txid']}:{u['vout']}" for u in utxos} == expected
        stats = client.get(f"/esplora/address/{key.address}").json()
        chain, mempool = stats["chain_stats"], stats["mempool_stats"]
        balance = (chain["funded_txo_sum"] - chain["spent_txo_sum"]) + (
            mempool["funded_txo_sum"] - mempool["spent_txo_sum"]
        )
        assert balance == sum(u["value"] for u in utxos)
        for utxo in utxos:
            output = client.get(f"/ord/output/{utxo['txid']}:{utxo['vout']}").json()
            assert (output["value"], output["address"], output["spent"]) == (
                utxo["value"],
                key.address,
                False,
            )
    for coin in coins:
        output = client.get(f"/ord/output/{coin.outpoint}").json()
        assert output["spent"] is (coin.outpoint in spent)
