"""The use cases against a sandbox that enforces a request rate (`--rate-limit 5/3`), as the
public service is reported to: with no pace of our own every 429 is waited out and nothing
fails; with the profile's pace kept below the service's, no 429 is ever answered.

Real waits (the sandbox's limit runs on its own clock): a few seconds in all."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

from app.core.bid_request import Trait
from app.core.rate_limit import RateLimit
from app.net.clients import NetClients
from app.net.config import ServiceConfig
from app.net.rate_limit import RateLimitWait, WaitCause
from app.services.bidding_wallet import bidding_wallet_balance, get_bidding_wallet
from app.services.bids import BidSpec, place_bid
from app.services.cancel import cancel_bids
from app.services.context import ServiceContext
from app.services.open_bids import load_open_bids
from app.wallet.keys import WalletKeys
from tests.sandbox.sandbox_process import SandboxProcess
from tests.services.conftest import TRAITS, KeysFactory, SandboxControl

pytestmark = pytest.mark.asyncio(loop_scope="session")

SERVICE_LIMIT = "5/3"  # the sandbox: 5 requests/s, bursts of 3, per key
BELOW_IT = RateLimit(4, 2)  # a profile's pace under it, with room for arrival jitter
COUNT = 8


@pytest.fixture(scope="module")
def limited_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("rate-limited-sandbox")
    process = SandboxProcess(root / "logs", root / "data", ["--rate-limit", SERVICE_LIMIT])
    try:
        yield process.url
    finally:
        if process.proc.poll() is None:
            process.kill()


@pytest.fixture
async def control(limited_url: str) -> AsyncIterator[SandboxControl]:
    async with httpx.AsyncClient(base_url=limited_url, timeout=60) as http:
        yield SandboxControl(http)


@pytest.fixture
async def contexts(limited_url: str) -> AsyncIterator[list[ServiceContext]]:
    made: list[ServiceContext] = []
    yield made
    for ctx in made:
        await ctx.clients.aclose()


def context(
    made: list[ServiceContext], url: str, keys: WalletKeys, pace: RateLimit | None
) -> ServiceContext:
    # Its own API key: the sandbox counts the rate per key (it checks none, having no key).
    key = f"key-{len(made)}-{secrets.token_hex(4)}"
    clients = NetClients.open(ServiceConfig.sandbox(url, api_key=key, rate_limit=pace))
    ctx = ServiceContext(clients, keys)  # real clock and sleeps: the limit is real
    made.append(ctx)
    return ctx


async def test_a_burst_beyond_the_limit_is_waited_out(
    limited_url: str, contexts: list[ServiceContext], make_keys: KeysFactory
) -> None:
    ctx = context(contexts, limited_url, make_keys(), None)
    seen: list[RateLimitWait] = []
    ctx.clients.rate_limits.subscribe(seen.append)
    market = ctx.clients.marketplace

    challenges = await asyncio.gather(
        *(market.get_challenge(ctx.ordinals_address) for _ in range(COUNT))
    )

    assert len(challenges) == COUNT
    assert ctx.clients.rate_limits.rate_limited >= COUNT - 3  # the burst is 3
    assert seen and {event.cause for event in seen} == {WaitCause.SERVICE}


async def test_a_pace_below_the_service_limit_meets_no_429(
    limited_url: str, contexts: list[ServiceContext], make_keys: KeysFactory
) -> None:
    ctx = context(contexts, limited_url, make_keys(), BELOW_IT)
    market = ctx.clients.marketplace

    await asyncio.gather(*(market.get_challenge(ctx.ordinals_address) for _ in range(COUNT)))

    assert ctx.clients.rate_limits.rate_limited == 0


@pytest.mark.parametrize("pace", [None, BELOW_IT], ids=["429s-waited-out", "paced"])
async def test_bid_list_and_cancel_under_the_limit(
    pace: RateLimit | None,
    limited_url: str,
    control: SandboxControl,
    contexts: list[ServiceContext],
    make_keys: KeysFactory,
    tmp_path: Path,
) -> None:
    slug = f"limited-{tmp_path.name[-12:].lower().replace('_', '-')}"
    await control.create_collection(slug, TRAITS)
    ctx = context(contexts, limited_url, make_keys(), pace)
    wallet = await get_bidding_wallet(ctx)
    await control.faucet(wallet.address, 200_000)
    expiry = ctx.clock.now_ms() + 3_600_000
    trait_type, values = next(iter(TRAITS.items()))
    traits = tuple(Trait(trait_type, value) for value in values[:2])

    await place_bid(ctx, BidSpec.collection(slug, 3_000, 2, expiry))
    await place_bid(ctx, BidSpec.trait(slug, traits, 4_000, 1, expiry))
    view = await load_open_bids(ctx)
    ids = [bid.bid_id for bid in view.bids]
    report = await cancel_bids(ctx, ids)

    assert len(ids) == 4 and all(item.cancelled for item in report.items)
    assert (await load_open_bids(ctx)).bids == ()
    assert (await bidding_wallet_balance(ctx)).total == 200_000
    if pace is not None:
        assert ctx.clients.rate_limits.rate_limited == 0
