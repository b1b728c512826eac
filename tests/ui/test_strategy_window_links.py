"""A running strategy and the rest of the window, against the real sandbox (issue 17): its
cancel-and-replace is not told by the live updates as bids ended by the service, a fill of the
bid it placed names that bid's price; Open bids reads again after its step and says which bids
it keeps, and cancelling one by hand says it will be placed again; Activity has one line per
approve, start, lock and stop.

The engine's checks run when the test lets them (`TickGate`); the live updates read when the
test calls `read_once` (their own waits never end: `StepSleeper`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.market_events import EventKind, MarketEvent
from app.core.poll_schedule import PollTiming
from app.core.strategy_approval import HOUR_MS
from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.dialogs.unlock import UnlockDialog
from app.ui.models.bids_model import COL_STRATEGY
from app.ui.qa.actions import click, type_into, wait_new_dialog
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.loop import run_async
from app.ui.qa.profiles import PASSWORD
from app.ui.qa.sandbox import sandbox_post
from app.ui.state.market_watch import MarketWatch
from app.ui.state.strategy_state import StrategyState
from app.ui.tabs.open_bids_confirm import ConfirmCancelDialog
from app.ui.tabs.open_bids_tab import OpenBidsTab
from tests.support.step_sleeper import StepSleeper
from tests.ui.test_strategies_tab import STRATEGY, _config, _market, _our_bids, open_gated_app

TIMING = PollTiming(start_ms=1_000, fast_ms=1_000, base_ms=2_000, idle_max_ms=8_000)
NOT_OURS = {EventKind.BID_ENDED, EventKind.BID_CANCELLED_BY_SERVICE}


def _strategy_bids(root: str, address: str) -> dict[str, int]:
    bids = _our_bids(root, address)
    return {b["bid_id"]["$oid"] if isinstance(b["bid_id"], dict) else b["bid_id"]: b["price"]
            for b in bids}  # fmt: skip


def _shown(tab: OpenBidsTab) -> dict[str, str]:
    """Each listed bid id and the strategy the table says keeps it."""
    model = tab.model
    return {model.bid_id(r): model.index(r, COL_STRATEGY).data() for r in range(model.rowCount())}


def _read(loop: asyncio.AbstractEventLoop, live: MarketWatch) -> None:
    watcher = live.watcher
    assert watcher is not None
    run_async(loop, watcher.read_once())


def test_a_running_strategys_bids_are_ours_in_live_updates_open_bids_and_activity(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    funded, gate = open_gated_app(qtbot, open_app, make_options(), sandbox, qloop)
    app, root = funded.app, funded.root_url
    live = MarketWatch.of(app.context)
    live.use_time(StepSleeper(), TIMING)  # reads only when the test calls read_once
    live.state.timer.setInterval(3_600_000)
    events: list[MarketEvent] = []
    live.events.connect(events.extend)
    qtbot.waitUntil(lambda: live.watcher is not None, timeout=20_000)
    slug = _market(root)
    state = StrategyState.of(app.context)
    host = state.host()
    fee = host.ctx.maker_fee
    run_async(qloop, host.approve(_config(slug, 4 * (20_000 + fee.on(20_000))), 4 * HOUR_MS))
    address = funded.keys.ordinals.address

    gui_thread.start()
    app.window.show_tab("open_bids")
    tab = app.window.tab("open_bids")
    assert isinstance(tab, OpenBidsTab)
    run_async(qloop, host.start(STRATEGY))
    qtbot.waitUntil(lambda: gate.checks == 1, timeout=30_000)  # placed 2 × 11,000
    with gui_thread.paused():
        first = _strategy_bids(root, address)
    assert sorted(first.values()) == [11_000, 11_000]
    # Open bids read again after the step and say whose the bids are.
    qtbot.waitUntil(lambda: _shown(tab) == dict.fromkeys(first, STRATEGY), timeout=20_000)
    _read(qloop, live)  # the live updates' baseline
    app.window.resize(1024, 700)  # every column shows, the Strategy one too
    qtbot.waitUntil(lambda: tab.table.viewport().width() < 1024)
    assert tab.table.horizontalHeader().length() <= tab.table.viewport().width()

    # A rival outbids it: the next check cancels its two bids and places two above.
    with gui_thread.paused():
        body = {"kind": "collection", "slug": slug, "price": 16_000, "quantity": 1,
                "bidder": "rival-strategies-tab", "fundSats": 10_000_000}  # fmt: skip
        sandbox_post(root, "/sandbox/market/bids", body)
    gate.release()
    qtbot.waitUntil(lambda: gate.checks == 2, timeout=30_000)
    with gui_thread.paused():
        second = _strategy_bids(root, address)
    assert not set(second) & set(first) and len(second) == 2
    (price,) = set(second.values())
    assert price > 16_000
    qtbot.waitUntil(lambda: _shown(tab) == dict.fromkeys(second, STRATEGY), timeout=20_000)
    _read(qloop, live)
    assert not [e for e in events if e.kind in NOT_OURS], events  # its own cancels: no news
    assert live.watcher is not None and not live.watcher.differ.deferred  # explained: ours
    assert not any(t.startswith("Bid ended") for t, _ in app.window.notifier.shown)

    # One of its bids fills: told at its own price.
    filled_id = sorted(second)[0]
    with gui_thread.paused():
        sandbox_post(root, "/sandbox/market/sale", {"bidId": filled_id})
    for _ in range(3):  # a fill the balance does not show yet is held for a reading or two
        _read(qloop, live)
        if any(e.kind == EventKind.BID_FILLED for e in events):
            break
    fills = [e for e in events if e.kind == EventKind.BID_FILLED]
    assert [(f.subject, f.price) for f in fills] == [(filled_id, price)]
    assert ("Bid filled", f"1 × {slug} at {price:,} sats") in app.window.notifier.shown
    assert not [e for e in events if e.kind in NOT_OURS], events

    # Cancelling its other bid by hand: the question says the strategy places it again.
    (kept_id,) = set(second) - {filled_id}
    qtbot.waitUntil(lambda: set(_shown(tab)) == {kept_id}, timeout=20_000)
    tab.table.selectRow(0)
    before = len(app.dialogs)
    click(qtbot, tab.cancel_button)
    confirm = wait_new_dialog(qtbot, app, ConfirmCancelDialog, before)
    assert confirm.strategy_note.isVisible()
    assert confirm.strategy_note.text() == strings.counted(
        strings.OPEN_BIDS_CONFIRM_STRATEGY, 1, strategies=STRATEGY
    )
    click(qtbot, confirm.no_button)

    # The wallet locks: the strategy stops, its bid kept; unlocked, Stop cancels it.
    app.context.wallet_lock.lock()
    qtbot.waitUntil(lambda: state.current is None, timeout=20_000)
    before = len(app.dialogs)
    app.window.unlock_action.trigger()
    unlock = wait_new_dialog(qtbot, app, UnlockDialog, before)
    type_into(qtbot, unlock.password, PASSWORD)
    qtbot.keyClick(unlock.password, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: app.context.wallet_lock.unlocked, timeout=20_000)
    qtbot.waitUntil(lambda: live.watcher is not None, timeout=20_000)
    host = state.host()
    assert run_async(qloop, host.stop(STRATEGY, cancel_bids=True)) == 1
    qtbot.waitUntil(lambda: _shown(tab) == {}, timeout=20_000)
    _read(qloop, live)
    assert not [e for e in events if e.kind in NOT_OURS], events

    activity = app.context.activity
    assert activity is not None
    locked = strings.counted(strings.ACTIVITY_STRATEGIES_LOCKED, 1, strategies=STRATEGY)
    lines = [
        (e.action, e.ok, e.message) for e in activity.entries() if e.action.startswith("strategy.")
    ]
    assert lines == [
        ("strategy.approve", True, f"{STRATEGY}: approved"),
        ("strategy.start", True, f"{STRATEGY}: started"),
        ("strategy.locked", True, locked),
        ("strategy.stop", True, f"{STRATEGY}: stopped, 1 bid cancelled"),
    ]  # fmt: skip
    gui_thread.assert_not_blocked()
