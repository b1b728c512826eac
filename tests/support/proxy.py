"""A fault-injecting HTTP proxy on 127.0.0.1, in front of a real sandbox process.

It forwards every request unchanged and records it (`seen`); faults apply to the next
matching requests:

- `Fault.after_forward(method, path, status=502)`: the sandbox receives and APPLIES the
  request, the client gets `status` instead of the real answer (spec 4.2's "5xx after the bid
  was stored");
- `Fault.drop_after_forward(method, path)`: applied, then the connection closes unanswered;
- `Fault.hang_after_forward(method, path)`: applied, and no answer until the proxy stops, so
  the client's read timeout fires;
- `Fault.reply(method, path, status, json_body)`: answered by the proxy, NOT forwarded (not
  applied; e.g. ord down: `Fault.reply("*", "/ord/*", 503, {...}, times=None)`).

Paths match exactly, or by prefix when the rule's path ends in "*"; method "*" matches any.
`times=None` applies a fault until `remove_fault`; `fault.only_when(pred)` limits it to the
requests `pred(seen)` accepts (e.g. by a field of the body). `rewrite(fn)` installs a
response-body hook `fn(method, path, status, body) -> bytes | None` (None keeps the body) for
a hostile server; `rewrite_request(fn)` a request-body hook `fn(method, path, body) -> bytes |
None` applied before forwarding (a service that ignores a field: drop it), `seen` keeping what
the client sent.

The server is uvicorn running as a task of the test's event loop on a socket bound and
listening before it starts, so there is nothing to wait for:

    async with FaultProxy(upstream=sandbox_url) as proxy:
        proxy.add_fault(Fault.after_forward("POST", "/v1/bid/place"))
        ... clients at ServiceConfig.sandbox(proxy.url) ...
        assert proxy.paths().count("POST /v1/bid/place") == 2
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
RequestRewriter = Callable[[str, str, bytes], bytes | None]
_HOP_HEADERS = frozenset(
    {b"host", b"content-length", b"transfer-encoding", b"connection", b"keep-alive"}
)
_AFTER, _DROP, _HANG, _REPLY = "after_forward", "drop_after_forward", "hang_after_forward", "reply"


@dataclass
class Fault:
    kind: str
    method: str
    path: str
    status: int = 502
    body: Any = None
    times: int | None = 1
    when: Callable[[Seen], bool] | None = None

    @classmethod
    def after_forward(
        cls, method: str, path: str, status: int = 502, times: int | None = 1
    ) -> Fault:
        return cls(_AFTER, method, path, status, {"message": "proxy: bad gateway"}, times)

    @classmethod
    def drop_after_forward(cls, method: str, path: str, times: int | None = 1) -> Fault:
        return cls(_DROP, method, path, times=times)

    @classmethod
    def hang_after_forward(cls, method: str, path: str, times: int | None = 1) -> Fault:
        return cls(_HANG, method, path, times=times)

    @classmethod
    def reply(
        cls, method: str, path: str, status: int, json_body: Any, times: int | None = 1
    ) -> Fault:
        return cls(_REPLY, method, path, status, json_body, times)

    def only_when(self, pred: Callable[[Seen], bool]) -> Fault:
        """This fault, for the matching requests `pred` accepts only."""
        self.when = pred
        return self

    def matches(self, method: str, path: str) -> bool:
        if self.method not in ("*", method):
            return False
        if self.path.endswith("*"):
            return path.startswith(self.path[:-1])
        return path == self.path


@dataclass
class Seen:
    method: str
    path: str
    query: str
    body: bytes
    status: int | None = None
    response_body: bytes = b""
    fault: str | None = None

    def json(self) -> Any:
        return json.loads(self.body)

    def response_json(self) -> Any:
        return json.loads(self.response_body)


@dataclass
class FaultProxy:
    upstream: str
    seen: list[Seen] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)
    url: str = ""
    _rewriter: Rewriter | None = None
    _request_rewriter: RequestRewriter | None = None
    _release: asyncio.Event = field(default_factory=asyncio.Event)
    _client: httpx.AsyncClient | None = None
    _server: uvicorn.Server | None = None
    _task: asyncio.Task[None] | None = None
    _sock: socket.socket | None = None

    # --- control --------------------------------------------------------------------------

    def add_fault(self, fault: Fault) -> Fault:
        self.faults.append(fault)
        return fault

    def remove_fault(self, fault: Fault) -> None:
        if fault in self.faults:
            self.faults.remove(fault)

    def rewrite(self, fn: Rewriter | None) -> None:
        self._rewriter = fn

    def rewrite_request(self, fn: RequestRewriter | None) -> None:
        self._request_rewriter = fn

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
        self._release.set()
        if self._server is not None and self._task is not None:
            self._server.should_exit = True
            await self._task
        if self._client is not None:
            await self._client.aclose()
        if self._sock is not None:
            self._sock.close()

    # --- the ASGI app ---------------------------------------------------------------------

    def _take_fault(self, seen: Seen) -> Fault | None:
        for fault in self.faults:
            if fault.matches(seen.method, seen.path) and (fault.when is None or fault.when(seen)):
                if fault.times is not None:
                    fault.times -= 1
                    if fault.times <= 0:
                        self.faults.remove(fault)
                return fault
        return None

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
        query = scope.get("query_string", b"").decode()
        seen = Seen(method, path, query, body)
        self.seen.append(seen)
        fault = self._take_fault(seen)
        seen.fault = None if fault is None else fault.kind
        if fault is not None and fault.kind == _REPLY:
            await _respond(send, seen, fault.status, json.dumps(fault.body).encode())
            return
        assert self._client is not None
        headers = [(k, v) for k, v in scope["headers"] if k.lower() not in _HOP_HEADERS]
        if self._request_rewriter is not None:
            rewritten_request = self._request_rewriter(method, path, body)
            body = body if rewritten_request is None else rewritten_request
        upstream = await self._client.request(
            method, path, params=query or None, content=body, headers=headers
        )
        if fault is not None and fault.kind == _AFTER:
            await _respond(send, seen, fault.status, json.dumps(fault.body).encode())
            return
        if fault is not None and fault.kind == _HANG:
            await self._release.wait()
            return
        if fault is not None and fault.kind == _DROP:
            # Promise a body, send none of it, and fail: uvicorn can only close the connection.
            seen.status = upstream.status_code
            start_headers = [(b"content-length", b"1000")]
            await send({"type": "http.response.start", "status": 200, "headers": start_headers})
            raise ConnectionResetError("proxy: dropped after forwarding")
        answer = upstream.content
        if self._rewriter is not None:
            rewritten = self._rewriter(method, path, upstream.status_code, answer)
            answer = answer if rewritten is None else rewritten
        content_type = upstream.headers.get("content-type", "application/json")
        await _respond(send, seen, upstream.status_code, answer, content_type)


async def _respond(
    send: Send, seen: Seen, status: int, body: bytes, content_type: str = "application/json"
) -> None:
    seen.status = status
    seen.response_body = body
    headers = [(b"content-type", content_type.encode()), (b"content-length", b"%d" % len(body))]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
