"""When to read the market again: how the live updates poll.

- Right after an action of ours (a bid, a cancel, a listing, a withdrawal): every `fast_ms`
  for `fast_polls` readings, since that is when fills and the pool rule's cancellations come.
- Otherwise every `base_ms`; each reading that changes nothing stretches the wait by
  `idle_growth`, up to `idle_max_ms`; a change brings it back to `base_ms`.
- After an error, exponential backoff from `base_ms`, doubling per error in a row up to
  `error_max_ms`, with "equal jitter" (half fixed, half random) so clients sharing a service
  do not retry in step; the first good reading ends it.
- Never more often than `floor_ms`: what the service host's request rate allows for a reading
  of several requests while leaving room for everything else (`floor_for_rate`).

Pure: the caller passes the jitter (a number in [0, 1)) and does the waiting.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

# The share of the host's request rate the live updates may use at most.
RATE_SHARE: Final = 0.25


@dataclass(frozen=True)
class PollTiming:
    start_ms: int = 5_000  # the first reading (the baseline): after the window's own load
    fast_ms: int = 3_000
    fast_polls: int = 5
    base_ms: int = 15_000
    idle_growth: float = 1.5
    idle_max_ms: int = 60_000
    error_max_ms: int = 300_000

    def __post_init__(self) -> None:
        if not 0 < self.fast_ms <= self.base_ms <= self.idle_max_ms <= self.error_max_ms:
            raise ValueError("poll timing must satisfy 0 < fast <= base <= idle max <= error max")
        if self.idle_growth < 1 or self.fast_polls < 0 or self.start_ms < 0:
            raise ValueError("idle growth must be at least 1, fast polls and start not negative")


def floor_for_rate(per_second: float | None, requests_per_poll: int) -> int:
    """The shortest wait between readings of `requests_per_poll` requests that keeps them
    within RATE_SHARE of a host's `per_second` (0: the host sets no pace)."""
    if per_second is None or per_second <= 0:
        return 0
    return math.ceil(requests_per_poll / (per_second * RATE_SHARE) * 1000)


class PollSchedule:
    def __init__(
        self,
        timing: PollTiming | None = None,
        *,
        floor_ms: int = 0,
        jitter: Callable[[], float] | None = None,
    ) -> None:
        self.timing = timing or PollTiming()
        self.floor_ms = max(0, floor_ms)
        self._jitter = jitter or (lambda: 0.5)
        self._idle_ms = float(self.timing.base_ms)
        self._fast_left = 0
        self.errors = 0  # errors in a row

    def _bounded(self, ms: float) -> int:
        return max(self.floor_ms, math.ceil(ms))

    def first_delay_ms(self) -> int:
        return self._bounded(self.timing.start_ms)

    def after_action(self) -> int:
        """An action of ours: read soon, and often for a while."""
        self._fast_left = self.timing.fast_polls
        self._idle_ms = float(self.timing.base_ms)
        return self._bounded(self.timing.fast_ms)

    def after_reading(self, changed: bool) -> int:
        """A reading went through; `changed`: it showed something new."""
        self.errors = 0
        t = self.timing
        if changed:
            self._idle_ms = float(t.base_ms)
        if self._fast_left > 0:
            self._fast_left -= 1
            return self._bounded(t.fast_ms)
        wait = self._idle_ms
        if not changed:
            self._idle_ms = min(float(t.idle_max_ms), self._idle_ms * t.idle_growth)
        return self._bounded(wait)

    def after_error(self) -> int:
        """A reading failed: wait longer each time in a row."""
        t = self.timing
        ceiling = min(float(t.error_max_ms), t.base_ms * 2.0**self.errors)
        self.errors += 1
        return self._bounded(ceiling / 2 + ceiling / 2 * self._jitter())
