"""The contract tests serve each sample through the network tests' in-memory router
(tests/net/net_router.py) behind ``httpx.MockTransport``: no socket is opened."""

from __future__ import annotations

import pytest

from tests.net.net_router import Router


@pytest.fixture
def router() -> Router:
    return Router()
