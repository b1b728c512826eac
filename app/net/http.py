"""Shared base of the HTTP clients: one ``httpx.AsyncClient``, timeouts, API key, JSON, logging,
and the host's rate limit.

Every answer's body is read up to ``MAX_BODY_BYTES`` (decoded, so a compressed bomb is bounded
too): a larger one is a ``BodyTooLarge`` (a ``BadResponse``), read no further, so a lying or
broken server cannot fill memory.

Logging records method, path (no query string), status and latency only. Bodies are never
logged (they carry signatures and PSBTs) and neither is the API key.

Rate limits (`app/net/rate_limit.py`): every request waits for a slot of its host's pacer, and a
429 is waited out and the request sent again (a 429 means the service did not act on it),
within bounds; past them the 429 reaches the caller. A GET whose connection broke is sent
again once (it changes nothing). A caller with its own 429 rule (bid
placement re-signs each attempt, `services/bid_retry.py`) sends with
``retry_rate_limited=False``.
"""

from __future__ import annotations

import functools
import logging
import ssl
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Self
from urllib.parse import quote
from urllib.request import getproxies

import httpx

from app.net.errors import (
    BodyTooLarge,
    ConnectFailed,
    ConnectionLost,
    HttpError,
    NotFound,
    NotJson,
    RequestTimeout,
    ServerError,
    TransportError,
)
from app.net.fields import loads_json
from app.net.rate_limit import HostPacer, host_of

API_KEY_HEADER = "x-api-key"
_REDACTED = "[redacted]"

QueryParams = Mapping[str, str | int | float | bool]
# Far above any answer the clients read (a market page of 500 orders is ~0.5 MB, a batch of
# 1,000 ord outputs a few MB), far below what would strain the window's memory.
MAX_BODY_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class Timeouts:
    """Seconds. ``read`` bounds the wait for each chunk of the answer."""

    connect: float = 5.0
    read: float = 30.0
    write: float = 30.0
    pool: float = 5.0

    def to_httpx(self) -> httpx.Timeout:
        return httpx.Timeout(connect=self.connect, read=self.read, write=self.write, pool=self.pool)


ErrorFactory = Callable[[httpx.Response], Exception]


@functools.cache
def _verifying_tls() -> ssl.SSLContext:
    # httpx's own default (certifi's bundle, or SSL_CERT_FILE / SSL_CERT_DIR), built once per
    # process: reading the bundle takes 20-60 ms, and each client used to build its own.
    return httpx.create_ssl_context()


@functools.cache
def _trusting_nothing_tls() -> ssl.SSLContext:
    # Verifies certificates and host names against no trust anchor: a TLS connection made
    # with it always fails (closed, never open).
    return ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)


def tls_context_for(base_url: str) -> ssl.SSLContext:
    """The TLS context of a client of ``base_url``: the verifying one, shared by every client
    of the process; none worth building for a plain-http service (the sandbox on loopback),
    whose client sends only paths under its http base and follows no redirect, unless the
    environment names an https proxy (which the client would reach over TLS)."""
    if httpx.URL(base_url).scheme == "http" and not any(
        proxy.lower().startswith("https:") for proxy in getproxies().values()
    ):
        return _trusting_nothing_tls()
    return _verifying_tls()


def segment(value: str) -> str:
    """One path segment (an address, txid, outpoint or inscription id), quoted so that a
    hostile value cannot change the path or add a query."""
    if value in ("", ".", ".."):
        raise ValueError(f"not a usable path segment: {value!r}")
    return quote(value, safe=":")


class HttpClient:
    """An ``httpx.AsyncClient`` bound to one service's base URL.

    ``transport`` is injectable (``httpx.MockTransport`` in tests). Use as an async context
    manager or call ``aclose()``.
    """

    def __init__(
        self,
        base_url: str,
        *,
        service: str,
        api_key: str | None = None,
        timeouts: Timeouts | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        headers: Mapping[str, str] | None = None,
        pacer: HostPacer | None = None,
        max_body_bytes: int = MAX_BODY_BYTES,
    ) -> None:
        self.service = service
        self.max_body_bytes = max_body_bytes
        # Without a shared pacer: no pace of our own, 429s still waited out.
        self.pacer = pacer or HostPacer(host_of(base_url), None)
        self._api_key = api_key or None
        all_headers = dict(headers or {})
        if self._api_key is not None:
            all_headers[API_KEY_HEADER] = self._api_key
        self._log = logging.getLogger(f"app.net.{service}")
        self._client = httpx.AsyncClient(
            base_url=base_url.rstrip("/") + "/",
            headers=all_headers,
            timeout=(timeouts or Timeouts()).to_httpx(),
            transport=transport,
            follow_redirects=False,
            verify=tls_context_for(base_url),
        )

    def __repr__(self) -> str:
        # Never the key: only whether one is configured.
        key = "set" if self._api_key else "none"
        return f"<{type(self).__name__} {self.service} {self.base_url} api_key={key}>"

    @property
    def base_url(self) -> str:
        return str(self._client.base_url)

    async def aclose(self) -> None:
        await self._client.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    # --- sending ----------------------------------------------------------------------------

    async def send(
        self,
        method: str,
        path: str,
        *,
        params: QueryParams | None = None,
        json_body: Any = None,
        content: str | bytes | None = None,
        content_type: str | None = None,
        retry_rate_limited: bool = True,
        max_body_bytes: int | None = None,
    ) -> httpx.Response:
        """Send one request in a slot of the host's pace; a 429 is waited out and the request
        sent again (unless ``retry_rate_limited`` is False), within the pacer's bounds. Return
        the response whatever its status, its body read up to ``max_body_bytes`` (lower than the
        client's bound, ``self.max_body_bytes``, which None means).

        Raises a ``TransportError`` subclass when no response arrives.
        """
        headers = {"content-type": content_type} if content_type else None
        attempt = 0
        resent = False
        while True:
            await self.pacer.before_send()
            request = self._client.build_request(
                method,
                path.lstrip("/"),
                params=params,
                json=json_body,
                content=content,
                headers=headers,
            )
            try:
                response = await self._send_once(method, request, max_body_bytes)
            except ConnectionLost:
                # A GET asks, it changes nothing: sent again once when the connection broke,
                # most often a kept-alive one the server closed just as we reused it.
                if method != "GET" or resent:
                    raise
                resent = True
                continue
            if response.status_code != 429 or not retry_rate_limited:
                return response
            wait = self.pacer.wait_after_429(attempt, response)
            if wait is None:
                return response
            await response.aclose()
            await self.pacer.sleep(wait)
            attempt += 1

    async def _send_once(
        self, method: str, request: httpx.Request, max_body_bytes: int | None = None
    ) -> httpx.Response:
        log_path = request.url.path
        started = time.perf_counter()
        try:
            response = await self._client.send(request, stream=True)
            try:
                limit = min(max_body_bytes or self.max_body_bytes, self.max_body_bytes)
                await self._read_body(response, limit)
            finally:
                await response.aclose()
        except httpx.TransportError as exc:
            elapsed_ms = (time.perf_counter() - started) * 1000
            error = self._transport_error(exc, method, log_path)
            self._log.warning(
                "%s %s failed after %.1f ms: %s", method, log_path, elapsed_ms, error.reason
            )
            raise error from None
        elapsed_ms = (time.perf_counter() - started) * 1000
        level = logging.DEBUG if response.status_code < 400 else logging.INFO
        if response.status_code >= 500:
            level = logging.WARNING
        self._log.log(
            level, "%s %s -> %d in %.1f ms", method, log_path, response.status_code, elapsed_ms
        )
        return response

    async def _read_body(self, response: httpx.Response, limit: int) -> None:
        """The body, up to `limit` bytes once decoded; past that a `BodyTooLarge`."""
        path = response.request.url.path
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            raise BodyTooLarge(self.service, path, limit)
        chunks: list[bytes] = []
        size = 0
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if size > limit:
                raise BodyTooLarge(self.service, path, limit)
            chunks.append(chunk)
        # What `Response.aread()` does, with the bound: `content` and `text` read it from here.
        response._content = b"".join(chunks)

    async def get_json(
        self,
        path: str,
        *,
        params: QueryParams | None = None,
        on_error: ErrorFactory | None = None,
        max_body_bytes: int | None = None,
    ) -> Any:
        response = await self.send("GET", path, params=params, max_body_bytes=max_body_bytes)
        return self.json_or_raise(response, on_error)

    async def post_json(
        self,
        path: str,
        body: Any,
        *,
        on_error: ErrorFactory | None = None,
        retry_rate_limited: bool = True,
    ) -> Any:
        if isinstance(body, str | bytes):
            # Pre-serialised JSON is sent byte for byte (signed values stay exactly as signed).
            response = await self.send(
                "POST",
                path,
                content=body,
                content_type="application/json",
                retry_rate_limited=retry_rate_limited,
            )
        else:
            response = await self.send(
                "POST", path, json_body=body, retry_rate_limited=retry_rate_limited
            )
        return self.json_or_raise(response, on_error)

    # --- decoding ---------------------------------------------------------------------------

    def json_or_raise(self, response: httpx.Response, on_error: ErrorFactory | None) -> Any:
        if not response.is_success:
            raise (on_error or self.http_error)(response)
        return self.decode_json(response)

    def decode_json(self, response: httpx.Response) -> Any:
        try:
            return loads_json(response.content)
        except (ValueError, UnicodeDecodeError):
            kind = response.headers.get("content-type", "no content-type")
            raise NotJson(
                self.service,
                response.request.url.path,
                f"HTTP {response.status_code} body is not JSON ({kind}, "
                f"{len(response.content)} bytes)",
            ) from None

    def text_or_raise(self, response: httpx.Response, on_error: ErrorFactory | None = None) -> str:
        if not response.is_success:
            raise (on_error or self.http_error)(response)
        return response.text.strip()

    def http_error(self, response: httpx.Response) -> HttpError:
        """Generic mapping of a non-2xx response (Esplora, ord): 404, 5xx, others. The body is
        plain text (Esplora, ord) or a JSON ``{errorCode, message}``/``{error}`` object."""
        code, message = _code_and_message(response)
        message = self.redact(message) or response.reason_phrase or "error"
        status = response.status_code
        if status >= 500:
            return ServerError(self.service, status, message, code)
        if status == 404:
            return NotFound(self.service, status, message, code)
        return HttpError(self.service, status, message, code)

    def redact(self, text: str) -> str:
        """Remove the API key should a server echo it back in a message."""
        if self._api_key and self._api_key in text:
            return text.replace(self._api_key, _REDACTED)
        return text

    def _transport_error(self, exc: httpx.TransportError, method: str, path: str) -> TransportError:
        kind: type[TransportError]
        if isinstance(exc, httpx.ConnectTimeout | httpx.PoolTimeout | httpx.ConnectError):
            kind, reason = ConnectFailed, "could not connect: the request was not applied"
        elif isinstance(exc, httpx.TimeoutException):
            kind, reason = RequestTimeout, "timed out: the request may have been applied"
        elif isinstance(exc, httpx.ReadError | httpx.RemoteProtocolError | httpx.WriteError):
            kind, reason = ConnectionLost, "connection lost: the request may have been applied"
        else:
            kind, reason = ConnectionLost, "transport failure: the request may have been applied"
        return kind(self.service, method, path, f"{reason} ({type(exc).__name__})")


def _code_and_message(response: httpx.Response) -> tuple[str | None, str]:
    if "html" in response.headers.get("content-type", ""):
        return None, ""  # an error page: its markup says nothing useful
    try:
        body = loads_json(response.content)
    except (ValueError, UnicodeDecodeError):
        return None, _short_text(response)
    if not isinstance(body, dict):
        return None, _short_text(response)
    code = body.get("errorCode")
    message = body.get("message") or body.get("error") or body.get("detail")
    return (
        code if isinstance(code, str) else None,
        message[:300] if isinstance(message, str) else _short_text(response),
    )


def _short_text(response: httpx.Response, limit: int = 300) -> str:
    try:
        text = response.text.strip()
    except UnicodeDecodeError:
        return ""
    return text if len(text) <= limit else text[:limit] + "..."
