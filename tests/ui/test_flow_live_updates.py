"""Live updates in the window, against the real sandbox: a bid filled by the sandbox's
scenario API leaves Open bids and shows in Activity (and as a notification: the status bar,
offscreen having no system tray) with no Refresh pressed; the pool rule's cancellation after
it is told too; a sale shows in Listings the same way; a fill while locked is told on
unlocking; the Settings toggle silences the notifications while Activity keeps every event.
The watcher's time is the test's (`StepSleeper`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.bid_request import Trait
from app.core.poll_schedule import PollTiming
from app.services.bids import BidSpec, place_bid
from app.services.listings import ListingItem, execute_listings, prepare_listings
from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.dialogs.unlock import UnlockDialog
from app.ui.models.activity_model import COL_ACTION
from app.ui.profile_session import profile_session
from app.ui.qa.actions import click, type_into, wait_new_dialog
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.loop import run_async
from app.ui.qa.profiles import PASSWORD, open_funded_app
from app.ui.qa.sandbox import fund_bidding_wallet, sandbox_post
from app.ui.state.market_watch import MarketWatch
from app.ui.tabs.activity_tab import ActivityTab
from app.ui.tabs.listings_tab import ListingsTab
from app.ui.tabs.open_bids_tab import OpenBidsTab
from app.ui.tabs.settings_tab import SettingsTab
from tests.support.step_sleeper import StepSleeper

TIMING = PollTiming(start_ms=1_000, fast_ms=1_000, base_ms=2_000, idle_max_ms=8_000)


def _place(app: AppHarness, loop: asyncio.AbstractEventLoop, spec: BidSpec) -> None:
    ctx = profile_session(app.context).signing_context()
    run_async(loop, place_bid(ctx, spec))


def _expiry(app: AppHarness) -> int:
    return profile_session(app.context).clock.now_ms() + 3_600_000


def _fill(root: str, slug: str, bid_id: str) -> dict[str, object]:
    """A sandbox collector sells a new inscription of `slug` to bid `bid_id`."""
    body = {"address": _collector(root), "collectionSlug": slug}
    sandbox_post(root, "/sandbox/inscriptions", body)
    sandbox_post(root, "/sandbox/mine", {"blocks": 1})
    fill: dict[str, object] = sandbox_post(root, "/sandbox/bids/fill", {"bidId": bid_id})
    return fill


def _collector(root: str) -> str:
    with httpx.Client(base_url=root, timeout=60) as http:
        address: str = http.get("/sandbox/addresses/collector-1").json()["address"]
    return address


def _listed_with_live_time(
    app: AppHarness, loop: asyncio.AbstractEventLoop, item: str, price: int
) -> tuple[str, StepSleeper]:
    """`item` listed at `price` (its listing id), and the live updates on a clock the test
    steps by hand (the wallet state's own timer out of the way)."""
    ctx = profile_session(app.context).signing_context()
    plan = run_async(loop, prepare_listings(ctx, [ListingItem(price, item)]))
    listing_id = run_async(loop, execute_listings(ctx, plan)).listings[0].listing_id
    del ctx
    live = MarketWatch.of(app.context)
    sleeper = StepSleeper()
    live.use_time(sleeper, TIMING)
    live.state.timer.setInterval(3_600_000)
    return listing_id, sleeper


def _activity_lines(tab: ActivityTab) -> list[str]:
    return [tab.model.entry(r).message for r in range(tab.model.rowCount())]


def test_a_fill_shows_without_refresh_and_the_toggle_silences_notifications(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app, slug, root = funded.app, funded.assets.collection_slug, funded.root_url
    fund_bidding_wallet(app, qloop, 1_000_000)
    _place(app, qloop, BidSpec.collection(slug, 600_000, 1, _expiry(app)))
    _place(app, qloop, BidSpec.trait(slug, [Trait("Hat", "Cap")], 500_000, 1, _expiry(app)))
    live = MarketWatch.of(app.context)
    assert live.running and live.notifier is app.window.notifier
    assert app.window.notifier.tray is None  # offscreen: no system tray, the status bar tells
    sleeper = StepSleeper()
    live.use_time(sleeper, TIMING)
    state = live.state
    state.timer.setInterval(3_600_000)  # only the watcher reads, when the test says

    gui_thread.start()
    app.window.show_tab("open_bids")
    tab = app.window.tab("open_bids")
    activity = app.window.tab("activity")
    assert isinstance(tab, OpenBidsTab) and isinstance(activity, ActivityTab)
    run_async(qloop, sleeper.next_wait())
    run_async(qloop, sleeper.elapse())  # the baseline
    qtbot.waitUntil(lambda: tab.model.rowCount() == 2, timeout=20_000)
    ids = {tab.model.bid_id(r) for r in range(2)}
    by_trait = {e.attribute is not None: e.bid_id for e in state.view.bids}  # type: ignore[union-attr]

    with gui_thread.paused():
        fill = _fill(root, slug, by_trait[False])
    assert fill["cancelledBidIds"] == [by_trait[True]]
    run_async(qloop, sleeper.elapse())  # the next scheduled reading: no click anywhere
    qtbot.waitUntil(lambda: tab.model.rowCount() == 0, timeout=20_000)
    assert tab.counts.text() == strings.OPEN_BIDS_EMPTY
    lines = _activity_lines(activity)
    filled = f"1 × {slug} at 600,000 sats"
    cancelled = f"1 × {slug} [Hat: Cap] at 500,000 sats: the bidding wallet no longer covers it"
    assert filled in lines and cancelled in lines
    assert any(line.startswith("Bidding wallet: 1,000,000 → ") for line in lines)
    shown = app.window.notifier.shown
    assert ("Bid filled", f"1 × {slug} at 600,000 sats") in shown
    assert app.window.status.currentMessage().startswith("Bid ")
    assert ids == set(by_trait.values())

    # Notifications off (Settings): the next fill is in Activity, and nowhere else.
    app.window.show_tab("settings")
    settings = app.window.tab("settings")
    assert isinstance(settings, SettingsTab) and settings.notifications.isChecked()
    click(qtbot, settings.notifications)
    qtbot.waitUntil(lambda: not app.context.settings.notifications, timeout=10_000)
    app.window.show_tab("open_bids")
    with gui_thread.paused():
        fund_bidding_wallet(app, qloop, 100_000)
        _place(app, qloop, BidSpec.collection(slug, 50_000, 1, _expiry(app)))
    run_async(qloop, sleeper.elapse())
    qtbot.waitUntil(lambda: tab.model.rowCount() == 1, timeout=20_000)
    second = tab.model.bid_id(0)
    app.window.status.clearMessage()
    with gui_thread.paused():
        _fill(root, slug, second)
    run_async(qloop, sleeper.elapse())
    qtbot.waitUntil(lambda: tab.model.rowCount() == 0, timeout=20_000)
    assert f"1 × {slug} at 50,000 sats" in _activity_lines(activity)
    entries = app.context.activity.entries()  # type: ignore[union-attr]
    [entry] = [e for e in entries if e.details == {"id": second}]
    assert entry.action == "market.bid_filled"
    row = next(r for r in range(activity.model.rowCount()) if activity.model.entry(r) is entry)
    assert activity.model.index(row, COL_ACTION).data() == "Bid filled"
    assert len(app.window.notifier.shown) == len(shown)
    assert not app.window.status.currentMessage().startswith("Bid ")
    gui_thread.assert_not_blocked()


def test_a_fill_while_locked_is_told_on_unlocking(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app, slug = funded.app, funded.assets.collection_slug
    fund_bidding_wallet(app, qloop, 500_000)
    _place(app, qloop, BidSpec.collection(slug, 100_000, 1, _expiry(app)))
    live = MarketWatch.of(app.context)
    sleeper = StepSleeper()
    live.use_time(sleeper, TIMING)
    live.state.timer.setInterval(3_600_000)
    run_async(qloop, sleeper.next_wait())
    run_async(qloop, sleeper.elapse())  # the baseline, with the bid open
    assert live.watcher is not None and live.watcher.readings == 1
    [bid] = live.state.view.bids  # type: ignore[union-attr]

    app.context.wallet_lock.lock()
    assert not live.running  # nothing is read while locked
    _fill(funded.root_url, slug, bid.bid_id)
    before = len(app.dialogs)
    app.window.unlock_action.trigger()  # File > Unlock
    unlock = wait_new_dialog(qtbot, app, UnlockDialog, before)
    type_into(qtbot, unlock.password, PASSWORD)
    with qtbot.waitSignal(app.context.lock_changed, timeout=20_000):
        qtbot.keyClick(unlock.password, Qt.Key.Key_Return)
    assert live.running
    run_async(qloop, sleeper.next_wait())
    run_async(qloop, sleeper.elapse())
    entries = app.context.activity.entries()  # type: ignore[union-attr]
    told = [(e.action, e.message) for e in entries]
    assert ("market.bid_filled", f"1 × {slug} at 100,000 sats") in told
    assert live.state.view is not None and live.state.view.bids == ()


def test_a_sale_shows_in_listings_without_refresh(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app = funded.app
    item = funded.assets.inscription_ids[0]
    listing_id, sleeper = _listed_with_live_time(app, qloop, item, 150_000)

    gui_thread.start()
    app.window.show_tab("listings")
    tab = app.window.tab("listings")
    assert isinstance(tab, ListingsTab)
    qtbot.waitUntil(lambda: tab.state_of(item) == "active", timeout=20_000)
    run_async(qloop, sleeper.next_wait())
    run_async(qloop, sleeper.elapse())  # the baseline, the listing active
    with gui_thread.paused():
        sandbox_post(funded.root_url, "/sandbox/listings/purchase", {"listingId": listing_id})
        # Mined: ord (which indexes blocks) no longer lists the item among ours.
        sandbox_post(funded.root_url, "/sandbox/mine", {"blocks": 1})
    run_async(qloop, sleeper.elapse())  # the next scheduled reading: no click anywhere
    qtbot.waitUntil(lambda: tab.state_of(item) == "sold", timeout=20_000)
    qtbot.waitUntil(lambda: all(i.key != item for i in tab.held or []), timeout=20_000)
    assert tab.held is not None
    state_cells = [tab.mine_model.index(r, 2).data() for r in range(tab.mine_model.rowCount())]
    assert strings.LISTINGS_STATES["sold"] in state_cells
    title, detail = app.window.notifier.shown[-1]
    assert title == "Listing sold" and detail.endswith(" for 150,000 sats")
    gui_thread.assert_not_blocked()


def test_a_sale_before_the_first_live_reading_shows_in_listings(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
) -> None:
    """Sold after the tab read it active, before the live updates' first reading (which tells
    no change): the tab shows it sold all the same, with no Refresh."""
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app = funded.app
    item = funded.assets.inscription_ids[0]
    listing_id, sleeper = _listed_with_live_time(app, qloop, item, 120_000)

    app.window.show_tab("listings")
    tab = app.window.tab("listings")
    assert isinstance(tab, ListingsTab)
    qtbot.waitUntil(lambda: tab.state_of(item) == "active", timeout=20_000)
    sandbox_post(funded.root_url, "/sandbox/listings/purchase", {"listingId": listing_id})
    sandbox_post(funded.root_url, "/sandbox/mine", {"blocks": 1})  # ord indexes blocks
    run_async(qloop, sleeper.next_wait())
    run_async(qloop, sleeper.elapse())  # the baseline: already sold
    qtbot.waitUntil(lambda: tab.state_of(item) == "sold", timeout=20_000)
    qtbot.waitUntil(lambda: all(i.key != item for i in tab.held or []), timeout=20_000)
