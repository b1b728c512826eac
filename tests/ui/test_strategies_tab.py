"""The Strategies tab against the real sandbox: a strategy approved through the window's
host is started from the tab's button, its pool shows after the first check (status, target,
live bids, budget used), a fill reaches the desktop notifications, Stop asks and cancels its
bids; a wallet that locks stops the running ones and the tab says so in place of the tables.

The engine's waits between checks are held by the test (`TickGate`): each check runs when the
test lets it; every other wait (the bid pace) moves the sandbox's clock at once."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.pools import PoolKey
from app.core.strategy_approval import HOUR_MS
from app.core.strategy_rules import AboveTopBid, PoolStrategy
from app.core.strategy_settings import StrategyLimits
from app.services.pacing import OffsetClock
from app.services.sandbox_process import SandboxProcess
from app.services.strategy_engine import StrategyConfig
from app.ui import strings
from app.ui.context import AppOptions
from app.ui.dialogs.unlock import UnlockDialog
from app.ui.models.strategies_model import (
    P_BUDGET,
    P_LAST,
    P_LIVE,
    P_NEXT,
    P_POOL,
    P_STATUS,
    P_TARGET,
    S_STATUS,
)
from app.ui.profile_session import profile_session
from app.ui.qa.actions import type_into, wait_new_dialog
from app.ui.qa.app import App
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.loop import run_async
from app.ui.qa.profiles import PASSWORD, FundedApp, open_funded_app
from app.ui.qa.sandbox import SandboxClockSleeper, fund_bidding_wallet, new_collection, sandbox_post
from app.ui.state.strategy_state import StrategyState
from app.ui.tabs.strategies_tab import StrategiesTab

TICK_MS = 10_000
STRATEGY = "pixel-pals"


class TickGate:
    """The app's sleeper: the wait between two checks holds until `release()`; any other
    wait moves the sandbox's clock (SandboxClockSleeper). `checks`: the checks done."""

    def __init__(self, inner: SandboxClockSleeper) -> None:
        self.inner = inner
        self.checks = 0
        self.go = asyncio.Event()

    async def sleep_ms(self, ms: int) -> None:
        if ms != TICK_MS:
            await self.inner.sleep_ms(ms)
            return
        self.checks += 1
        await self.go.wait()
        self.go.clear()
        await self.inner.sleep_ms(ms)

    def release(self) -> None:
        self.go.set()


def open_gated_app(
    qtbot: QtBot,
    open_app: Callable[..., AppHarness],
    options: AppOptions,
    sandbox: SandboxProcess,
    loop: asyncio.AbstractEventLoop,
) -> tuple[FundedApp, TickGate]:
    """`open_funded_app` with 1,000,000 sats to bid, its strategies' checks held by the gate."""
    funded = open_funded_app(qtbot, open_app, options, sandbox, loop)
    fund_bidding_wallet(funded.app, loop, 1_000_000)
    session = profile_session(funded.app.context)
    assert isinstance(session.clock, OffsetClock)
    gate = TickGate(SandboxClockSleeper(funded.root_url, session.clock))
    session.use_time(session.clock, gate)
    return funded, gate


def _market(root: str) -> str:
    """A fresh collection: a floor of 40,000 sats, a listing, a rival's bid of 10,000."""
    slug = new_collection(root, {"Hat": ["Cap"]})
    sandbox_post(root, "/sandbox/market/floor", {"slug": slug, "price": 40_000})
    sandbox_post(root, "/sandbox/market/listings", {"slug": slug, "price": 41_000})
    body = {"kind": "collection", "slug": slug, "price": 10_000, "quantity": 1,
            "bidder": "rival-strategies-tab", "fundSats": 10_000_000}  # fmt: skip
    sandbox_post(root, "/sandbox/market/bids", body)
    return slug


def _config(slug: str, budget: int) -> StrategyConfig:
    rule = AboveTopBid(max_unit_price=20_000, max_floor_percent=100)
    return StrategyConfig(
        STRATEGY,
        (PoolStrategy(PoolKey(slug), rule, budget, rune=False),),
        StrategyLimits(budget, 2),
        tick_ms=TICK_MS,
    )


def _pool_cells(tab: StrategiesTab) -> dict[int, str]:
    if tab.pools.rowCount() != 1:
        return {}
    return {column: tab.pools.text(0, column) for column in range(tab.pools.columnCount())}


def _our_bids(root: str, address: str) -> list[dict[str, Any]]:
    import httpx

    with httpx.Client(base_url=root, timeout=30) as http:
        body = http.get("/v1/address/bids", params={"address": address}).json()
    return list(body["data"]["results"])


def test_a_strategy_starts_from_the_tab_shows_its_pool_tells_a_fill_and_stops_with_its_bids(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    funded, gate = open_gated_app(qtbot, open_app, make_options(), sandbox, qloop)
    app, root = funded.app, funded.root_url
    slug = _market(root)
    state = StrategyState.of(app.context)
    host = state.host()
    fee = host.ctx.maker_fee
    budget = 4 * (20_000 + fee.on(20_000))
    run_async(qloop, host.approve(_config(slug, budget), 4 * HOUR_MS))

    gui_thread.start()
    page = App(app, qtbot, qloop, root).strategies.open()
    tab = page.widget
    assert page.expect_strategy(STRATEGY).status == strings.STRATEGY_STOPPED
    assert page.counts.startswith("1 strategy, 0 running.")
    assert tab.start_button.isEnabled() and not tab.stop_all_button.isEnabled()
    assert tab.stop_button.isEnabled()  # approved: it can be revoked before it ever runs
    assert _pool_cells(tab)[P_STATUS] == strings.POOL_NOT_RUNNING

    assert page.start(STRATEGY) == strings.counted(strings.STRATEGIES_STARTED, 1, names=STRATEGY)
    qtbot.waitUntil(lambda: gate.checks == 1, timeout=30_000)  # the first check is done
    cost = 11_000 + fee.on(11_000)
    qtbot.waitUntil(lambda: _pool_cells(tab).get(P_LIVE) == "2 of 2", timeout=20_000)
    cells = _pool_cells(tab)
    assert cells[P_POOL] == slug
    assert cells[P_STATUS] == strings.POOL_BIDDING
    assert cells[P_TARGET] == "2 × 11,000 sats"
    assert cells[P_BUDGET] == f"{2 * cost:,} of {budget:,} sats"
    assert cells[P_LAST].startswith("Placed 2 bids at 11,000 sats · ")  # and when
    assert cells[P_NEXT].startswith("Next check in ")
    status_tip = tab.pools.index(0, P_STATUS).data(Qt.ItemDataRole.ToolTipRole)
    assert status_tip and status_tip != strings.POOL_BIDDING  # the plan's reason
    assert tab.strategies.text(0, S_STATUS) == strings.STRATEGY_RUNNING
    assert tab.counts.text().startswith("1 strategy, 1 running.")
    assert tab.stop_button.isEnabled() and not tab.start_button.isEnabled()
    assert not tab.delete_button.isEnabled()
    qtbot.waitUntil(lambda: tab.journal.rowCount() == 1, timeout=20_000)
    assert tab.journal.text(0, 5) == "Placed"

    # A fill: told by the next check, through the window's notifier.
    with gui_thread.paused():
        (entry,) = run_async(qloop, host.journal(STRATEGY))
        assert len(entry.bid_ids) == 2
        sandbox_post(root, "/sandbox/market/sale", {"bidId": entry.bid_ids[0]})
    gate.release()
    title = strings.NOTICE_FILLED.format(strategy=STRATEGY)
    shown = app.window.notifier.shown
    qtbot.waitUntil(lambda: any(t == title for t, _ in shown), timeout=30_000)
    text = next(text for t, text in shown if t == title)
    # Left to bid: the budget less the fill and the two bids open again (one re-placed).
    assert (
        text == f"{slug}: {cost:,} sats spent; {budget - 3 * cost:,} sats of the budget left to bid"
    )
    qtbot.waitUntil(lambda: gate.checks == 2, timeout=30_000)

    # Stop, cancelling its bids: the question says the approval is revoked.
    question = page.ask_stop(STRATEGY)
    assert "revokes its approval" in question.text
    assert question.dialog.dont_button.isDefault()
    done = strings.counted(strings.STRATEGIES_STOPPED_CANCELLED, 2, strategy=STRATEGY)
    assert question.cancel_bids() == done
    page.expect_strategy(STRATEGY, strings.STRATEGY_REVOKED)
    assert not tab.start_button.isEnabled() and tab.delete_button.isEnabled()
    # Not running: no stale "Bidding"; what it left open (nothing: its bids were cancelled).
    qtbot.waitUntil(lambda: _pool_cells(tab)[P_LIVE] == strings.POOL_NONE_OPEN, timeout=20_000)
    cells = _pool_cells(tab)
    assert cells[P_STATUS] == strings.POOL_NOT_RUNNING
    assert cells[P_LAST].startswith("Placed ")  # what it last did, not "No change needed"
    with gui_thread.paused():
        left = _our_bids(root, funded.keys.ordinals.address)
        left += _our_bids(root, funded.keys.payment.address)
    assert left == []

    # Starting again needs a new approval: Edit… opens the strategy as it is, to approve.
    assert tab.edit_button.isEnabled()
    editor = page.edit(STRATEGY)
    assert editor.strategy_name == STRATEGY
    said = page.said_after("approve", editor.approve, timeout_ms=30_000)
    assert said.startswith(f"{STRATEGY} saved and approved until ")
    assert said.endswith("; press Start to run it.")
    page.expect_strategy(STRATEGY, strings.STRATEGY_STOPPED)
    assert tab.start_button.isEnabled()
    gui_thread.assert_not_blocked()


def test_locking_the_wallet_stops_the_strategies_and_the_tab_says_why(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
) -> None:
    funded, gate = open_gated_app(qtbot, open_app, make_options(), sandbox, qloop)
    app, root = funded.app, funded.root_url
    slug = _market(root)
    state = StrategyState.of(app.context)
    host = state.host()
    run_async(qloop, host.approve(_config(slug, 100_000), 4 * HOUR_MS))
    page = App(app, qtbot, qloop, root).strategies.open()
    tab = page.widget
    running = strings.counted(strings.STRATEGIES_STARTED, 1, names=STRATEGY)
    assert page.start(STRATEGY) == running
    qtbot.waitUntil(lambda: gate.checks == 1, timeout=30_000)
    qtbot.waitUntil(lambda: state.running_count() == 1, timeout=20_000)
    assert page.message == running  # shown

    app.context.wallet_lock.lock()
    qtbot.waitUntil(lambda: tab.pages.currentWidget() is tab.not_ready, timeout=20_000)
    assert tab.not_ready.text() == strings.STRATEGIES_LOCKED
    assert tab.lock_notice.isVisible()
    assert tab.lock_notice.text().startswith("The wallet locked at ")
    assert "1 strategy stopped (its bids stay open until they expire)" in tab.lock_notice.text()
    assert state.current is None
    assert not tab.message.isVisible()  # no stale "is running"

    # Unlocked again: the strategy is stopped but still approved; Stop takes its bids back.
    before = len(app.dialogs)
    app.window.unlock_action.trigger()  # File > Unlock wallet…
    unlock = wait_new_dialog(qtbot, app, UnlockDialog, before)
    type_into(qtbot, unlock.password, PASSWORD)
    qtbot.keyClick(unlock.password, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: tab.pages.currentIndex() == 1, timeout=20_000)
    qtbot.waitUntil(lambda: tab.strategies.rowCount() == 1, timeout=20_000)
    assert tab.strategies.text(0, S_STATUS) == strings.STRATEGY_STOPPED
    assert tab.lock_notice.isVisible()  # why it stopped, until a strategy starts again
    assert tab.start_button.isEnabled() and tab.stop_button.isEnabled()
    question = page.ask_stop(STRATEGY)
    assert "It has 2 bids open now, the last until " in question.text  # left open, counted
    done = strings.counted(strings.STRATEGIES_STOPPED_CANCELLED, 2, strategy=STRATEGY)
    assert question.cancel_bids() == done
    page.expect_strategy(STRATEGY, strings.STRATEGY_REVOKED)
