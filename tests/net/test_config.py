"""Profiles and the bundle of clients: URLs, and the API key going to the marketplace only."""

from __future__ import annotations

import httpx
import pytest
from net_router import Router

from app.net.clients import NetClients
from app.net.config import (
    SATFLOW_API_URL,
    InvalidServiceConfig,
    Profile,
    ServiceConfig,
)
from app.net.http import API_KEY_HEADER

KEY = "sk_live_0a1b2c3d4e5f"


def test_sandbox_profile_urls() -> None:
    config = ServiceConfig.sandbox("http://127.0.0.1:8123/")
    assert config.profile is Profile.SANDBOX
    assert (config.marketplace_url, config.esplora_url, config.ord_url) == (
        "http://127.0.0.1:8123/v1",
        "http://127.0.0.1:8123/esplora",
        "http://127.0.0.1:8123/ord",
    )
    assert not config.has_api_key


def test_satflow_profile_hides_its_key() -> None:
    config = ServiceConfig.satflow(KEY)
    assert config.profile is Profile.SATFLOW and config.marketplace_url == SATFLOW_API_URL
    assert config.has_api_key
    assert KEY not in repr(config) and KEY not in str(config)


def test_custom_profile_and_validation() -> None:
    config = ServiceConfig.custom(
        "https://m.example/v1/", "https://e.example/api", "https://o.example"
    )
    assert config.profile is Profile.CUSTOM and config.marketplace_url == "https://m.example/v1"
    with pytest.raises(InvalidServiceConfig, match="esplora_url"):
        ServiceConfig.custom("https://m.example/v1", "ftp://e.example", "https://o.example")


async def test_key_goes_to_the_marketplace_only(router: Router) -> None:
    router.json("GET", "/v1/challenge", {"data": {"challenge": "c"}})
    router.add("GET", "/e/blocks/tip/height", httpx.Response(200, text="7"))
    router.json("GET", "/o/blockheight", 7)
    config = ServiceConfig.custom(
        "https://m.test/v1", "https://m.test/e", "https://m.test/o", api_key=KEY
    )
    async with NetClients.open(config, transport=router.transport) as net:
        await net.marketplace.get_challenge("bc1q")
        assert await net.esplora.tip_height() == 7
        assert await net.ord.block_height() == 7
    market, esplora, ord_ = router.requests
    assert market.headers[API_KEY_HEADER] == KEY
    assert API_KEY_HEADER not in esplora.headers and API_KEY_HEADER not in ord_.headers
