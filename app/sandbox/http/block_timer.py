"""`--block-interval`: a background thread that mines one block every N seconds."""

from __future__ import annotations

import logging
import threading

from app.sandbox.chain.node import Node

log = logging.getLogger(__name__)


class BlockTimer:
    """Mines a block every `interval_s` seconds until `stop()`; a failed block is logged and the
    timer keeps going (the next tick retries with the same mempool)."""

    def __init__(self, node: Node, interval_s: float) -> None:
        if interval_s <= 0:
            raise ValueError("block interval must be positive")
        self._node = node
        self._interval_s = interval_s
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="block-timer", daemon=True)
        self.blocks_mined = 0

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join()

    def _run(self) -> None:
        while not self._stopping.wait(self._interval_s):
            try:
                self._node.mine(1)
                self.blocks_mined += 1
            except Exception:
                log.exception("periodic block failed")
