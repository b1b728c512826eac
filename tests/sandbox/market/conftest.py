"""Marketplace test fixtures.

`client`: the in-process sandbox (tests/sandbox/conftest.py) with its service clock frozen, so
time-boundary checks are exact: the clock moves only through `POST /sandbox/clock`, never by
wall-clock luck. `make_client(**settings)`: another app with its own node and settings
(P2WSH wallets, an API key).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.sandbox.chain.node import Node
from app.sandbox.clock import wall_clock_ms
from app.sandbox.http.app import create_app
from app.sandbox.http.settings import SandboxSettings
from tests.sandbox.conftest import ASGI_BASE_URL


class FrozenWall:
    """A wall clock that stands still (the service clock adds its offset to it)."""

    def __init__(self, start_ms: int) -> None:
        self.ms = start_ms

    def __call__(self) -> int:
        return self.ms


def freeze(node: Node) -> Callable[[], None]:
    """Freeze the node's service clock; returns the function that thaws it."""
    clock = node.clock
    original = clock._wall_ms  # test-only: the clock takes its wall source at construction
    clock._wall_ms = FrozenWall(wall_clock_ms())
    return lambda: setattr(clock, "_wall_ms", original)


@pytest.fixture(scope="module")
def frozen_node(sandbox_node: Node) -> Iterator[Node]:
    thaw = freeze(sandbox_node)
    yield sandbox_node
    thaw()


@pytest.fixture
async def client(
    frozen_node: Node, sandbox_client: httpx.AsyncClient
) -> AsyncIterator[httpx.AsyncClient]:
    yield sandbox_client


def asgi_client(app: Any) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    return httpx.AsyncClient(transport=transport, base_url=ASGI_BASE_URL)


ClientFactory = Callable[..., Awaitable[httpx.AsyncClient]]


@pytest.fixture
async def make_client(tmp_path: Path) -> AsyncIterator[ClientFactory]:
    """`await make_client(bidding_wallet="p2wsh", ...)`: a frozen-clock client of a new node."""
    async with AsyncExitStack() as stack:
        count = 0

        async def make(**settings: Any) -> httpx.AsyncClient:
            nonlocal count
            count += 1
            node = Node.open(tmp_path / f"node-{count}")
            stack.callback(node.close)
            stack.callback(freeze(node))
            client = asgi_client(create_app(node, SandboxSettings(**settings)))
            return await stack.enter_async_context(client)

        yield make
