"""The client's pace per service host, and waiting out a 429.

`RateLimits` holds one `HostPacer` per host (scheme, host and port) for one profile's
connection: the marketplace, Esplora and ord clients that share a host share its pacer (the
sandbox serves all three from one port). Before each request `HttpClient` awaits
`before_send()`: a slot of the host's `TokenBucket` (no bucket when the profile sets no limit).
When the service still answers 429, `wait_after_429` says how long (the service's
`retryAfterMs` or `Retry-After`, else a jittered backoff, bounded), holds the whole host that
long, and the request is sent again; past the bound the 429 reaches the caller.

Every wait worth telling (a 429, or a pace wait of `NOTICE_AFTER_S` or more) is reported to the
listeners as a `RateLimitWait`, so the window can say "waiting for the service's rate limit"
instead of looking stuck.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from enum import StrEnum
from typing import Final
from urllib.parse import urlsplit

import httpx

from app.core.rate_limit import RateLimit, TokenBucket, rate_limited_wait_s
from app.net.fields import loads_json

__all__ = [
    "HostPacer",
    "RateLimitWait",
    "RateLimits",
    "WaitCause",
    "host_of",
    "service_wait_s",
]

NOTICE_AFTER_S: Final = 0.5
log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[None]]
Listener = Callable[["RateLimitWait"], None]


class WaitCause(StrEnum):
    PACE = "pace"  # our own limit for the host
    SERVICE = "service"  # the service answered 429


@dataclass(frozen=True)
class RateLimitWait:
    host: str
    seconds: float
    cause: WaitCause


def host_of(base_url: str) -> str:
    """`scheme://host:port` of a base URL: what one pacer stands for."""
    parts = urlsplit(base_url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return f"{parts.scheme}://{(parts.hostname or '').lower()}:{port}"


class HostPacer:
    """The pace of one host. `limit` None: no pace of our own, 429s are still waited out."""

    def __init__(
        self,
        host: str,
        limit: RateLimit | None,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Sleep = asyncio.sleep,
        jitter: Callable[[], float] = random.random,
        listeners: list[Listener] | None = None,
    ) -> None:
        self.host = host
        self.limit = limit
        self._bucket = TokenBucket(limit) if limit is not None else None
        self._clock = clock
        self._sleep = sleep
        self._jitter = jitter
        self._not_before = -math.inf  # a 429's hold, when there is no bucket
        self._listeners = listeners if listeners is not None else []
        self.rate_limited = 0  # 429 answers seen

    async def before_send(self) -> None:
        now = self._clock()
        if self._bucket is not None:
            wait = self._bucket.reserve(now)
        else:
            wait = max(0.0, self._not_before - now)
        if wait <= 0:
            return
        if wait >= NOTICE_AFTER_S:
            self._tell(RateLimitWait(self.host, wait, WaitCause.PACE))
        await self._sleep(wait)

    def wait_after_429(self, attempt: int, response: httpx.Response) -> float | None:
        """Seconds to hold the host before new attempt `attempt` (0-based) of a request the
        service answered 429; None: do not try again (the caller raises)."""
        self.rate_limited += 1
        wait = rate_limited_wait_s(attempt, service_wait_s(response), self._jitter())
        if wait is None:
            return None
        until = self._clock() + wait
        if self._bucket is not None:
            self._bucket.hold(until)
        self._not_before = max(self._not_before, until)
        self._tell(RateLimitWait(self.host, wait, WaitCause.SERVICE))
        return wait

    async def sleep(self, seconds: float) -> None:
        await self._sleep(seconds)

    def _tell(self, event: RateLimitWait) -> None:
        log.info("%s: waiting %.2f s (%s rate limit)", event.host, event.seconds, event.cause)
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:  # a listener's bug must not fail the request
                log.exception("rate-limit listener failed")


class RateLimits:
    """One pacer per host for one connection, all with the same limit and listeners."""

    def __init__(
        self,
        limit: RateLimit | None,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Sleep = asyncio.sleep,
        jitter: Callable[[], float] = random.random,
    ) -> None:
        self.limit = limit
        self._clock, self._sleep, self._jitter = clock, sleep, jitter
        self._pacers: dict[str, HostPacer] = {}
        self._listeners: list[Listener] = []

    def pacer(self, base_url: str) -> HostPacer:
        host = host_of(base_url)
        pacer = self._pacers.get(host)
        if pacer is None:
            pacer = self._pacers[host] = HostPacer(
                host,
                self.limit,
                clock=self._clock,
                sleep=self._sleep,
                jitter=self._jitter,
                listeners=self._listeners,
            )
        return pacer

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call `listener` on every wait worth telling; returns the unsubscribe function."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    @property
    def rate_limited(self) -> int:
        """429 answers seen on every host."""
        return sum(p.rate_limited for p in self._pacers.values())


def service_wait_s(response: httpx.Response) -> float | None:
    """The wait a 429 names: the body's `retryAfterMs` (top level, or in `details`/`data`),
    else the `Retry-After` header (seconds, or an HTTP date); None when it names none."""
    try:
        body = loads_json(response.content)
    except (ValueError, UnicodeDecodeError):
        body = None
    if isinstance(body, Mapping):
        for source in (body, body.get("details"), body.get("data")):
            value = source.get("retryAfterMs") if isinstance(source, Mapping) else None
            if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
                return float(value) / 1000
    header = response.headers.get("retry-after", "").strip()
    if not header:
        return None
    if header.isdigit():
        return float(header)
    try:
        when = parsedate_to_datetime(header)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())
