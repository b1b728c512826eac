"""The service clock: wall-clock time plus an offset that QA can only move forward.

Every time rule of the sandbox (block timestamps, bid expiry, listing age) reads `now_ms()`, so
`POST /sandbox/clock {"advanceMs"}` moves them all at once. The offset is persisted by the
owner through `on_change`, so a restart keeps the advanced time.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from app.sandbox.chain.errors import InvalidRequest

# A year is far more than any scenario needs; larger jumps are almost surely a unit mistake.
MAX_ADVANCE_MS = 366 * 24 * 3600 * 1000


def wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


class ServiceClock:
    """`now_ms()` = wall clock + offset. Thread-safe."""

    def __init__(
        self,
        offset_ms: int = 0,
        *,
        on_change: Callable[[int], None] | None = None,
        wall_ms: Callable[[], int] = wall_clock_ms,
    ) -> None:
        if offset_ms < 0:
            raise InvalidRequest(f"clock offset must not be negative, got {offset_ms}")
        self._offset_ms = offset_ms
        self._on_change = on_change
        self._wall_ms = wall_ms
        self._lock = threading.Lock()

    @property
    def offset_ms(self) -> int:
        return self._offset_ms

    def now_ms(self) -> int:
        return self._wall_ms() + self._offset_ms

    def advance(self, ms: int) -> int:
        """Move the clock forward by `ms` milliseconds (0 allowed); returns the new `now_ms()`.

        The new offset is handed to `on_change` (which persists it) before it takes effect, so
        a failure to persist leaves the clock unchanged.
        """
        if isinstance(ms, bool) or not isinstance(ms, int):
            raise InvalidRequest(f"advanceMs must be an integer, got {type(ms).__name__}")
        if ms < 0:
            raise InvalidRequest(f"the clock only moves forward; advanceMs={ms} is negative")
        if ms > MAX_ADVANCE_MS:
            raise InvalidRequest(f"advanceMs={ms} is more than a year ({MAX_ADVANCE_MS} ms)")
        with self._lock:
            new_offset = self._offset_ms + ms
            if self._on_change is not None:
                self._on_change(new_offset)
            self._offset_ms = new_offset
        return self.now_ms()
