"""A rewriting HTTP proxy on 127.0.0.1, in front of a real sandbox process: what is left of
the tests' private fault proxy, for answers a test generates itself from the real ones.

Every other fault (5xx, timeouts, dropped connections, 429s, fixed or malformed answers,
named PSBT tampers) and what the client sent are the sandbox's own: `/sandbox/faults` and
`/sandbox/requests` (docs/sandbox-faults.md; `sandbox_faults` in tests/services/conftest.py).

It forwards every request and records its method and path (`seen`, `paths()`,
`requests(method, path)`). Its users:

- `rewrite(fn)`: a response-body hook `fn(method, path, status, body) -> bytes | None` (None
  keeps the body), e.g. ord's batch answers reordered (tests/services/test_ord_batch_lies.py),
  an older ord's answers (test_funding_unindexed.py), the hostile service's mutated PSBTs
  (tests/support/hostile_server.py);
- `replies`: `Reply`s answered in the service's place, without forwarding, to every matching
  request while the proxy runs, the first match winning (the hostile service's ord and
  Esplora facts for the coins its mutation changed);
- `seen`: a count of the requests of a reading (benchmarks/bench_live_updates.py).

Paths match exactly, or by prefix when the reply's path ends in "*"; method "*" matches any.
The server is uvicorn running as a task of the test's event loop on a socket bound and
listening before it starts, so there is nothing to wait for:

    async with FaultProxy(upstream=sandbox_url) as proxy:
        proxy.rewrite(lambda method, path, status, body: ...)
        ... clients at ServiceConfig.sandbox(proxy.url) ...
        assert proxy.requests("POST", "/ord/outputs")
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Self

import httpx
import uvicorn

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Rewriter = Callable[[str, str, int, bytes], bytes | None]
_HOP_HEADERS = frozenset(
    {b"host", b"content-length", b"transfer-encoding", b"connection", b"keep-alive"}
)


@dataclass(frozen=True)
class Reply:
    """`status` with the JSON `body`, answered by the proxy to every matching request."""

    method: str
    path: str
    status: int
    body: Any

    def matches(self, method: str, path: str) -> bool:
        if self.method not in ("*", method):
            return False
        if self.path.endswith("*"):
            return path.startswith(self.path[:-1])
        return path == self.path


@dataclass(frozen=True)
class Seen:
    method: str
    path: str


@dataclass
class FaultProxy:
    upstream: str
    seen: list[Seen] = field(default_factory=list)
    replies: list[Reply] = field(default_factory=list)
    url: str = ""
    _rewriter: Rewriter | None = None
    _client: httpx.AsyncClient | None = None
    _server: uvicorn.Server | None = None
    _task: asyncio.Task[None] | None = None
    _sock: socket.socket | None = None

    # --- control --------------------------------------------------------------------------

    def rewrite(self, fn: Rewriter | None) -> None:
        self._rewriter = fn

    def paths(self) -> list[str]:
        return [f"{s.method} {s.path}" for s in self.seen]

    def requests(self, method: str, path: str) -> list[Seen]:
        return [s for s in self.seen if s.method == method and s.path == path]

    # --- lifecycle ------------------------------------------------------------------------

    async def __aenter__(self) -> Self:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        sock.listen(64)  # connections queue from now on, before the server task runs
        self._sock = sock
        self.url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        self.upstream = self.upstream.rstrip("/")
        self._client = httpx.AsyncClient(base_url=self.upstream, timeout=120.0)
        config = uvicorn.Config(
            self._app,
            log_level="critical",
            lifespan="off",
            interface="asgi3",
            timeout_graceful_shutdown=2,
        )
        self._server = uvicorn.Server(config)
        self._task = asyncio.create_task(self._server.serve(sockets=[sock]))
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._server is not None and self._task is not None:
            self._server.should_exit = True
            await self._task
        if self._client is not None:
            await self._client.aclose()
        if self._sock is not None:
            self._sock.close()

    # --- the ASGI app ---------------------------------------------------------------------

    async def _app(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        method, path = scope["method"], scope["path"]
        self.seen.append(Seen(method, path))
        reply = next((r for r in self.replies if r.matches(method, path)), None)
        if reply is not None:
            await _respond(send, reply.status, json.dumps(reply.body).encode())
            return
        assert self._client is not None
        headers = [(k, v) for k, v in scope["headers"] if k.lower() not in _HOP_HEADERS]
        query = scope.get("query_string", b"").decode()
        upstream = await self._client.request(
            method, path, params=query or None, content=body, headers=headers
        )
        answer = upstream.content
        if self._rewriter is not None:
            rewritten = self._rewriter(method, path, upstream.status_code, answer)
            answer = answer if rewritten is None else rewritten
        content_type = upstream.headers.get("content-type", "application/json")
        await _respond(send, upstream.status_code, answer, content_type)


async def _respond(
    send: Send, status: int, body: bytes, content_type: str = "application/json"
) -> None:
    headers = [(b"content-type", content_type.encode()), (b"content-length", b"%d" % len(body))]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
