"""Our own bid is never a rival's in the market the window shows, even when the service shows
no bidder address of ours (it need not: which address it shows is undocumented) and the window
has not read our open bids yet: the reader then asks the service for their ids, so "Top bid +
step" never outbids ourselves. A fake marketplace in the sandbox's wire format."""

from __future__ import annotations

import httpx
import pytest

from app.core.market_snapshot import top_bid_plus_step
from app.services.context import ServiceContext
from app.services.market import MarketReader, OwnOrders
from app.services.pacing import SystemClock
from tests.services.test_market import PUPPETS, ask_row, bid_row, page
from tests.support.fake_market import FakeMarket

pytestmark = pytest.mark.asyncio(loop_scope="session")


class NoSleep:
    async def sleep_ms(self, ms: int) -> None:
        raise AssertionError("refresh() does not wait")


def our_bid_listed(fake: FakeMarket, fake_ctx: ServiceContext) -> None:
    def bids_of(request: httpx.Request) -> httpx.Response:
        mine = request.url.params["address"] == fake_ctx.ordinals_address
        rows = [{"bid_id": "mine", "price": 9_000, "collectionSlug": "puppets"}] if mine else []
        return httpx.Response(200, json={"success": True, "data": {"results": rows}})

    fake.routes["/v1/address/bids"] = bids_of
    # Our bid at 9,000 under no address of ours (the service hides it), a rival's at 8,000.
    bids = [bid_row("mine", 9_000, bidder=""), bid_row("rival", 8_000)]
    fake.json("/v1/activity/bids", page(bids, 2))
    fake.json("/v1/activity/listings", page([ask_row("a", 30_000)], 1))


async def test_before_our_open_bids_are_read_the_reader_asks_for_them(
    fake_ctx: ServiceContext, fake: FakeMarket
) -> None:
    our_bid_listed(fake, fake_ctx)
    market = MarketReader(
        lambda: fake_ctx, sleeper=NoSleep(), clock=SystemClock(), own_orders=lambda: None
    )
    held = await market.refresh(PUPPETS)
    snapshot = held.snapshot
    assert snapshot is not None and snapshot.top_bid == 8_000  # the rival's, not ours
    assert [r.bid_id for r in snapshot.my_ranks] == ["mine"]
    assert top_bid_plus_step(snapshot) == 9_000  # one step above the rival: not above us
    assert len(fake.asked("/v1/address/bids")) == 2  # both of our addresses


async def test_with_our_open_bids_known_the_service_is_not_asked_for_them(
    fake_ctx: ServiceContext, fake: FakeMarket
) -> None:
    our_bid_listed(fake, fake_ctx)
    known = OwnOrders(frozenset(), frozenset({"mine"}))
    market = MarketReader(
        lambda: fake_ctx, sleeper=NoSleep(), clock=SystemClock(), own_orders=lambda: known
    )
    snapshot = (await market.refresh(PUPPETS)).snapshot
    assert snapshot is not None and snapshot.top_bid == 8_000
    assert fake.asked("/v1/address/bids") == []
