"""Withdraw through the widgets against the real sandbox: the tab shows the balance and the
destination (the payment address, read-only), warns which open bid the lower balance no longer
covers, the review dialog says so again, Sign withdraws, and the txid is shown and on chain."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.services.bidding_wallet import get_bidding_wallet
from app.services.bids import BidSpec, place_bid
from app.services.open_bids import fetch_open_bids
from app.services.sandbox_process import SandboxProcess
from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog
from app.ui.profile_session import profile_session
from app.ui.state.wallet_state import WalletState
from app.ui.tabs.withdraw_tab import WithdrawTab
from tests.ui.conftest import AppHarness, OptionsFactory
from tests.ui.flows import click, open_funded_app, type_into, wait_dialog
from tests.ui.gui_thread import GuiThreadWatch
from tests.ui.helpers import run_async

WALLET_FUNDS = 300_000
BID_PRICE = 200_000
WITHDRAW = 150_000


def test_withdraw_shows_the_bids_it_cancels_then_signs_and_submits(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app = funded.app
    session = profile_session(app.context)
    run_async(qloop, session.ensure_ready())
    ctx = session.signing_context()
    wallet = run_async(qloop, get_bidding_wallet(ctx)).address
    with httpx.Client(base_url=funded.root_url, timeout=60) as http:
        body = {"address": wallet, "sats": WALLET_FUNDS}
        assert http.post("/sandbox/faucet", json=body).is_success
        assert http.post("/sandbox/mine", json={"blocks": 1}).is_success
    expiry = ctx.clock.now_ms() + 3_600_000
    spec = BidSpec.collection(funded.assets.collection_slug, BID_PRICE, 1, expiry)
    run_async(qloop, place_bid(ctx, spec))
    (bid,) = run_async(qloop, fetch_open_bids(ctx))
    bid_id = bid.bid_id
    del ctx  # the test keeps no signing context

    gui_thread.start()
    app.window.show_tab("withdraw")
    tab = app.window.tab("withdraw")
    assert isinstance(tab, WithdrawTab)
    qtbot.waitUntil(lambda: tab.facts is not None, timeout=20_000)
    assert tab.destination.isReadOnly()
    assert tab.destination.text() == funded.keys.payment.address
    assert tab.address_label.text() == wallet
    assert tab.balance_label.text().startswith(f"{WALLET_FUNDS:,} sats")

    # Bad input is said at the field; Max fills the balance.
    type_into(qtbot, tab.amount.edit, "abc")
    assert tab.amount_line.error.isVisible() and "Enter an amount" in tab.amount_line.error.text()
    assert not tab.review_button.isEnabled()
    tab.amount.edit.clear()
    type_into(qtbot, tab.amount.edit, "400,000")
    assert "holds 300,000 sats" in tab.amount_line.error.text()
    assert not tab.review_button.isEnabled()  # grey beside the error: a click would repeat it
    click(qtbot, tab.max_button)
    assert tab.review_button.isEnabled()
    assert tab.amount.value() == WALLET_FUNDS and tab.sweep
    assert tab.at_risk_list.count() == 1  # nothing left for the open bid

    tab.amount.edit.clear()
    type_into(qtbot, tab.amount.edit, str(WITHDRAW))  # grouped as typed, as every amount
    assert tab.amount.edit.text() == f"{WITHDRAW:,}"
    assert not tab.sweep and not tab.amount_line.error.isVisible()
    assert tab.at_risk_list.count() == 1 and bid_id in tab.at_risk_list.item(0).text()

    click(qtbot, tab.review_button)
    dialog = wait_dialog(qtbot, app, PsbtReviewDialog, timeout=30_000)
    assert dialog.sign_button is not None
    notes = dialog.notes_label.text()
    assert f"You withdraw {WITHDRAW:,} sats" in notes and funded.keys.payment.address in notes
    assert bid_id in notes  # the bid the withdrawal cancels, named before signing
    assert "passes every check" in dialog.verdict_label.text()
    click(qtbot, dialog.sign_button)

    with qtbot.waitSignal(tab.refreshed, timeout=30_000):  # the refresh after the action
        qtbot.waitUntil(lambda: tab.txid_row.txid is not None, timeout=30_000)
    txid = tab.txid_row.txid
    assert txid is not None and txid in tab.status.text()
    assert "cancelled 1 bid" in tab.status.text()
    gui_thread.assert_not_blocked()

    with gui_thread.paused(), httpx.Client(base_url=funded.root_url, timeout=30) as http:
        tx = http.get(f"/esplora/tx/{txid}").json()
        to = tab.destination.text()
        paid = [o["value"] for o in tx["vout"] if o.get("scriptpubkey_address") == to]
        assert paid == [WITHDRAW]
    entries = app.context.activity.entries()  # type: ignore[union-attr]
    done = [e for e in entries if e.action == "withdraw"]
    assert len(done) == 1 and done[0].ok and done[0].txid == txid


def test_the_balance_follows_the_wallet_state_without_refresh(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    """Funds arrive unconfirmed and a block is mined elsewhere: the next WalletState reading
    (the Wallet tab's refresh, the 30 s timer, a live update) shows in the Withdraw tab's
    balance line too, never a stale "unconfirmed" figure until Refresh is pressed."""
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app = funded.app
    session = profile_session(app.context)
    run_async(qloop, session.ensure_ready())
    wallet = run_async(qloop, get_bidding_wallet(session.read_context())).address
    app.window.show_tab("withdraw")
    tab = app.window.tab("withdraw")
    assert isinstance(tab, WithdrawTab)
    qtbot.waitUntil(lambda: tab.facts is not None, timeout=20_000)
    state = WalletState.of(app.context)

    with httpx.Client(base_url=funded.root_url, timeout=60) as http:
        body = {"address": wallet, "sats": WALLET_FUNDS}
        assert http.post("/sandbox/faucet", json=body).is_success  # unconfirmed
    gui_thread.start()
    run_async(qloop, state.refresh())  # e.g. the Wallet tab's Refresh
    unconfirmed = f"{WALLET_FUNDS:,} sats (0 sats confirmed, {WALLET_FUNDS:,} sats unconfirmed)"
    qtbot.waitUntil(lambda: tab.balance_label.text() == unconfirmed, timeout=20_000)

    with gui_thread.paused(), httpx.Client(base_url=funded.root_url, timeout=60) as http:
        assert http.post("/sandbox/mine", json={"blocks": 1}).is_success
    run_async(qloop, state.refresh())
    confirmed = f"{WALLET_FUNDS:,} sats ({WALLET_FUNDS:,} sats confirmed, 0 sats unconfirmed)"
    qtbot.waitUntil(lambda: tab.balance_label.text() == confirmed, timeout=20_000)
    facts = tab.facts
    assert facts is not None and facts.balance.total == WALLET_FUNDS

    # Typing an amount fills in the bids it cancels and the maker fee they assume: nothing
    # below the field moves under the cursor (the Review button stays where it was).
    review_at = tab.review_button.mapTo(tab, tab.review_button.rect().topLeft())
    type_into(qtbot, tab.amount.edit, "1000")
    for _ in range(3):
        QApplication.processEvents()  # the relayouts are posted events, one per level
    assert tab.at_risk_note.isVisible() and tab.at_risk_note.text()
    assert tab.review_button.mapTo(tab, tab.review_button.rect().topLeft()) == review_at
    gui_thread.assert_not_blocked()
