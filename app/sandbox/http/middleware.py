"""ASGI middleware: a request-body size limit and a last-resort 500 handler, both answering with
the JSON error envelope.

Starlette ships a body limiter, but it answers with plain text; ours sends the envelope and
refuses an announced oversized body before reading a byte of it.
"""

from __future__ import annotations

import logging

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.sandbox.http.errors import (
    INTERNAL_ERROR,
    PAYLOAD_TOO_LARGE,
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
