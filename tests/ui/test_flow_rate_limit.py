"""A rate-limited placement that succeeds after the wait, through the Bid tab.

Another session of the same wallet (the test, with its own context and pacer) has just placed
a 40-trait bid, so the service wants 40 x 500 ms before this address bids again; the app
cannot know and is answered 429 with retryAfterMs. It waits exactly that long (the injected
sleeper moves the sandbox clock and the app's instead of sleeping), then signs a NEW request
and is accepted."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx
from pytestqt.qtbot import QtBot

from app.core.bid_request import Trait
from app.net.clients import NetClients
from app.net.config import ServiceConfig
from app.services.bids import BidSpec, place_bid
from app.services.context import ServiceContext
from app.services.pacing import OffsetClock
from app.services.sandbox_process import SandboxProcess
from app.ui.profile_session import profile_session
from app.ui.qa.actions import type_into
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.loop import run_async
from app.ui.qa.pages.bid import bid_tab_ready, place_from_bid_tab
from app.ui.qa.profiles import open_funded_app
from app.ui.qa.sandbox import SandboxClockSleeper, fund_bidding_wallet, new_collection

TRAIT_VALUES = [f"v{n:02d}" for n in range(40)]


def test_rate_limited_placement_waits_then_succeeds(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app = funded.app
    slug = new_collection(funded.root_url, {"n": TRAIT_VALUES})
    fund_bidding_wallet(app, qloop, 200_000)
    session = profile_session(app.context)
    assert isinstance(session.clock, OffsetClock)
    tab = bid_tab_ready(qtbot, app, slug)
    shown: list[str] = []  # what the tab says while the app waits

    class WatchingSleeper(SandboxClockSleeper):
        async def sleep_ms(self, ms: int) -> None:
            shown.append(tab.result.text())
            await super().sleep_ms(ms)

    sleeper = WatchingSleeper(funded.root_url, session.clock)
    session.use_time(session.clock, sleeper)
    type_into(qtbot, tab.form.slug, slug)
    type_into(qtbot, tab.form.price.edit, "2,000")
    assert tab.last_preview.placeable, tab.last_preview.errors

    # The other session's 40-trait bid, placed with its own context (its own pacer).
    other = NetClients.open(ServiceConfig.sandbox(funded.root_url))
    try:
        ctx = ServiceContext(other, funded.keys, maker_fee=session.maker_fee, clock=session.clock)
        traits = [Trait("n", value) for value in TRAIT_VALUES]
        expiry = session.clock.now_ms() + 3_600_000
        run_async(qloop, place_bid(ctx, BidSpec.trait(slug, traits, 1_000, 1, expiry)))
    finally:
        run_async(qloop, other.aclose())

    gui_thread.start()
    place_from_bid_tab(qtbot, app, tab)
    qtbot.waitUntil(lambda: tab.result.text().startswith(("Placed:", "Not placed")), timeout=30_000)
    assert tab.result.text() == (f"Placed: 1 bid in {slug}. Accepted at attempt 2 (rate limited).")
    # One wait, exactly what the service asked for (at most the 20 s of 40 traits).
    (wait,) = [ms for ms in sleeper.waits if ms > 0]
    assert 0 < wait <= 40 * 500
    assert shown == [
        f"Waiting {wait / 1000:.1f} s: the service allows one bid per 500 ms per trait…"
    ]
    gui_thread.assert_not_blocked()

    with gui_thread.paused(), httpx.Client(base_url=funded.root_url, timeout=30) as http:
        body = http.get("/v1/address/bids", params={"address": funded.keys.ordinals.address})
    rows = body.json()["data"]["results"]
    plain = [r for r in rows if r.get("attribute") is None]
    assert len(rows) == 41 and len(plain) == 1 and plain[0]["price"] == 2_000
    attempts = [e for e in app.context.activity.entries() if e.action == "bid.place"]  # type: ignore[union-attr]
    assert len(attempts) == 1 and attempts[0].ok
