"""Events the chain publishes after each mempool acceptance and each connected block."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SpentOutput:
    """An output a transaction spends: `txid:vout` and its scriptPubKey."""

    outpoint: str
    script_pubkey: bytes


@dataclass(frozen=True)
class ChainEvent:
    """`kind="tx"`: `txid` entered the mempool, spending `spent` (so listeners need no lookup
    of their own). `kind="block"`: a block at `height` with hash `block_hash` was connected;
    `txids` lists its transactions (coinbase first)."""

    kind: Literal["tx", "block"]
    height: int
    txid: str | None = None
    block_hash: str | None = None
    txids: tuple[str, ...] = field(default=())
    spent: tuple[SpentOutput, ...] = field(default=())


ChainListener = Callable[[ChainEvent], None]


class EventBus:
    """Subscribers are called synchronously, in order, after the state change is committed.
    A failing subscriber is logged and does not stop the others or the chain."""

    def __init__(self) -> None:
        self._listeners: list[ChainListener] = []
        self._lock = threading.Lock()

    def subscribe(self, listener: ChainListener) -> None:
        with self._lock:
            self._listeners.append(listener)

    def unsubscribe(self, listener: ChainListener) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def publish(self, events: list[ChainEvent]) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for event in events:
            for listener in listeners:
                try:
                    listener(event)
                except Exception:
                    log.exception("chain event listener failed on %s event", event.kind)
