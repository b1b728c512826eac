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


class ChainLock:
    """The node's re-entrant lock. Events published while a thread holds it go to the
    listeners once its outermost holder releases it: a listener may take another lock (the
    market's store) that a second thread holds while it waits for this one, and calling it
    under this lock deadlocked the two (a reveal's nested faucet against the demo market's
    first bids, which read a balance from the node)."""

    def __init__(self, bus: EventBus) -> None:
        self._lock = threading.RLock()
        self._bus = bus
        self._depth = 0  # how deep the holding thread is; only it touches this and the queue
        self._queued: list[ChainEvent] = []

    def __enter__(self) -> ChainLock:
        self._lock.acquire()
        self._depth += 1
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._depth -= 1
        queued: list[ChainEvent] = []
        if self._depth == 0:
            queued, self._queued = self._queued, []
        self._lock.release()
        if queued:
            self._bus.publish(queued)

    def publish(self, events: list[ChainEvent]) -> None:
        """Now when this thread does not hold the lock, else once it lets it go."""
        with self:
            self._queued.extend(events)
