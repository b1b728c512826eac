"""A busy mempool: traffic at chosen fee rates makes the fee estimates differ by target, each
the rate to outbid at that block position, the relay floor past the waiting transactions; mining
confirms the best-paying first, one block's worth at a time, and the estimates follow."""

from __future__ import annotations

import pytest

from app.sandbox.chain.consensus import MIN_RELAY_FEE_RATE
from app.sandbox.chain.errors import Conflict, InvalidRequest
from app.sandbox.chain.esplora_views import BLOCK_VBYTES
from app.sandbox.chain.node import Node
from app.sandbox.chain.traffic import MAX_MEMPOOL_VBYTES, traffic_payments


def test_traffic_takes_up_the_vbytes_asked(sandbox_node: Node) -> None:
    txids = sandbox_node.add_traffic(7.0, 250_000)
    mempool = sandbox_node._engine.mempool
    entries = [mempool.get(t) for t in txids]
    assert all(e is not None for e in entries)
    vsize = sum(e.tx.vsize for e in entries if e is not None)
    assert 245_000 <= vsize <= 255_000
    for entry in entries:
        assert entry is not None and 7.0 <= entry.fee_rate < 7.1  # the rate asked, no less
        assert entry.tx.weight <= 400_000  # standard: it relays
    sandbox_node.mine(1)
    assert not any(t in mempool for t in txids)  # a quarter block: all in the next one


def mine_what_waits(node: Node) -> None:
    """The module's tests share one node: what another left waiting (test_traffic_is_bounded
    leaves megabytes at 2 sat/vB) is confirmed first."""
    while len(node._engine.mempool):
        node.mine(1)


def test_estimates_differ_by_block_position_and_follow_mining(sandbox_node: Node) -> None:
    mine_what_waits(sandbox_node)
    assert set(sandbox_node.fee_estimates().values()) == {MIN_RELAY_FEE_RATE}  # nothing waits
    over_a_block = BLOCK_VBYTES + 50_000
    for rate in (30.0, 10.0, 3.0):
        sandbox_node.add_traffic(rate, over_a_block)
    estimates = sandbox_node.fee_estimates()
    # Block 1 is all 30s (the first one past it pays 30); block 2 holds the 30s left over and
    # the 10s, and so on; past the waiting transactions the floor is enough.
    assert round(estimates["1"]) == 30
    assert round(estimates["2"]) == 10
    assert round(estimates["3"]) == 3
    assert estimates["4"] == estimates["6"] == estimates["1008"] == MIN_RELAY_FEE_RATE
    rates = list(estimates.values())
    assert rates == sorted(rates, reverse=True)

    sandbox_node.mine(1)  # the best-paying block's worth confirms
    after = sandbox_node.fee_estimates()
    assert round(after["1"]) == 10 and round(after["2"]) == 3
    assert after["3"] == MIN_RELAY_FEE_RATE
    sandbox_node.mine(3)
    assert len(sandbox_node._engine.mempool) == 0
    assert set(sandbox_node.fee_estimates().values()) == {MIN_RELAY_FEE_RATE}


def test_traffic_is_bounded(sandbox_node: Node) -> None:
    with pytest.raises(InvalidRequest):
        sandbox_node.add_traffic(0.5, 10_000)
    with pytest.raises(InvalidRequest):
        traffic_payments(MAX_MEMPOOL_VBYTES * 10)
    sandbox_node.add_traffic(2.0, 5_000_000)
    with pytest.raises(Conflict) as caught:
        sandbox_node.add_traffic(2.0, 1_500_000)
    assert caught.value.code == "MEMPOOL_BUSY" and "mine blocks first" in caught.value.message
