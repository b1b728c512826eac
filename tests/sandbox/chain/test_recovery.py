"""Restarts on the same data directory: resume, rebuild a dropped index, and reconcile a kernel
that is behind or ahead of SQLite (the states a SIGKILL can leave, built here on purpose)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from app.sandbox.chain.errors import StorageError
from app.sandbox.chain.node import Node
from tests.sandbox.chain.helpers import KeyPair, fund, kernel_tip

KEY = KeyPair.make("recovery", "p2tr")
OTHER = KeyPair.make("recovery-other")


def _snapshot(node: Node, txids: list[str]) -> dict[str, Any]:
    collector = node.sandbox_address("collector-1")
    return {
        "tip": (node.tip_height, node.tip_hash),
        "kernel": kernel_tip(node),
        "utxos": [node.address_utxos(a) for a in (KEY.address, OTHER.address, collector)],
        "stats": node.address_stats(KEY.address),
        "ord": [node.ord_address(a) for a in (KEY.address, collector)],
        "txs": [node.tx_json(t) for t in txids],
        "collections": node.collections(),
        "fees": node.fee_estimates(),
    }


def _busy_node(path: Path) -> tuple[Node, list[str]]:
    """A node with confirmed and unconfirmed activity, inscriptions and runes."""
    node = Node.open(path)
    utxo = fund(node, KEY, 80_000)
    txids = [
        node.broadcast(
            KEY.spend([utxo], [(OTHER.script_pubkey, 30_000), (KEY.script_pubkey, 49_000)])
        ),
        node.create_inscription(KEY.address, "ordinal-cats", {"Fur": "白"})["outpoint"][:64],
        node.create_runes(KEY.address, "SANDBOX•DEMO•RUNE", 99)["outpoint"][:64],
    ]
    node.mine(1)
    collector = node.sandbox_address("collector-1")
    txids.append(
        node.transfer_inscription(node.ord_address(collector)["inscriptions"][0], KEY.address)
    )
    txids.append(node.faucet(OTHER.address, 12_345)[0])  # stays in the mempool
    return node, txids


def test_restart_resumes_chain_mempool_and_clock(tmp_path: Path) -> None:
    node, txids = _busy_node(tmp_path)
    node.clock.advance(3_600_000)
    before = _snapshot(node, txids)
    node.close()
    node = Node.open(tmp_path)
    try:
        assert _snapshot(node, txids) == before
        assert node.clock.offset_ms == 3_600_000
        assert node.tx_status(txids[-1]) == {"confirmed": False}
        height = node.mine(1)
        assert node.tx_status(txids[-1])["block_height"] == height  # type: ignore[index]
    finally:
        node.close()


def test_dropped_index_is_rebuilt_from_the_stored_chain(tmp_path: Path) -> None:
    node, txids = _busy_node(tmp_path)
    before = _snapshot(node, txids)
    node.close()
    with sqlite3.connect(tmp_path / "sandbox.sqlite3") as conn:
        conn.execute("DROP TABLE outputs")
        conn.execute("DROP TABLE inscription_locations")
    node = Node.open(tmp_path)
    try:
        assert _snapshot(node, txids) == before
        assert node.rebuild_index() == 0  # and again at runtime, evicting nothing
        assert _snapshot(node, txids) == before
    finally:
        node.close()


def test_kernel_behind_sqlite_gets_the_stored_blocks_again(tmp_path: Path) -> None:
    node, txids = _busy_node(tmp_path)
    before = _snapshot(node, txids)
    node.close()
    shutil.rmtree(tmp_path / "kernel")  # as after a SIGKILL before the kernel flushed anything
    node = Node.open(tmp_path)
    try:
        assert kernel_tip(node) == (node.tip_height, node.tip_hash)
        assert _snapshot(node, txids) == before
        node.mine(1)
        assert kernel_tip(node) == (node.tip_height, node.tip_hash)
    finally:
        node.close()


def test_kernel_ahead_of_sqlite_is_recorded_as_mined(tmp_path: Path) -> None:
    node, txids = _busy_node(tmp_path)
    engine = node._engine
    block = engine._build_block(engine._template())
    node._kernel.submit_block(block.raw, block.hash)  # ... and the process "dies" here
    stored_tip = node.tip_height
    node.close()
    node = Node.open(tmp_path)
    try:
        assert node.tip_height == stored_tip + 1
        assert (node.tip_height, node.tip_hash) == kernel_tip(node) == (stored_tip + 1, block.hash)
        for txid in txids:
            assert node.tx_status(txid)["confirmed"] is True  # type: ignore[index]
        assert len(node._engine.mempool) == 0
    finally:
        node.close()


def test_a_second_node_on_the_same_directory_is_refused(tmp_path: Path) -> None:
    node = Node.open(tmp_path)
    try:
        with pytest.raises(StorageError) as caught:
            Node.open(tmp_path)
        assert caught.value.code == "DATA_DIR_BUSY"
        assert node.mine(1) == node.tip_height  # the first one is unaffected
    finally:
        node.close()


_CRASHING_CHILD = """
import os, signal, sys
from pathlib import Path
from app.sandbox.chain.node import Node
node = Node.open(Path(sys.argv[1]))
node.mine(5)
txid, _ = node.faucet(node.sandbox_address("crash"), 50_000)
print(node.tip_height, txid, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_sigkill_replays_only_blocks_after_the_last_checkpoint(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A real crash: the kernel loses what it had not flushed, SQLite keeps what it acknowledged."""
    import subprocess
    import sys

    child = subprocess.run(
        [sys.executable, "-c", _CRASHING_CHILD, str(tmp_path)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert child.returncode == -9, child.stderr
    height_text, txid = child.stdout.split()
    height = int(height_text)
    with caplog.at_level("WARNING", logger="app.sandbox.chain.recovery"):
        node = Node.open(tmp_path)
    try:
        assert (node.tip_height, node.tip_hash) == kernel_tip(node)
        assert node.tip_height == height
        assert node.tx_status(txid) == {"confirmed": False}
        # First start ends with a checkpoint: only the 5 later blocks are replayed.
        assert f"replayed blocks {height - 4}-{height} into the kernel" in caplog.text
    finally:
        node.close()


def test_block_taken_by_the_kernel_but_not_committed_is_caught_up_before_mining(
    sandbox_node: Node, monkeypatch: pytest.MonkeyPatch
) -> None:
    txid, _ = sandbox_node.faucet(OTHER.address, 20_000)
    engine = sandbox_node._engine

    def disk_full(raw: bytes, height: int) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(engine, "record_block", disk_full)
    with pytest.raises(OSError):
        sandbox_node.mine(1)
    monkeypatch.undo()
    assert kernel_tip(sandbox_node)[0] == sandbox_node.tip_height + 1
    height = sandbox_node.mine(1)
    assert kernel_tip(sandbox_node) == (height, sandbox_node.tip_hash)
    assert sandbox_node.tx_status(txid)["block_height"] == height - 1  # type: ignore[index]
