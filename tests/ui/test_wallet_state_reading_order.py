"""The bids and balance the tabs show come from two readers, `WalletState`'s own loads (its
timer, Refresh, after every action) and the live updates' readings (`MarketWatch`); the one
shown is the one started last, whatever order they end in. A live reading started before a
cancel (it reads more than the load does, so it ends later) landed after the load that
followed the cancel, and Open bids showed the cancelled bid again until the next reading; a
load that failed late said its error under bids read since.

Both readers' answers are held by hand (a future per read, resolved in the order chosen
here); the watcher's waits are the test's (`StepSleeper`). No request leaves the test."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

import app.services.open_bids as open_bids
import app.services.watch as watch
from app.core.poll_schedule import PollTiming
from app.net.errors import TransportError
from app.net.marketplace_bids import BidListEntry
from app.services.bidding_wallet import BiddingWalletBalance
from app.services.context import ServiceContext
from app.services.open_bids import OpenBidsView
from app.services.watch import MarketReading
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.loop import run_async
from app.ui.qa.profiles import open_prepared_app, unlock_by_typing
from app.ui.state.market_watch import MarketWatch
from app.ui.state.wallet_state import WalletState
from tests.support.step_sleeper import StepSleeper

TIMING = PollTiming(start_ms=1_000, fast_ms=1_000, base_ms=2_000, idle_max_ms=8_000)


def _view(*bid_ids: str) -> OpenBidsView:
    entries = tuple(
        BidListEntry(bid_id=b, type="collection", price=10_000, quantity=1,
                     expiration_ms=1_900_000_000_000, collection_slug="pixel-pals")
        for b in bid_ids
    )  # fmt: skip
    return OpenBidsView(entries, (), BiddingWalletBalance("bcrt1qbidding", 50_000, 0), ())


class HeldReads:
    """The live updates' readings and the state's loads, each waiting for the test."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.live: list[asyncio.Future[OpenBidsView]] = []
        self.loads: list[asyncio.Future[OpenBidsView]] = []

    async def read_market(self, ctx: ServiceContext, **_: bool) -> MarketReading:
        self.live.append(self.loop.create_future())
        view = await self.live[-1]
        snapshot = watch._snapshot(ctx.clock.now_ms(), view, 0, ctx.maker_fee, None, None)
        return MarketReading(view, 0, None, None, snapshot)

    async def load_open_bids(self, _ctx: ServiceContext) -> OpenBidsView:
        self.loads.append(self.loop.create_future())
        return await self.loads[-1]


@pytest.mark.parametrize("older_fails", [False, True])
def test_the_reading_started_last_is_shown_whichever_ends_last(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    monkeypatch: pytest.MonkeyPatch,
    older_fails: bool,
) -> None:
    app = open_prepared_app(qtbot, open_app, make_options())
    unlock_by_typing(qtbot, app)
    state = WalletState.of(app.context)
    state.timer.setInterval(3_600_000)  # only the reads this test starts
    qtbot.waitUntil(lambda: not state.busy)  # the unlock's own load (nothing answers it)
    held = HeldReads(qloop)
    monkeypatch.setattr(watch, "read_market", held.read_market)
    monkeypatch.setattr(open_bids, "load_open_bids", held.load_open_bids)
    live = MarketWatch.of(app.context)
    sleeper = StepSleeper()
    live.use_time(sleeper, TIMING)
    run_async(qloop, sleeper.next_wait())
    shown: list[OpenBidsView] = []
    state.updated.connect(shown.append)
    failed: list[str] = []
    state.failed.connect(failed.append)

    # A live reading starts (the bid still open), then a load after the bid was cancelled.
    sleeper._go.put_nowait(None)
    qtbot.waitUntil(lambda: len(held.live) == 1)
    state.request_refresh()
    qtbot.waitUntil(lambda: len(held.loads) == 1)
    after_cancel = _view()
    held.loads[0].set_result(after_cancel)
    qtbot.waitUntil(lambda: not state.busy)
    assert state.view is after_cancel and shown == [after_cancel]
    held.live[0].set_result(_view("cancelled-bid"))  # the live reading ends last
    run_async(qloop, sleeper.next_wait())  # it was handed over; the watcher waits again
    assert state.view is after_cancel and shown == [after_cancel]

    # Now a load starts first, a live reading after it; the load ends last.
    state.request_refresh()
    qtbot.waitUntil(lambda: len(held.loads) == 2)
    sleeper._go.put_nowait(None)
    qtbot.waitUntil(lambda: len(held.live) == 2)
    newest = _view("placed-since")
    held.live[1].set_result(newest)
    run_async(qloop, sleeper.next_wait())
    assert state.view is newest and shown[-1] is newest
    if older_fails:
        held.loads[1].set_exception(TransportError("marketplace", "GET", "/v1/bids", "lost"))
    else:
        held.loads[1].set_result(after_cancel)
    qtbot.waitUntil(lambda: not state.busy)
    assert state.view is newest and shown == [after_cancel, newest] and failed == []
