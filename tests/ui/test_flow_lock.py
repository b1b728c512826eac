"""Lock and unlock around a PSBT flow, through the widgets: a locked wallet still shows the
Withdraw tab's facts; Review asks for the password first (Cancel there stops the flow, a wrong
password is said so); after unlocking the review opens; when the wallet locks while the review
is open (idle timeout), the dialog closes and nothing is signed or sent."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx
import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.services import psbt_flow
from app.services.bidding_wallet import get_bidding_wallet
from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog
from app.ui.dialogs.unlock import UnlockDialog
from app.ui.profile_session import profile_session
from app.ui.qa.actions import click, type_into, wait_new_dialog
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.loop import FakeClock, run_async
from app.ui.qa.profiles import PASSWORD, open_funded_app
from app.ui.tabs.withdraw_tab import WithdrawTab

AMOUNT = 50_000
IDLE_S = 600  # the profile's default lock timeout


def test_lock_then_unlock_to_review_and_an_idle_lock_closes_the_review(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = FakeClock()
    options = make_options(clock=clock, idle_tick_ms=20)
    funded = open_funded_app(qtbot, open_app, options, sandbox, qloop)
    app = funded.app
    ctx = profile_session(app.context).signing_context()
    wallet = run_async(qloop, get_bidding_wallet(ctx)).address
    del ctx
    with httpx.Client(base_url=funded.root_url, timeout=60) as http:
        assert http.post("/sandbox/faucet", json={"address": wallet, "sats": 200_000}).is_success
        assert http.post("/sandbox/mine", json={"blocks": 1}).is_success
    signed: list[object] = []
    real_sign = psbt_flow.sign_psbt

    def spy(*args: object, **kwargs: object) -> object:
        signed.append(args)
        return real_sign(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(psbt_flow, "sign_psbt", spy)

    gui_thread.start()
    context, window = app.context, app.window
    window.show_tab("withdraw")
    tab = window.tab("withdraw")
    assert isinstance(tab, WithdrawTab)
    qtbot.waitUntil(lambda: tab.facts is not None, timeout=20_000)

    # Locked: the facts stay readable, and Review asks for the password first.
    window.activateWindow()  # the unlock dialog had the focus last
    qtbot.waitUntil(window.isActiveWindow)
    with qtbot.waitSignal(context.lock_changed, timeout=5_000):
        qtbot.keyClick(window, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    assert not context.wallet_lock.unlocked and tab.address_label.text() == wallet
    type_into(qtbot, tab.amount.edit, f"{AMOUNT:,}")
    before = len(app.dialogs)
    click(qtbot, tab.review_button)
    unlock = wait_new_dialog(qtbot, app, UnlockDialog, before)
    qtbot.keyClick(unlock.password, Qt.Key.Key_Escape)  # the user changes their mind
    expected = strings.WITHDRAW_NOT_DONE.format(reason=strings.UNLOCK_TO_SIGN_HINT)
    qtbot.waitUntil(lambda: tab.status.text() == expected, timeout=10_000)
    assert not any(isinstance(d, PsbtReviewDialog) for d in app.dialogs)

    # Unlock from the flow: a wrong password is said in place, the right one goes on.
    before = len(app.dialogs)
    click(qtbot, tab.review_button)
    unlock = wait_new_dialog(qtbot, app, UnlockDialog, before)
    type_into(qtbot, unlock.password, "not it")
    click(qtbot, unlock.unlock_button)
    qtbot.waitUntil(lambda: unlock.error.text() == strings.WRONG_PASSWORD, timeout=10_000)
    unlock.password.clear()
    type_into(qtbot, unlock.password, PASSWORD)
    click(qtbot, unlock.unlock_button)
    review = wait_new_dialog(qtbot, app, PsbtReviewDialog, before)
    assert context.wallet_lock.unlocked and review.sign_button is not None

    # Idle past the timeout while the review is open: locked, the dialog closes, no signing.
    clock.advance(IDLE_S + 1)
    qtbot.waitUntil(lambda: not context.wallet_lock.unlocked, timeout=5_000)
    qtbot.waitUntil(lambda: tab.status.text() == strings.FLOW_CANCELLED, timeout=5_000)
    assert not tab.txid_row.isVisible()
    gui_thread.assert_not_blocked()
    assert signed == []
