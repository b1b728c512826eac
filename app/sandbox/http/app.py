"""The sandbox's ASGI app: `create_app(node, settings)` wires routers, error envelope and limits.

Each API area is a router module (`routes_*.py`); the marketplace routers (`routes_v1_*.py`)
are mounted under `/v1` by `v1.install_v1`, serving the app's `Market`.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI

from app import __version__
from app.sandbox.chain.node import Node
from app.sandbox.http import (
    routes_esplora,
    routes_ord,
    routes_ord_runes,
    routes_sandbox_faults,
    routes_sandbox_requests,
    routes_scenario,
    routes_scenario_inscribe,
)
from app.sandbox.http.errors import install_error_handlers
from app.sandbox.http.fault_middleware import FaultMiddleware
from app.sandbox.http.faults import FaultBook
from app.sandbox.http.middleware import (
    BodyLimitMiddleware,
    CatchAllMiddleware,
    RateLimitMiddleware,
)
from app.sandbox.http.request_journal import RequestJournal
from app.sandbox.http.settings import SandboxSettings
from app.sandbox.http.v1 import install_v1
from app.sandbox.market.service import Market

ROUTERS: tuple[APIRouter, ...] = (
    routes_esplora.router,
    routes_ord.router,
    routes_ord_runes.router,
    routes_scenario.router,
    routes_scenario_inscribe.router,
    routes_sandbox_faults.router,
    routes_sandbox_requests.router,
)

_DESCRIPTION = (
    "A local Bitcoin inscriptions/runes marketplace on a regtest chain validated by "
    "libbitcoinkernel. Every error is JSON `{errorCode, message}`."
)


class SandboxApi(FastAPI):
    """FastAPI whose OpenAPI document tells how errors really look: validation errors are 400
    `INVALID_REQUEST` (not FastAPI's 422 model), and error bodies are JSON even on routes
    whose success response is text (FastAPI would document them under the route's type)."""

    def openapi(self) -> dict[str, Any]:
        if self.openapi_schema is not None:
            return self.openapi_schema
        schema = super().openapi()
        for path_item in schema.get("paths", {}).values():
            for operation in path_item.values():
                responses = operation.get("responses", {})
                responses.pop("422", None)
                for status, response in responses.items():
                    content = response.get("content", {})
                    if status.isdigit() and int(status) >= 400 and "text/plain" in content:
                        content["application/json"] = content.pop("text/plain")
        components = schema.get("components", {}).get("schemas", {})
        for name in ("HTTPValidationError", "ValidationError"):
            components.pop(name, None)
        return schema


def create_app(
    node: Node, settings: SandboxSettings | None = None, market: Market | None = None
) -> FastAPI:
    """The HTTP app serving `node`. The caller owns the node (opens and closes it); the app
    opens its `Market` on the node's data directory unless given one. That market lives as
    long as the app (its SQLite commits are durable as they happen): it is not closed on a
    lifespan shutdown, since test clients run several lifespans on one app."""
    settings = settings or SandboxSettings()
    app = SandboxApi(title="Bidwallet sandbox", version=__version__, description=_DESCRIPTION)
    app.state.node = node
    app.state.settings = settings
    install_error_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    install_v1(app, market or Market.open(node, settings))
    # add_middleware puts each new one outside the previous: CatchAll wraps the faults of
    # /sandbox/faults (a fault not applying the request answers before the rest sees it),
    # which wrap BodyLimit, which wraps the rate limit (an oversized body is refused before
    # it counts).
    if settings.rate_limit is not None:
        app.add_middleware(RateLimitMiddleware, limit=settings.rate_limit)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    app.state.faults = FaultBook(now_ms=node.clock.now_ms)
    app.state.requests = RequestJournal(now_ms=node.clock.now_ms)
    app.add_middleware(
        FaultMiddleware,
        book=app.state.faults,
        journal=app.state.requests,
        node=node,
        max_body_bytes=settings.max_body_bytes,
    )
    app.add_middleware(CatchAllMiddleware)
    return app
