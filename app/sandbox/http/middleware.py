"""ASGI middleware: a request-body size limit, a last-resort 500 handler and (with
`--rate-limit`) a per-key request rate, all answering with the JSON error envelope.

Starlette ships a body limiter, but it answers with plain text; ours sends the envelope and
refuses an announced oversized body before reading a byte of it.
"""

from __future__ import annotations

import logging
import math
import time

from fastapi.responses import JSONResponse
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.rate_limit import RateLimit, TokenBucket
from app.sandbox.http.errors import (
    INTERNAL_ERROR,
    PAYLOAD_TOO_LARGE,
    RATE_LIMITED,
    PayloadTooLarge,
    error_response,
)

log = logging.getLogger(__name__)


class BodyLimitMiddleware:
    """413 for bodies over `max_bytes`: at once from Content-Length, else while streaming."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        announced = Headers(scope=scope).get("content-length")
        if announced is not None and announced.isdigit() and int(announced) > self.max_bytes:
            response = error_response(
                413, PAYLOAD_TOO_LARGE, f"request body is larger than {self.max_bytes} bytes"
            )
            await response(scope, receive, send)
            return
        received = 0

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    # Reaches the envelope handler like any HTTP error (see PayloadTooLarge).
                    raise PayloadTooLarge(self.max_bytes)
            return message

        await self.app(scope, counting_receive, send)


class CatchAllMiddleware:
    """Turns an unexpected exception into 500 INTERNAL_ERROR; the traceback goes to the log only."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception:
            log.exception("unhandled error in %s %s", scope.get("method"), scope.get("path"))
            if started:
                raise  # too late for an envelope; the server closes the connection
            response = error_response(500, INTERNAL_ERROR, "internal error; see the service log")
            await response(scope, receive, send)


class RateLimitMiddleware:
    """429 RATE_LIMITED for `/v1` requests beyond `limit`, per API key (`x-api-key`; the
    client's host when there is none), with `retryAfterMs` in the body and `Retry-After` in
    the header (whole seconds, rounded up): the two ways a public service may say it. The
    scenario, Esplora and ord routes are not limited. `refused` counts the 429s sent."""

    def __init__(self, app: ASGIApp, limit: RateLimit) -> None:
        self.app = app
        self.limit = limit
        self._buckets: dict[str, TokenBucket] = {}
        self.refused = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not str(scope.get("path", "")).startswith("/v1/"):
            await self.app(scope, receive, send)
            return
        key = Headers(scope=scope).get("x-api-key") or _client_host(scope)
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self.limit)
        wait_s = bucket.try_take(time.monotonic())
        if wait_s <= 0:
            await self.app(scope, receive, send)
            return
        self.refused += 1
        retry_after_ms = max(1, math.ceil(wait_s * 1000))
        response = JSONResponse(
            {
                "errorCode": RATE_LIMITED,
                "message": f"more than {self.limit} requests for this key: retry in "
                f"{retry_after_ms} ms",
                "retryAfterMs": retry_after_ms,
            },
            status_code=429,
            headers={"Retry-After": str(math.ceil(retry_after_ms / 1000))},
        )
        await response(scope, receive, send)


def _client_host(scope: Scope) -> str:
    client = scope.get("client")
    return f"host:{client[0]}" if client else "host:unknown"
