"""First run on the sandbox, through the widgets: the dialog preselects the sandbox, the app
starts it as a child process, creates a demo key marked "sandbox only", funds it and gives it
inscriptions and runes; a restart reuses that wallet; closing the app stops the child."""

from __future__ import annotations

import asyncio
import os
import select
from collections.abc import Callable
from pathlib import Path

import httpx
from pytestqt.qtbot import QtBot

from app.services.profiles import AppProfile, ProfileStore
from app.services.sandbox_demo import DEMO_FAUCET_SATS, DEMO_INSCRIPTIONS, DEMO_RUNE
from app.ui import strings
from app.ui.qa.app import App
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory, close_app

STARTUP_TIMEOUT_MS = 120_000


def wait_exit(pid: int, timeout_s: float = 30.0) -> bool:
    """True once process `pid` has exited (pidfd: no polling, no sleep)."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return bool(select.select([fd], [], [], timeout_s)[0])
    finally:
        os.close(fd)


def test_first_run_on_the_sandbox_ends_with_a_funded_demo_wallet(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    gui_thread: GuiThreadWatch,
) -> None:
    app = open_app(make_options())
    gui_thread.start()
    context = app.context
    first_run = App(app, qtbot, qloop).first_run()
    assert app.dialogs == [first_run.widget]  # the first thing the app asks
    assert first_run.service_chosen == "sandbox"  # preselected
    with qtbot.waitSignal(app.window.controller.ready, timeout=STARTUP_TIMEOUT_MS):
        first_run.choose_sandbox()

    profile = context.profile
    assert profile is not None and profile.sandbox_only and profile.key_name is not None
    assert context.sandbox is not None and context.connection is not None
    assert context.wallet_lock.unlocked
    status = app.window.status
    assert status.service_label.text() == strings.STATUS_SANDBOX.format(url=context.sandbox.url)
    assert status.badge.isVisibleTo(app.window)
    assert status.lock_button.text() == strings.STATUS_UNLOCKED
    actions = [entry.action for entry in context.activity.entries()]  # type: ignore[union-attr]
    assert actions.count("sandbox.inscribe") == DEMO_INSCRIPTIONS
    assert "sandbox.faucet" in actions and actions[-1] == "sandbox.mine"
    activity_tab = app.window.tab("activity")
    assert activity_tab.model.rowCount() == len(actions)  # type: ignore[attr-defined]
    gui_thread.assert_not_blocked()

    keys = context.wallet_lock.keys
    url, pid = context.sandbox.url, context.sandbox.pid
    with gui_thread.paused(), httpx.Client(base_url=url, timeout=30) as http:
        ord_view = http.get(f"/ord/address/{keys.ordinals.address}").json()
        assert len(ord_view["inscriptions"]) == DEMO_INSCRIPTIONS
        assert [balance[0] for balance in ord_view["runes_balances"]] == [DEMO_RUNE]
        funds = http.get(f"/esplora/address/{keys.payment.address}").json()["chain_stats"]
        assert funds["funded_txo_sum"] == DEMO_FAUCET_SATS  # confirmed by the mined block

    close_app(app, qloop)
    assert wait_exit(pid), "the sandbox child outlived the app"

    # A restart goes straight to the same wallet: no dialog, no new key, unlocked.
    again = open_app(make_options())
    with qtbot.waitSignal(again.window.controller.ready, timeout=STARTUP_TIMEOUT_MS):
        pass
    assert again.dialogs == []
    assert again.context.profile == profile
    assert again.context.wallet_lock.keys.ordinals.address == keys.ordinals.address
    assert len(again.context.activity.entries()) > len(actions)  # type: ignore[union-attr]


def test_dash_dash_sandbox_skips_the_dialog_and_explains_a_failed_start(
    qtbot: QtBot,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    """`bidwallet --sandbox` goes straight to the sandbox profile. Here its data folder is a
    file, so the child cannot start: the status bar says so, the app keeps running."""
    blocked = ProfileStore(data_dir).profile_dir(AppProfile.sandbox()) / "sandbox"
    blocked.parent.mkdir(parents=True)
    blocked.write_text("not a folder")
    app = open_app(make_options(sandbox=True))
    qtbot.waitSignal(app.window.controller.ready, timeout=STARTUP_TIMEOUT_MS).wait()
    assert app.dialogs == []
    context = app.context
    assert context.profile is not None and context.profile.name == "Sandbox"
    assert context.sandbox is None and context.connection is None
    error = app.window.status.error_label.text()
    assert error.startswith("The sandbox could not start.")
    assert "Traceback" not in error
    assert app.window.status.service_label.text() == strings.STATUS_NOT_CONNECTED
    failed = context.activity.entries()[-1]  # type: ignore[union-attr]
    assert failed.action == "sandbox.start" and not failed.ok
