"""Time for the use cases: a clock to stamp requests, and a sleeper to wait between them.

Both are injected through `ServiceContext` so tests never sleep: their sleeper advances the
sandbox's service clock (`POST /sandbox/clock`) and a local clock by the same amount.

`BidPacer` keeps the spec's per-address pace (section 8): after a request of k rate units
(traits) for one bidderTokenReceiveAddress, the next one for that address waits k x 500 ms.
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol

from app.core.limits import BID_RATE_INTERVAL_MS


class Clock(Protocol):
    def now_ms(self) -> int:
        """Milliseconds since the Unix epoch, as the service will judge them."""
        ...


class Sleeper(Protocol):
    async def sleep_ms(self, ms: int) -> None:
        """Wait `ms` milliseconds (or make the world believe that much time passed)."""
        ...


class SystemClock:
    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000


class OffsetClock:
    """The system clock plus an offset that only moves forward (a service running ahead)."""

    def __init__(self, offset_ms: int = 0) -> None:
        self.offset_ms = offset_ms

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000 + self.offset_ms

    def advance(self, ms: int) -> None:
        if ms < 0:
            raise ValueError("a clock only moves forward")
        self.offset_ms += ms


class AsyncioSleeper:
    async def sleep_ms(self, ms: int) -> None:
        if ms > 0:
            await asyncio.sleep(ms / 1000)


class BidPacer:
    """Waits before each bid request so an address never bids faster than the spec allows."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._next_allowed_ms: dict[str, int] = {}

    def wait_needed_ms(self, address: str) -> int:
        next_ms = self._next_allowed_ms.get(address)
        return 0 if next_ms is None else max(0, next_ms - self._clock.now_ms())

    async def before_send(self, address: str, sleeper: Sleeper) -> None:
        """Wait (through `sleeper`) until `address` may send its next bid request."""
        wait = self.wait_needed_ms(address)
        if wait > 0:
            await sleeper.sleep_ms(wait)

    def sent(self, address: str, units: int) -> None:
        """Record a request of `units` rate units that reached the service."""
        self._next_allowed_ms[address] = self._clock.now_ms() + units * BID_RATE_INTERVAL_MS

    def service_said_wait(self, address: str, retry_after_ms: int) -> None:
        """A 429 told us how long to wait: never send before that."""
        earliest = self._clock.now_ms() + retry_after_ms
        self._next_allowed_ms[address] = max(self._next_allowed_ms.get(address, 0), earliest)
