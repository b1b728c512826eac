"""Request rates: the pace a client keeps per service host, the pace a server enforces per key,
and how long to wait after a 429. Pure: callers pass the time (seconds, monotonic) and the
jitter (a number in [0, 1)).

The bucket is GCRA (the "virtual scheduling" form of a token bucket): `burst` requests may go at
once, then one every `1 / per_second` seconds. A client *reserves* a slot (`reserve`: every
caller gets its own time to send, so concurrent requests queue up in order); a server *tries*
to take one (`try_take`: refused requests do not use up the rate).

Public service: no numbers are documented; third-party clients report about 5 requests/s with
a burst of 10 per API key (`../shared/notes/satflow-api.md`, section 1), the default here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

# The most a rate setting may say: a higher number is a typo, not a plan.
MAX_PER_SECOND: Final = 1_000.0
MAX_BURST: Final = 1_000

# After a 429: at most this many new attempts of one request, each after a wait. A wait the
# service asks for beyond MAX_SERVICE_WAIT_S is not waited out: the caller hears the 429.
MAX_RATE_LIMITED_RETRIES: Final = 5
MAX_SERVICE_WAIT_S: Final = 60.0
# Without a Retry-After: 0.5 s, 1 s, 2 s, ... capped, each with "equal jitter" (half fixed,
# half random) so clients sharing a key do not retry in step.
BACKOFF_BASE_S: Final = 0.5
BACKOFF_CAP_S: Final = 8.0
# A wait the service named is lengthened by up to this share, never shortened.
SERVICE_WAIT_JITTER: Final = 0.1


_EPSILON_S: Final = 1e-9


class RateLimitError(ValueError):
    """A rate setting outside what this app accepts; the message says which bound."""


@dataclass(frozen=True)
class RateLimit:
    """At most `per_second` requests per second on average, `burst` of them at once."""

    per_second: float
    burst: int

    def __post_init__(self) -> None:
        if not (isinstance(self.per_second, int | float) and math.isfinite(self.per_second)):
            raise RateLimitError("the rate must be a number of requests per second")
        if not 0 < self.per_second <= MAX_PER_SECOND:
            raise RateLimitError(
                f"the rate must be above 0 and at most {MAX_PER_SECOND:,.0f} requests per second"
            )
        if isinstance(self.burst, bool) or not isinstance(self.burst, int):
            raise RateLimitError("the burst must be a whole number of requests")
        if not 1 <= self.burst <= MAX_BURST:
            raise RateLimitError(f"the burst must be from 1 to {MAX_BURST:,} requests")

    @property
    def interval_s(self) -> float:
        return 1.0 / self.per_second

    def __str__(self) -> str:
        return f"{self.per_second:g}/s, burst {self.burst}"

    @classmethod
    def parse(cls, text: str) -> RateLimit:
        """`"5"` (burst = twice the rate, at least 1) or `"5/10"` (rate/burst)."""
        rate_text, _, burst_text = text.strip().partition("/")
        try:
            per_second = float(rate_text)
            burst = int(burst_text) if burst_text else max(1, math.ceil(2 * per_second))
        except ValueError:
            raise RateLimitError(
                f"{text!r} is not a rate: write requests per second, optionally '/burst' "
                "(e.g. 5/10)"
            ) from None
        return cls(per_second, burst)


DEFAULT_RATE_LIMIT: Final = RateLimit(5.0, 10)


class TokenBucket:
    """One host's (client) or one key's (server) bucket. Not thread-safe: one owner."""

    def __init__(self, limit: RateLimit) -> None:
        self.limit = limit
        self._tat: float | None = None  # theoretical arrival time of the next request
        self._not_before = -math.inf  # no request before this (a 429's wait)

    def _earliest(self, now: float) -> float:
        tolerance = (self.limit.burst - 1) * self.limit.interval_s
        tat = now if self._tat is None else max(self._tat, now)
        earliest = max(now, tat - tolerance, self._not_before)
        return now if earliest - now < _EPSILON_S else earliest  # float dust is no wait

    def reserve(self, now: float) -> float:
        """Take the next slot; the seconds to wait before sending in it (0: at once)."""
        send_at = self._earliest(now)
        tat = send_at if self._tat is None else max(self._tat, send_at)
        self._tat = tat + self.limit.interval_s
        return send_at - now

    def try_take(self, now: float) -> float:
        """Take a slot if one is free now (0.0), else the seconds until one is (nothing taken)."""
        send_at = self._earliest(now)
        if send_at > now:
            return send_at - now
        self.reserve(now)
        return 0.0

    def hold(self, until: float) -> None:
        """No slot before `until` (the service said to wait)."""
        self._not_before = max(self._not_before, until)


def rate_limited_wait_s(attempt: int, service_wait_s: float | None, jitter: float) -> float | None:
    """How long to wait before new attempt number `attempt` (0 = the first retry) of a
    request the service answered 429, given the wait it named (None: it named none); None
    means give up: too many attempts, or the service asks for longer than we wait."""
    if attempt >= MAX_RATE_LIMITED_RETRIES:
        return None
    jitter = min(max(jitter, 0.0), 1.0)
    if service_wait_s is not None:
        if service_wait_s > MAX_SERVICE_WAIT_S:
            return None
        return max(0.0, service_wait_s) * (1 + SERVICE_WAIT_JITTER * jitter)
    step = min(BACKOFF_CAP_S, BACKOFF_BASE_S * 2.0**attempt)
    return step / 2 + step / 2 * jitter
