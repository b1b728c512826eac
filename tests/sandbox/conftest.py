"""Fixtures for sandbox tests, reused by later issues' tests.

- `sandbox_node`: a fresh Node in a temporary data dir (module scope: opening one mines the
  initial chain and demo data, so tests of one module share it).
- `sandbox_app`, `sandbox_client` (an httpx.AsyncClient over ASGITransport): the HTTP app on
  that node, in-process.
- `sandbox_process_factory`: starts real `bidwallet sandbox serve --port 0` processes and stops
  whatever is left at teardown; `sandbox_server`: one such process on a temporary data dir.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from app.sandbox.chain.node import Node
from app.sandbox.http.app import create_app
from app.sandbox.http.settings import SandboxSettings
from tests.sandbox.sandbox_process import SandboxProcess

ASGI_BASE_URL = "http://sandbox.test"


@pytest.fixture(scope="module")
def sandbox_node(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Node]:
    node = Node.open(tmp_path_factory.mktemp("sandbox-data"))
    try:
        yield node
    finally:
        node.close()


@pytest.fixture(scope="module")
def sandbox_app(sandbox_node: Node) -> FastAPI:
    return create_app(sandbox_node, SandboxSettings())


@pytest.fixture
async def sandbox_client(sandbox_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    # raise_app_exceptions=False: a crash must show up as the 500 envelope a client would see.
    transport = httpx.ASGITransport(app=sandbox_app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url=ASGI_BASE_URL) as client:
        yield client


SandboxProcessFactory = Callable[..., SandboxProcess]


@pytest.fixture
def sandbox_process_factory(tmp_path: Path) -> Iterator[SandboxProcessFactory]:
    """`start(data_dir=None, extra_args=None, env=None, argv=None) -> SandboxProcess`, ready."""
    started: list[SandboxProcess] = []

    def start(
        data_dir: Path | None = None,
        extra_args: list[str] | None = None,
        env: dict[str, str] | None = None,
        argv: list[str] | None = None,
    ) -> SandboxProcess:
        process = SandboxProcess(tmp_path / "logs", data_dir, extra_args, env, argv)
        started.append(process)
        return process

    yield start
    for process in started:
        if process.proc.poll() is None:
            process.kill()


@pytest.fixture
def sandbox_server(
    sandbox_process_factory: SandboxProcessFactory, tmp_path: Path
) -> SandboxProcess:
    """A running sandbox process on a fresh data dir; its base URL is `.url`."""
    return sandbox_process_factory(data_dir=tmp_path / "sandbox-data")
