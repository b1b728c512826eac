"""An in-memory router behind ``httpx.MockTransport`` for the network client tests.

Handlers answer with the public shapes (Esplora API.md, ord's JSON API docs, the spec and
Satflow's docs); an unknown route answers like a web framework would: 404 ``{"detail": ...}``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

Handler = Callable[[httpx.Request], httpx.Response]


class Router:
    def __init__(self) -> None:
        self.routes: dict[tuple[str, str], Handler] = {}
        self.requests: list[httpx.Request] = []

    def add(self, method: str, path: str, answer: httpx.Response | Handler) -> None:
        if isinstance(answer, httpx.Response):
            fixed = answer
            self.routes[(method, path)] = lambda _request: fixed
        else:
            self.routes[(method, path)] = answer

    def json(self, method: str, path: str, body: Any, status: int = 200) -> None:
        self.add(method, path, lambda _request: httpx.Response(status, json=body))

    def handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        handler = self.routes.get((request.method, request.url.path))
        if handler is None:
            return httpx.Response(404, json={"detail": "Not Found"})
        return handler(request)

    @property
    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.handle)

    @property
    def last(self) -> httpx.Request:
        assert self.requests, "no request was sent"
        return self.requests[-1]
