"""Bulk placement: one request after another with progress, failures reported per request,
and a cancel (token or asyncio) that stops between requests, never inside one."""

from __future__ import annotations

import asyncio

import pytest

from app.services.bids import BidSpec, BulkProgress, place_bids
from app.services.context import CancelToken, ServiceContext
from app.services.errors import BidRejectedError
from app.services.open_bids import fetch_open_bids
from tests.services.conftest import ContextFactory, SandboxFaults, SandboxSleeper, hour_from_now

pytestmark = pytest.mark.asyncio(loop_scope="session")


def _specs(ctx: ServiceContext, slug: str, prices: list[int]) -> list[BidSpec]:
    return [BidSpec.collection(slug, price, 1, hour_from_now(ctx)) for price in prices]


async def _prices(ctx: ServiceContext, slug: str) -> list[int]:
    return sorted(e.price or 0 for e in await fetch_open_bids(ctx) if e.collection_slug == slug)


async def test_bulk_places_each_request_with_progress(
    bidder: ServiceContext, collection: str, sandbox_sleeper: SandboxSleeper
) -> None:
    specs = _specs(bidder, collection, [11_000, 12_500, 13_000, 14_000])  # 12,500: bad step
    seen: list[BulkProgress] = []
    result = await place_bids(bidder, specs, progress=seen.append)
    assert [p.done for p in seen] == [1, 2, 3, 4] and {p.total for p in seen} == {4}
    assert not result.cancelled
    assert [i.index for i in result.placed] == [0, 2, 3]
    (failed,) = result.failed
    assert failed.index == 1 and isinstance(failed.error, BidRejectedError)
    assert await _prices(bidder, collection) == [11_000, 13_000, 14_000]
    # Paced, not rate-limited: each request after the first waited 500 ms.
    assert sandbox_sleeper.waits == [500, 500]


async def test_cancel_token_stops_before_the_next_request(
    make_context: ContextFactory,
    bidder: ServiceContext,
    collection: str,
    sandbox_faults: SandboxFaults,
) -> None:
    ctx = make_context(bidder.keys)
    token = CancelToken()

    def on_progress(progress: BulkProgress) -> None:
        if progress.done == 2:
            token.cancel()

    specs = _specs(ctx, collection, [1_000, 2_000, 3_000, 4_000])
    result = await place_bids(ctx, specs, progress=on_progress, cancel=token)
    assert result.cancelled and len(result.items) == 2 and result.total == 4
    assert len(await sandbox_faults.placements(collection)) == 2
    assert await _prices(ctx, collection) == [1_000, 2_000]


class CancelDuringWait:
    """A sleeper that cancels the bulk task when the second request waits for its pace:
    the asyncio cancellation then arrives while that request is in flight."""

    def __init__(self, inner: SandboxSleeper) -> None:
        self.inner = inner
        self.task: asyncio.Task[object] | None = None

    async def sleep_ms(self, ms: int) -> None:
        if self.task is not None:
            self.task.cancel()
            self.task = None
        await self.inner.sleep_ms(ms)


async def test_asyncio_cancel_finishes_the_request_in_flight_then_stops(
    make_context: ContextFactory,
    bidder: ServiceContext,
    collection: str,
    sandbox_faults: SandboxFaults,
    sandbox_sleeper: SandboxSleeper,
) -> None:
    ctx = make_context(bidder.keys)
    sleeper = CancelDuringWait(sandbox_sleeper)
    ctx.sleeper = sleeper
    seen: list[BulkProgress] = []
    specs = _specs(ctx, collection, [21_000, 22_000, 23_000])
    task = asyncio.ensure_future(place_bids(ctx, specs, progress=seen.append))
    sleeper.task = task
    with pytest.raises(asyncio.CancelledError):
        await task
    assert [p.done for p in seen] == [1, 2]
    assert all(p.last.outcome is not None for p in seen)  # the second one was completed
    assert len(await sandbox_faults.placements(collection)) == 2
    assert await _prices(ctx, collection) == [21_000, 22_000]
