"""A fake marketplace behind `httpx.MockTransport` for use-case tests that need answers the
sandbox does not give (paging bounds, failures, the public service's shapes): one handler per
path; an unknown path answers like a web framework's unknown route (404 `{"detail"}`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

from app.net.clients import NetClients
from app.net.config import ServiceConfig

Handler = Callable[[httpx.Request], httpx.Response]
ROOT = "http://market.test"


class FakeMarket:
    """The marketplace's routes as handlers; every request is recorded."""

    def __init__(self) -> None:
        self.routes: dict[str, Handler] = {}
        self.requests: list[httpx.Request] = []

    def json(self, path: str, body: Any, status: int = 200) -> None:
        self.routes[path] = lambda _request: httpx.Response(status, json=body)

    def handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        handler = self.routes.get(request.url.path)
        if handler is None:
            return httpx.Response(404, json={"detail": "Not Found"})
        return handler(request)

    def asked(self, path: str) -> list[httpx.Request]:
        return [r for r in self.requests if r.url.path == path]

    def clients(self) -> NetClients:
        """A profile's clients (no pace of ours) that reach only this fake."""
        return NetClients.open(
            ServiceConfig.sandbox(ROOT), transport=httpx.MockTransport(self.handle)
        )
