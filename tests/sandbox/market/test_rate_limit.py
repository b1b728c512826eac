"""`--rate-limit`: /v1 requests beyond the rate get 429 RATE_LIMITED per API key, saying how
long to wait both ways a public service may (body `retryAfterMs`, header `Retry-After`)."""

from __future__ import annotations

import argparse

import httpx
import pytest

from app.core.rate_limit import RateLimit
from app.sandbox.cli import add_serve_arguments, settings_from_args
from tests.sandbox.market.conftest import ClientFactory
from tests.sandbox.market.helpers import ok

# One request per 100 s after a burst of 2: the third at once is refused on any machine.
SLOW = RateLimit(0.01, 2)
ADDRESS = "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080"


async def challenge(client: httpx.AsyncClient, key: str | None = None) -> httpx.Response:
    headers = {"x-api-key": key} if key else None
    return await client.get("/v1/challenge", params={"address": ADDRESS}, headers=headers)


async def test_requests_beyond_the_burst_are_refused_with_the_wait(
    make_client: ClientFactory,
) -> None:
    client = await make_client(rate_limit=SLOW)
    assert ok(await client.get("/sandbox/info"))["rateLimit"] == {"perSecond": 0.01, "burst": 2}
    assert [(await challenge(client)).status_code for _ in range(2)] == [200, 200]
    refused = await challenge(client)
    assert refused.status_code == 429
    body = refused.json()
    assert body["errorCode"] == "RATE_LIMITED"
    assert 99_000 < body["retryAfterMs"] <= 100_000
    assert refused.headers["retry-after"] == str(-(-body["retryAfterMs"] // 1000))
    # Refusals take nothing: still refused, and for no longer.
    again = (await challenge(client)).json()["retryAfterMs"]
    assert again <= body["retryAfterMs"]


async def test_each_api_key_has_its_own_rate_and_only_v1_is_limited(
    make_client: ClientFactory,
) -> None:
    client = await make_client(rate_limit=SLOW)
    for _ in range(2):
        assert (await challenge(client, "key-a")).status_code == 200
    assert (await challenge(client, "key-a")).status_code == 429
    assert (await challenge(client, "key-b")).status_code == 200
    for _ in range(5):  # Esplora, ord and the scenario API are the sandbox's own
        assert (await client.get("/esplora/blocks/tip/height")).status_code == 200
        assert (await client.get("/sandbox/info")).status_code == 200


async def test_without_the_setting_nothing_is_limited(make_client: ClientFactory) -> None:
    client = await make_client()
    assert ok(await client.get("/sandbox/info"))["rateLimit"] is None
    assert {(await challenge(client)).status_code for _ in range(20)} == {200}


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_serve_arguments(parser)
    return parser.parse_args(argv)


def test_the_command_line_takes_rate_and_burst() -> None:
    assert settings_from_args(parse("--rate-limit", "5/10")).rate_limit == RateLimit(5, 10)
    assert settings_from_args(parse("--rate-limit", "4")).rate_limit == RateLimit(4, 8)
    assert settings_from_args(parse()).rate_limit is None


@pytest.mark.parametrize("bad", ["0", "fast", "5/0"])
def test_a_bad_rate_is_refused_by_the_command_line(
    bad: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        parse("--rate-limit", bad)
    assert "--rate-limit" in capsys.readouterr().err
