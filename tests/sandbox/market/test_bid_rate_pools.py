"""POST /v1/bid/place: the bid rate (spec 8) and the bid pools against the balance (spec 1)."""

from __future__ import annotations

import itertools

import httpx

from app.core.bid_request import Trait
from tests.sandbox.market.conftest import ClientFactory
from tests.sandbox.market.helpers import (
    User,
    advance,
    bid_body,
    error,
    fund,
    funded_user,
    now_ms,
    ok,
    open_bids,
    place,
    tie,
)

_labels = itertools.count()


async def new_user(client: httpx.AsyncClient, sats: int = 200_000) -> User:
    user, _ = await funded_user(client, f"rate-{next(_labels)}", sats)
    return user


async def test_one_bid_per_500_ms_per_receive_address(client: httpx.AsyncClient) -> None:
    user = await new_user(client)
    ok(await place(client, bid_body(user, await now_ms(client))))
    now = await now_ms(client)
    body = error(
        await place(client, bid_body(user, now, price=2_000)), 429, "SUBMIT_BID_RATE_LIMITED"
    )
    assert body["retryAfterMs"] == 500
    await advance(client, 499)
    body = error(
        await place(client, bid_body(user, now + 499, price=3_000)), 429, "SUBMIT_BID_RATE_LIMITED"
    )
    assert body["retryAfterMs"] == 1
    await advance(client, 1)
    ok(await place(client, bid_body(user, now + 500, price=4_000)))


async def test_rate_is_across_collections_and_per_receiver(client: httpx.AsyncClient) -> None:
    user, other = await new_user(client), await new_user(client)
    now = await now_ms(client)
    ok(await place(client, bid_body(user, now)))
    error(
        await place(client, bid_body(user, now, slug="ordinal-cats")),
        429,
        "SUBMIT_BID_RATE_LIMITED",
    )
    ok(await place(client, bid_body(other, now, slug="ordinal-cats")))


async def test_a_trait_bid_counts_once_per_trait(client: httpx.AsyncClient) -> None:
    user = await new_user(client)
    traits = (Trait("Hat", "Cap"), Trait("Hat", "Crown"), Trait("Eyes", "Laser"))
    now = await now_ms(client)
    ok(await place(client, bid_body(user, now, traits=traits)))
    await advance(client, 1_499)
    body = error(await place(client, bid_body(user, now + 1_499)), 429, "SUBMIT_BID_RATE_LIMITED")
    assert body["retryAfterMs"] == 1
    await advance(client, 1)
    ok(await place(client, bid_body(user, now + 1_500)))


async def test_pool_fits_exactly_then_not_and_pools_are_independent(
    client: httpx.AsyncClient,
) -> None:
    user = await new_user(client, 30_000)
    now = await now_ms(client)
    # 2 x (14,000 + 1,000 maker fee) = 30,000: exactly the balance.
    ok(await place(client, bid_body(user, now, price=14_000, quantity=2)))
    await advance(client, 1_000)
    body = error(
        await place(client, bid_body(user, now + 1_000, price=1_000)),
        400,
        "COLLECTION_BID_POOL_INSUFFICIENT_BALANCE",
    )
    assert body["details"] == {
        "pool": "pixel-punks",
        "needed": 32_000,
        "available": 30_000,
        "shortfall": 2_000,
    }
    # Every other pool may use the whole balance again: another collection, a trait.
    await advance(client, 1_000)
    ok(await place(client, bid_body(user, now + 2_000, slug="ordinal-cats", price=29_000)))
    await advance(client, 1_000)
    ok(
        await place(
            client,
            bid_body(user, now + 3_000, price=14_000, quantity=2, traits=(Trait("Hat", "Crown"),)),
        )
    )
    assert len(await open_bids(client, user)) == 5


async def test_a_request_that_does_not_fit_one_pool_places_nothing(
    client: httpx.AsyncClient,
) -> None:
    user = await new_user(client, 20_000)
    now = await now_ms(client)
    ok(await place(client, bid_body(user, now, price=10_000, traits=(Trait("Hat", "Cap"),))))
    await advance(client, 1_000)
    traits = (Trait("Hat", "Crown"), Trait("Hat", "Cap"), Trait("Eyes", "Sleepy"))
    body = error(
        await place(client, bid_body(user, now + 1_000, price=9_000, traits=traits)),
        400,
        "COLLECTION_BID_POOL_INSUFFICIENT_BALANCE",
    )
    assert "Hat: Cap" in body["details"]["pool"]
    assert len(await open_bids(client, user)) == 1


async def test_confirmed_and_unconfirmed_funds_both_count(client: httpx.AsyncClient) -> None:
    user = User.make(f"rate-funds-{next(_labels)}")
    wallet = await tie(client, user)
    await fund(client, wallet, 10_000, mine=True)
    await fund(client, wallet, 12_000)  # still in the mempool
    now = await now_ms(client)
    error(
        await place(client, bid_body(user, now, price=22_000)),
        400,
        "COLLECTION_BID_POOL_INSUFFICIENT_BALANCE",
    )
    ok(await place(client, bid_body(user, now, price=21_000)))  # 21,000 + 1,000 = 22,000


async def test_maker_fee_settings_are_used_and_published(make_client: ClientFactory) -> None:
    client = await make_client(maker_fee_sats=0, maker_fee_bps=100)
    info = ok(await client.get("/sandbox/info"))
    assert (info["makerFeeSats"], info["makerFeeBps"]) == (0, 100)
    user, _ = await funded_user(client, "rate-bps", 20_199)
    now = await now_ms(client)
    # 2 x (10,000 + 1% of it) = 20,200 > 20,199; one sat more fits.
    error(
        await place(client, bid_body(user, now, quantity=2)),
        400,
        "COLLECTION_BID_POOL_INSUFFICIENT_BALANCE",
    )
    ok(await place(client, bid_body(user, now, quantity=1)))
