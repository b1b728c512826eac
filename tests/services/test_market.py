"""A pool's market through the use cases, against a fake marketplace (httpx.MockTransport in
the sandbox's wire format, issue 16's contract): both sides paged within bounds, our orders
told apart, and the reader's cache, schedule, backoff and stale data. Nothing sleeps: the
reader's sleeper moves a fake clock."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from app.core.bid_request import Trait
from app.core.market_snapshot import BidRank, PriceLevel
from app.core.poll_schedule import PollTiming
from app.core.pools import PoolKey
from app.net.errors import ServerError
from app.services.context import ServiceContext
from app.services.market import (
    MAX_PAGES,
    PAGE_SIZE,
    MarketReader,
    OwnOrders,
    PoolMarket,
    own_addresses,
    read_own_orders,
    read_pool_market,
)
from tests.support.fake_market import FakeMarket

pytestmark = pytest.mark.asyncio(loop_scope="session")

PUPPETS = PoolKey("puppets")


def bid_row(bid_id: str, price: int, bidder: str = "bc1prival", **more: Any) -> dict[str, Any]:
    kind = "trait" if more.get("attribute") else "collection"
    bid = {"bidderAddress": bidder, "price": price, "quantity": 1, "kind": kind}
    bid["attribute"] = more.pop("attribute", None)
    return {"id": bid_id, "type": "bid", "orderType": "bid", "collectionSlug": "puppets",
            "price": price, "unitPrice": price, "quantity": 1, "bid": bid, **more}  # fmt: skip


def ask_row(ask_id: str, price: int, seller: str = "bc1pseller") -> dict[str, Any]:
    return {"id": ask_id, "orderType": "ask", "inscriptionId": f"{ask_id}i0", "unitPrice": price,
            "price": price, "ask": {"sellerOrdAddress": seller}}  # fmt: skip


def page(rows: list[Any], total: int) -> dict[str, Any]:
    pagination = {"page": 1, "pageSize": PAGE_SIZE, "total": total, "totalPages": None}
    return {"success": True, "data": {"items": rows, "pagination": pagination}}


async def test_both_sides_paged_until_the_total_with_our_orders_told_apart(
    fake_ctx: ServiceContext, fake: FakeMarket
) -> None:
    me = fake_ctx.ordinals_address
    first = [bid_row(f"b{i}", 50_000 - i * 100) for i in range(PAGE_SIZE)]
    second = [
        bid_row("mine", 30_000, bidder=fake_ctx.payment_address),
        bid_row("last", 1_000),
        "junk",
    ]
    pages = iter([page(first, PAGE_SIZE + 3), page(second, PAGE_SIZE + 3)])
    fake.routes["/v1/activity/bids"] = lambda _r: httpx.Response(200, json=next(pages))
    asks = [ask_row("a1", 60_000), ask_row("a0", 55_000, seller=me)]
    fake.json("/v1/activity/listings", page(asks, 2))
    snapshot = await read_pool_market(
        fake_ctx, PUPPETS, own_addresses=own_addresses(fake_ctx), own_bid_ids=frozenset()
    )
    assert [dict(r.url.params)["page"] for r in fake.asked("/v1/activity/bids")] == ["1", "2"]
    assert dict(fake.asked("/v1/activity/bids")[0].url.params) == {
        "collectionSlug": "puppets", "page": "1", "pageSize": str(PAGE_SIZE),
        "sortBy": "unitPrice", "sortDirection": "desc", "active": "true",
    }  # fmt: skip
    assert len(fake.asked("/v1/activity/listings")) == 1
    assert (snapshot.floor, snapshot.top_bid, snapshot.spread) == (60_000, 50_000, 10_000)
    assert snapshot.ask_levels == (PriceLevel(55_000, 1, 1), PriceLevel(60_000, 1, 0))
    assert (snapshot.bid_units, snapshot.bids_total, snapshot.listings_total) == (252, 253, 2)
    assert snapshot.skipped_rows == 1
    # 200 rival bids above 30,000 (50,000 down to 30,100 in steps of 100)
    assert snapshot.my_ranks == (BidRank("mine", 30_000, 201, 252, 20_000.0, False),)


async def test_pages_are_bounded(fake_ctx: ServiceContext, fake: FakeMarket) -> None:
    full = page([bid_row(f"b{i}", 5_000) for i in range(PAGE_SIZE)], 10_000)
    fake.json("/v1/activity/bids", full)
    fake.json("/v1/activity/listings", page([], 0))
    snapshot = await read_pool_market(
        fake_ctx, PUPPETS, own_addresses=frozenset(), own_bid_ids=frozenset()
    )
    assert len(fake.asked("/v1/activity/bids")) == MAX_PAGES
    assert (snapshot.bid_units, snapshot.bids_total) == (MAX_PAGES * PAGE_SIZE, 10_000)
    assert (snapshot.floor, snapshot.listing_count) == (None, 0)


async def test_a_trait_pool_asks_its_collection_and_keeps_that_trait(
    fake_ctx: ServiceContext, fake: FakeMarket
) -> None:
    blue = {"trait_type": "Background", "value": "Blue"}
    rows = [bid_row("c", 9_000), bid_row("t", 7_000, attribute=blue), bid_row("mine", 6_000,
            attribute=blue)]  # fmt: skip
    fake.json("/v1/activity/bids", page(rows, 3))
    fake.json("/v1/activity/listings", page([], 0))
    pool = PoolKey("puppets", Trait("Background", "Blue"))
    snapshot = await read_pool_market(
        fake_ctx, pool, own_addresses=frozenset(), own_bid_ids=frozenset({"mine"})
    )
    assert dict(fake.requests[0].url.params)["collectionSlug"] == "puppets"
    assert snapshot.bid_levels == (PriceLevel(7_000, 1, 0), PriceLevel(6_000, 1, 1))
    assert snapshot.my_ranks == (BidRank("mine", 6_000, 2, 2, 1_000.0, False),)


async def test_a_rune_pool_is_asked_by_its_name(fake_ctx: ServiceContext, fake: FakeMarket) -> None:
    row = {"id": "r", "orderType": "bid", "collectionSlug": "DOGGOTOTHEMOON", "price": 50_000,
           "unitPrice": 0.5, "quantity": 100_000, "bid": {"kind": "rune"}}  # fmt: skip
    fake.json("/v1/activity/bids", page([row], 1))
    fake.json("/v1/activity/listings", page([], 0))
    pool = PoolKey("DOG•GO•TO•THE•MOON")
    snapshot = await read_pool_market(
        fake_ctx, pool, own_addresses=frozenset(), own_bid_ids=frozenset()
    )
    assert dict(fake.requests[0].url.params)["collectionSlug"] == "DOG•GO•TO•THE•MOON"
    assert snapshot.is_rune and snapshot.top_bid == 0.5 and snapshot.bid_units == 100_000


async def test_a_failure_raises_the_net_error(fake_ctx: ServiceContext, fake: FakeMarket) -> None:
    fake.json("/v1/activity/bids", {"error": "down"}, 503)
    with pytest.raises(ServerError):
        await read_pool_market(
            fake_ctx, PUPPETS, own_addresses=frozenset(), own_bid_ids=frozenset()
        )


async def test_our_orders_are_our_addresses_and_open_bid_ids(
    fake_ctx: ServiceContext, fake: FakeMarket
) -> None:
    def bids_of(request: httpx.Request) -> httpx.Response:
        ids = {fake_ctx.ordinals_address: ["o1", "both"], fake_ctx.payment_address: ["p1", "both"]}
        rows = [{"bid_id": i, "price": 1_000} for i in ids[request.url.params["address"]]]
        return httpx.Response(200, json={"success": True, "data": {"results": rows}})

    fake.routes["/v1/address/bids"] = bids_of
    fake_ctx.remember_bidding_wallet("bc1pbidding")
    own = await read_own_orders(fake_ctx)
    assert own == OwnOrders(
        frozenset({fake_ctx.ordinals_address, fake_ctx.payment_address, "bc1pbidding"}),
        frozenset({"o1", "p1", "both"}),
    )


# --- the reader -----------------------------------------------------------------------------


class FakeTime:
    """A clock the sleeper moves when a wait ends; a wait only yields to the event loop."""

    def __init__(self) -> None:
        self.ms = 1_000_000
        self.waits: list[int] = []

    def now_ms(self) -> int:
        return self.ms

    async def sleep_ms(self, ms: int) -> None:
        await asyncio.sleep(0)  # a wait cut short (cancelled) moves nothing
        self.waits.append(ms)
        self.ms += ms


TIMING = PollTiming(start_ms=0, fast_ms=1_000, fast_polls=1, base_ms=10_000, idle_growth=2,
                    idle_max_ms=40_000, error_max_ms=80_000)  # fmt: skip
NOBODY = OwnOrders(frozenset(), frozenset())


def reader(fake_ctx: ServiceContext, time_: FakeTime, seen: list[PoolMarket]) -> MarketReader:
    return MarketReader(
        lambda: fake_ctx,
        sleeper=time_,
        clock=time_,
        on_update=seen.append,
        own_orders=lambda: NOBODY,
        timing=TIMING,
        jitter=lambda: 0.0,
    )


async def run_until(market: MarketReader, seen: list[PoolMarket], count: int) -> None:
    task = asyncio.ensure_future(market.run())
    try:
        for _ in range(10_000):
            if len(seen) >= count:
                return
            await asyncio.sleep(0)
        raise AssertionError(f"only {len(seen)} readings")
    finally:
        task.cancel()


async def test_refresh_keeps_the_last_snapshot_marked_stale_on_an_error(
    fake_ctx: ServiceContext, fake: FakeMarket
) -> None:
    seen: list[PoolMarket] = []
    market = reader(fake_ctx, FakeTime(), seen)
    fake.json("/v1/activity/bids", page([bid_row("x", 4_000)], 1))
    fake.json("/v1/activity/listings", page([], 0))
    fresh = await market.refresh(PUPPETS)
    assert not fresh.stale and fresh.snapshot is not None and fresh.snapshot.top_bid == 4_000
    fake.json("/v1/activity/bids", {"error": "down"}, 503)
    held = await market.refresh(PUPPETS)
    assert held.stale and isinstance(held.error, ServerError)
    assert held.snapshot == fresh.snapshot
    assert market.cached(PUPPETS) == held and seen == [fresh, held]
    assert held.age_ms(fresh.snapshot.fetched_at_ms + 2_500) == 2_500


async def test_an_error_before_any_snapshot_holds_none(
    fake_ctx: ServiceContext, fake: FakeMarket
) -> None:
    market = reader(fake_ctx, FakeTime(), [])
    held = await market.refresh(PUPPETS)  # no route: a 404 from a framework
    assert held.snapshot is None and held.stale and held.age_ms(0) is None


async def test_the_schedule_stretches_while_idle_backs_off_on_errors_and_nudges(
    fake_ctx: ServiceContext, fake: FakeMarket
) -> None:
    time_ = FakeTime()
    seen: list[PoolMarket] = []
    market = reader(fake_ctx, time_, seen)
    fake.json("/v1/activity/bids", page([bid_row("x", 4_000)], 1))
    fake.json("/v1/activity/listings", page([], 0))
    market.watch([PUPPETS])
    await run_until(market, seen, 3)  # at once, then base, then base (nothing changed)
    assert time_.waits == [10_000, 10_000]
    await run_until(market, seen, 4)  # idle: x2
    assert time_.waits[-1] == 20_000
    fake.json("/v1/activity/bids", {"error": "down"}, 503)
    await run_until(market, seen, 6)  # the wait before, then backoff: base x 2^errors / 2
    assert time_.waits[-2:] == [40_000, 5_000]
    assert seen[-1].stale and seen[-1].snapshot == seen[3].snapshot  # the last good one
    fake.json("/v1/activity/bids", page([bid_row("y", 5_000)], 1))
    market.nudge()
    await run_until(market, seen, 8)  # fast: the nudge's wait, then its one fast poll
    assert time_.waits[-2:] == [1_000, 1_000] and not seen[-1].stale
    assert seen[-1].snapshot is not None and seen[-1].snapshot.top_bid == 5_000


async def test_watch_reads_new_pools_at_once_and_forgets_dropped_ones(
    fake_ctx: ServiceContext, fake: FakeMarket
) -> None:
    time_ = FakeTime()
    seen: list[PoolMarket] = []
    market = reader(fake_ctx, time_, seen)
    fake.json("/v1/activity/bids", page([], 0))
    fake.json("/v1/activity/listings", page([], 0))
    other = PoolKey("monkes")
    market.watch([PUPPETS, other])
    await run_until(market, seen, 2)
    assert {m.pool for m in seen} == {PUPPETS, other} and time_.waits == []
    market.watch([other])
    await run_until(market, seen, 4)
    assert [m.pool for m in seen[2:]] == [other, other]
    assert market.watched == (other,) and market.cached(PUPPETS) is not None
