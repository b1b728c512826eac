"""Chain events, the service clock and the first-start demo data."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from app.sandbox.chain.errors import ChainError, InvalidRequest
from app.sandbox.chain.events import ChainEvent
from app.sandbox.chain.node import Node
from app.sandbox.clock import ServiceClock
from app.sandbox.demo import COLLECTORS, DEMO_COLLECTIONS, DEMO_INSCRIPTIONS
from tests.sandbox.chain.helpers import KeyPair, kernel_tip


def test_events_after_acceptance_and_each_block(sandbox_node: Node) -> None:
    seen: list[ChainEvent] = []

    def failing(event: ChainEvent) -> None:
        raise RuntimeError("a broken listener must not break the chain")

    sandbox_node.subscribe(failing)
    sandbox_node.subscribe(seen.append)
    try:
        txid, _ = sandbox_node.faucet(KeyPair.make("events").address, 10_000)
        height = sandbox_node.mine(2)
    finally:
        sandbox_node.unsubscribe(failing)
        sandbox_node.unsubscribe(seen.append)
    assert [e.kind for e in seen] == ["tx", "block", "block"]
    assert seen[0].txid == txid
    assert seen[1].height == height - 1 and txid in seen[1].txids
    assert seen[2].block_hash == sandbox_node.tip_hash


def test_events_of_nested_node_calls_go_out_once_the_nodes_lock_is_free(
    sandbox_node: Node,
) -> None:
    """A listener may need a lock that another thread holds while it waits for the node (the
    market's store, whose bids read a balance from the node): an inscription's commit and
    reveal, node calls nested under one hold of its lock, announce their transactions only
    once the lock is free, so another thread can take it from a listener."""
    taken: list[bool] = []

    def take_the_lock_from_another_thread(event: ChainEvent) -> None:
        def take() -> None:
            with sandbox_node.lock:
                pass

        other = threading.Thread(target=take)
        other.start()
        other.join(timeout=30)  # a deadlock under the lock: still waiting
        taken.append(not other.is_alive())

    sandbox_node.subscribe(take_the_lock_from_another_thread)
    try:
        sandbox_node.create_inscription(KeyPair.make("nested").address)
    finally:
        sandbox_node.unsubscribe(take_the_lock_from_another_thread)
    assert len(taken) >= 2 and all(taken)  # the commit and the reveal at least


def test_clock_moves_forward_only_and_persists() -> None:
    wall = [1_000_000]
    persisted: list[int] = []
    clock = ServiceClock(500, on_change=persisted.append, wall_ms=lambda: wall[0])
    assert clock.now_ms() == 1_000_500
    assert clock.advance(60_000) == 1_060_500
    wall[0] += 10
    assert clock.now_ms() == 1_060_510 and persisted == [60_500]
    for bad in (-1, 1.5, True, 10**12):
        with pytest.raises(InvalidRequest):
            clock.advance(bad)  # type: ignore[arg-type]
    assert clock.offset_ms == 60_500


def test_clock_change_that_cannot_be_persisted_is_not_applied() -> None:
    def refuse(_: int) -> None:
        raise OSError("disk full")

    clock = ServiceClock(0, on_change=refuse, wall_ms=lambda: 0)
    with pytest.raises(OSError):
        clock.advance(5)
    assert clock.now_ms() == 0


def test_block_times_follow_the_wall_clock_not_the_service_clock(sandbox_node: Node) -> None:
    sandbox_node.clock.advance(24 * 3_600_000)
    start = int(time.time())
    sandbox_node.mine(1)
    # Bursts of blocks run a little ahead (one second per 6 blocks), never a day ahead.
    assert start - 5 <= sandbox_node._engine.tip.times[-1] <= start + 600


def test_mining_faster_than_timestamps_can_advance_is_refused(
    sandbox_node: Node, monkeypatch: pytest.MonkeyPatch
) -> None:
    frozen = float(sandbox_node._engine.tip.times[-1])
    monkeypatch.setattr(sandbox_node._engine, "wall_time", lambda: frozen)
    monkeypatch.setattr("app.sandbox.chain.engine.MAX_FUTURE_BLOCK_TIME_S", 2)
    with pytest.raises(ChainError) as caught:
        sandbox_node.mine(60)  # ~1 more second per 6 blocks: the 2 s allowance runs out
    assert caught.value.code == "MINING_TOO_FAST"
    tip = sandbox_node._engine.tip
    assert kernel_tip(sandbox_node) == (tip.height, tip.tip_hash)
    assert tip.times[-1] <= frozen + 2


def test_demo_data_on_first_start(sandbox_node: Node) -> None:
    collections = {c["slug"]: c for c in sandbox_node.collections()}
    for spec in DEMO_COLLECTIONS:
        got = collections[spec["slug"]]
        assert got["traits"] == spec["traits"] and got["name"] == spec["name"]
    assert "Ünïcødé Gold" in collections["pixel-punks"]["traits"][0]["values"]
    owned = [sandbox_node.ord_address(sandbox_node.sandbox_address(c)) for c in COLLECTORS]
    inscriptions = [i for o in owned for i in o["inscriptions"]]
    assert len(inscriptions) >= len(DEMO_INSCRIPTIONS)
    for ins_id in inscriptions:
        info = sandbox_node.ord_inscription(ins_id)
        assert info is not None and info["genesis_height"] is not None  # mined
    assert any(o["runes_balances"] for o in owned)
    assert sandbox_node.tip_height > 150


def test_sandbox_addresses_are_stable_across_restarts(tmp_path: Path) -> None:
    node = Node.open(tmp_path)
    first = (node.sandbox_address("alice"), node.sandbox_address("alice", "p2wpkh"))
    node.close()
    node = Node.open(tmp_path)
    try:
        assert (node.sandbox_address("alice"), node.sandbox_address("alice", "p2wpkh")) == first
        assert first[0].startswith("bcrt1p") and first[1].startswith("bcrt1q")
        with pytest.raises(InvalidRequest):
            node.sandbox_address("alice", "p2pkh")
    finally:
        node.close()
