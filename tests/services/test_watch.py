"""Live updates against the real sandbox: the watcher's loop reads the market on its own
schedule and tells a fill (and the pool rule's cancellation after it), an expiry and a sale,
but not our own cancel; on errors its waits grow. Time is the test's: the sleeper returns
when the test says, so nothing sleeps and no duration is asserted."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.core.market_events import BIDDING, EventKind, MarketEvent
from app.core.poll_schedule import PollSchedule, PollTiming
from app.services.bids import BidSpec, place_bid
from app.services.cancel import cancel_bids
from app.services.context import ServiceContext
from app.services.listings import ListingItem, execute_listings, prepare_listings
from app.services.open_bids import fetch_open_bids
from app.services.watch import MarketReading, MarketWatcher
from tests.services.conftest import (
    SandboxControl,
    SandboxFaults,
    SandboxSleeper,
    hour_from_now,
)
from tests.support.step_sleeper import StepSleeper

pytestmark = pytest.mark.asyncio(loop_scope="session")

TIMING = PollTiming(start_ms=1_000, fast_ms=1_000, fast_polls=0, base_ms=2_000, idle_max_ms=8_000)


class Watch:
    """A running watcher and what it told."""

    def __init__(self, ctx: ServiceContext, schedule: PollSchedule | None = None) -> None:
        self.sleeper = StepSleeper()
        self.events: list[MarketEvent] = []
        self.errors: list[int] = []
        self.watcher = MarketWatcher(
            lambda: ctx,
            self._reading,
            sleeper=self.sleeper,
            schedule=schedule or PollSchedule(TIMING),
            on_error=lambda _exc, wait: self.errors.append(wait),
        )
        self.task = asyncio.ensure_future(self.watcher.run())

    def _reading(self, _reading: MarketReading, events: list[MarketEvent]) -> None:
        self.events += events

    async def started(self) -> Watch:
        await self.sleeper.next_wait()
        return self

    async def tick(self) -> list[MarketEvent]:
        """One scheduled reading; the events it told."""
        told = len(self.events)
        await self.sleeper.elapse()
        return self.events[told:]

    async def stop(self) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)


def _data(body: Any) -> Any:
    return body["data"] if isinstance(body, dict) and "data" in body else body


async def _fill(sandbox: SandboxControl, collection: str, bid_id: str) -> dict[str, Any]:
    """A sandbox collector sells a new inscription of `collection` to bid `bid_id`."""
    collector = _data((await sandbox.http.get("/sandbox/addresses/collector-1")).json())["address"]
    await sandbox.inscribe(collector, collection)
    response = await sandbox.http.post("/sandbox/bids/fill", json={"bidId": bid_id})
    assert response.status_code == 200, response.text
    fill: dict[str, Any] = _data(response.json())
    return fill


async def _ids(ctx: ServiceContext, collection: str) -> dict[str, str]:
    """Our open bids on `collection` by what they are on (the collection, or a trait)."""
    return {
        (e.attribute.value if e.attribute else "all"): e.bid_id
        for e in await fetch_open_bids(ctx)
        if e.collection_slug == collection
    }


async def test_a_fill_and_the_pool_rules_cancellation_come_without_a_refresh(
    bidder: ServiceContext, collection: str, sandbox: SandboxControl
) -> None:
    # 1,000,000 sats: 600,000 on the collection and 500,000 on one trait (two pools). Once
    # the first fills, what is left cannot cover the second: the service cancels it.
    expiry = hour_from_now(bidder)
    await place_bid(bidder, BidSpec.collection(collection, 600_000, 1, expiry))
    await place_bid(bidder, BidSpec.trait(collection, [_trait("hat", "red")], 500_000, 1, expiry))
    ids = await _ids(bidder, collection)
    watch = await Watch(bidder).started()
    try:
        assert await watch.tick() == []  # the baseline
        assert await watch.tick() == []  # nothing changed
        fill = await _fill(sandbox, collection, ids["all"])
        assert fill["cancelledBidIds"] == [ids["red"]]
        events = await watch.tick()
    finally:
        await watch.stop()
    by_kind = {e.kind: e for e in events}
    assert set(by_kind) == {
        EventKind.BID_FILLED,
        EventKind.BID_CANCELLED_BY_SERVICE,
        EventKind.BALANCE_CHANGED,
    }
    filled = by_kind[EventKind.BID_FILLED]
    assert (filled.subject, filled.what, filled.price, filled.remaining) == (
        ids["all"],
        collection,
        600_000,
        0,
    )
    assert by_kind[EventKind.BID_CANCELLED_BY_SERVICE].subject == ids["red"]
    balance = by_kind[EventKind.BALANCE_CHANGED]
    assert balance.subject == BIDDING
    assert balance.before - balance.after == 600_000 + fill["makerFee"]  # type: ignore[operator]
    assert watch.watcher.readings == 3


async def test_our_own_cancel_tells_nothing_and_an_expiry_is_told_as_one(
    bidder: ServiceContext,
    collection: str,
    sandbox_sleeper: SandboxSleeper,
) -> None:
    soon = bidder.clock.now_ms() + 20 * 60_000
    await place_bid(bidder, BidSpec.collection(collection, 20_000, 1, hour_from_now(bidder)))
    await place_bid(bidder, BidSpec.trait(collection, [_trait("eyes", "sleepy")], 10_000, 1, soon))
    ids = await _ids(bidder, collection)
    watch = await Watch(bidder).started()
    try:
        assert await watch.tick() == []
        watch.watcher.differ.expect_own_cancel([ids["all"]])
        report = await cancel_bids(bidder, [ids["all"]])
        assert report.all_cancelled
        assert await watch.tick() == []  # ours: no news
        await sandbox_sleeper.sleep_ms(20 * 60_000)  # the service's clock passes the expiry
        events = await watch.tick()
    finally:
        await watch.stop()
    assert [(e.kind, e.subject) for e in events] == [(EventKind.BID_EXPIRED, ids["sleepy"])]


async def test_errors_back_off_and_a_good_reading_ends_it(
    bidder: ServiceContext, sandbox_faults: SandboxFaults
) -> None:
    watch = await Watch(bidder, PollSchedule(TIMING, jitter=lambda: 1.0)).started()
    fault = await sandbox_faults.arm(
        "reply", "/v1/address/bids", method="GET", status=503, body={"message": "down"}, times=None
    )
    try:
        for _ in range(4):
            await watch.tick()
        await sandbox_faults.remove(fault)
        await watch.tick()
        await watch.tick()
    finally:
        await watch.stop()
    assert watch.errors == [2_000, 4_000, 8_000, 16_000]
    # start, the four backoffs, then the schedule again (a baseline, then an idle reading)
    assert watch.sleeper.waits == [1_000, 2_000, 4_000, 8_000, 16_000, 2_000, 2_000]
    assert watch.watcher.readings == 2


async def test_an_action_cuts_a_long_wait_short(bidder: ServiceContext) -> None:
    timing = PollTiming(start_ms=60_000, fast_ms=1_000, base_ms=2_000, idle_max_ms=8_000)
    watch = await Watch(bidder, PollSchedule(timing)).started()
    try:
        watch.watcher.nudge()  # the first wait (a minute) gives way to the short one
        assert await watch.sleeper.next_wait() == 1_000
    finally:
        await watch.stop()
    assert watch.sleeper.waits == [60_000, 1_000]


def _trait(trait_type: str, value: str) -> Any:
    from app.core.bid_request import Trait

    return Trait(trait_type, value)


async def test_a_sale_is_told_with_its_transaction(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    created = await sandbox.inscribe(ctx.ordinals_address)
    item = ListingItem(150_000, created.inscription_id)
    done = await execute_listings(ctx, await prepare_listings(ctx, [item]))
    listing_id = done.listings[0].listing_id
    watch = await Watch(ctx).started()
    try:
        assert await watch.tick() == []
        sold = await sandbox.http.post("/sandbox/listings/purchase", json={"listingId": listing_id})
        assert sold.status_code == 200, sold.text
        events = await watch.tick()
    finally:
        await watch.stop()
    sale = [e for e in events if e.kind is EventKind.LISTING_SOLD]
    assert [(e.subject, e.what, e.price) for e in sale] == [
        (listing_id, created.inscription_id, 150_000)
    ]
    assert sale[0].txid is not None and len(sale[0].txid) == 64
    # The buyer paid the payment address: a balance change, and no bid event.
    assert {e.kind for e in events} == {EventKind.LISTING_SOLD, EventKind.BALANCE_CHANGED}
