"""`--block-interval`: the timer mines blocks on its own until stopped."""

from __future__ import annotations

import threading

import pytest

from app.sandbox.chain.events import ChainEvent
from app.sandbox.chain.node import Node
from app.sandbox.http.block_timer import BlockTimer

DEADLINE_S = 30.0


def test_timer_mines_blocks_until_stopped(sandbox_node: Node) -> None:
    start_height = sandbox_node.tip_height
    two_blocks = threading.Event()
    heights: list[int] = []

    def on_event(event: ChainEvent) -> None:
        if event.kind == "block":
            heights.append(event.height)
            if len(heights) >= 2:
                two_blocks.set()

    sandbox_node.subscribe(on_event)
    timer = BlockTimer(sandbox_node, 0.01)
    timer.start()
    try:
        assert two_blocks.wait(DEADLINE_S), "the timer mined fewer than 2 blocks in time"
    finally:
        timer.stop()
    stopped_at = sandbox_node.tip_height
    assert stopped_at >= start_height + 2
    assert heights[:2] == [start_height + 1, start_height + 2]
    assert timer.blocks_mined == stopped_at - start_height
    # Stopped means stopped: mining by hand continues from where the timer left off.
    assert sandbox_node.mine(1) == stopped_at + 1


def test_timer_rejects_a_non_positive_interval(sandbox_node: Node) -> None:
    with pytest.raises(ValueError, match="positive"):
        BlockTimer(sandbox_node, 0)
