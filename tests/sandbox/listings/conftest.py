"""Fixtures of the secure listing tests: `client` on the in-process sandbox app."""

from __future__ import annotations

import httpx
import pytest


@pytest.fixture
def client(sandbox_client: httpx.AsyncClient) -> httpx.AsyncClient:
    return sandbox_client
