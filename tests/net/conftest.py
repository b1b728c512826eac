"""Fixtures of the network client tests."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from net_router import Router

from app.net.sandbox import SandboxClient
from app.sandbox.chain.node import Node
from app.sandbox.http.app import create_app


@pytest.fixture
def router() -> Router:
    return Router()


ROOT = "http://sandbox.test"  # never resolved: the in-process transport answers


@pytest.fixture(scope="module")
def sandbox_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.ASGITransport]:
    """The sandbox's app in-process (no socket), on a fresh chain per test module."""
    node = Node.open(tmp_path_factory.mktemp("net-sandbox") / "data")
    try:
        yield httpx.ASGITransport(app=create_app(node), raise_app_exceptions=False)
    finally:
        node.close()


@pytest.fixture
async def sandbox(sandbox_app: httpx.ASGITransport) -> AsyncIterator[SandboxClient]:
    """The sandbox's client on `sandbox_app`: its request journal empty at the start, no
    fault left armed at the end."""
    async with SandboxClient(ROOT, transport=sandbox_app) as client:
        await client.clear_requests()
        yield client
        await client.clear_faults()
