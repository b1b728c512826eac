"""Fixtures of the network client tests."""

from __future__ import annotations

import pytest
from net_router import Router


@pytest.fixture
def router() -> Router:
    return Router()
