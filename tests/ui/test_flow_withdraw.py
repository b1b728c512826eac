"""Withdraw through the widgets against the real sandbox: the tab shows the balance and the
destination (the payment address, read-only), warns which open bid the lower balance no longer
covers, the review dialog says so again, Sign withdraws, and the txid is shown and on chain."""

from __future__ import annotations

import httpx
from PySide6.QtWidgets import QApplication

from app.services.bidding_wallet import get_bidding_wallet
from app.services.bids import BidSpec, place_bid
from app.services.open_bids import fetch_open_bids
from app.ui.profile_session import profile_session
from app.ui.qa.app import App
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.loop import run_async
from app.ui.qa.pages.withdraw import ALL
from app.ui.qa.sandbox import sandbox_post
from app.ui.state.wallet_state import WalletState

WALLET_FUNDS = 300_000
BID_PRICE = 200_000
WITHDRAW = 150_000


def test_withdraw_shows_the_bids_it_cancels_then_signs_and_submits(
    bidwallet_app: App, bidwallet_gui_thread: GuiThreadWatch
) -> None:
    app, gui_thread = bidwallet_app, bidwallet_gui_thread
    assert app.keys is not None and app.assets is not None and app.root_url is not None
    session = profile_session(app.context)
    run_async(app.loop, session.ensure_ready())
    ctx = session.signing_context()
    wallet = run_async(app.loop, get_bidding_wallet(ctx)).address
    sandbox_post(app.root_url, "/sandbox/faucet", {"address": wallet, "sats": WALLET_FUNDS})
    sandbox_post(app.root_url, "/sandbox/mine", {"blocks": 1})
    expiry = ctx.clock.now_ms() + 3_600_000
    spec = BidSpec.collection(app.assets.collection_slug, BID_PRICE, 1, expiry)
    run_async(app.loop, place_bid(ctx, spec))
    (bid,) = run_async(app.loop, fetch_open_bids(ctx))
    bid_id = bid.bid_id
    del ctx  # the test keeps no signing context

    gui_thread.start()
    page = app.withdraw
    tab = page.widget
    shown = page.ready()
    assert tab.destination.isReadOnly()
    assert shown.destination == app.keys.payment.address
    assert shown.address == wallet
    assert shown.balance_text.startswith(f"{WALLET_FUNDS:,} sats")

    # Bad input is said at the field; Max fills the balance.
    page.fill("abc")
    assert "Enter an amount" in page.amount_error
    assert not tab.review_button.isEnabled()
    page.fill(400_000)
    assert "holds 300,000 sats" in page.amount_error
    assert not tab.review_button.isEnabled()  # grey beside the error: a click would repeat it
    assert len(page.fill(ALL)) == 1  # nothing left for the open bid
    assert tab.review_button.isEnabled()
    assert tab.amount.value() == WALLET_FUNDS and tab.sweep

    at_risk = page.fill(str(WITHDRAW))  # grouped as typed, as every amount
    assert tab.amount.edit.text() == f"{WITHDRAW:,}"
    assert not tab.sweep and not page.amount_error
    assert len(at_risk) == 1 and bid_id in at_risk[0]

    review = page.withdraw(WITHDRAW)
    assert review.can_approve
    notes = " ".join(review.notes)
    assert f"You withdraw {WITHDRAW:,} sats" in notes and app.keys.payment.address in notes
    assert bid_id in notes  # the bid the withdrawal cancels, named before signing
    assert "passes every check" in review.verdict
    with app.qtbot.waitSignal(tab.refreshed, timeout=30_000):  # the refresh after the action
        said = review.approve()
    txid = tab.txid_row.txid
    assert txid is not None and txid in said and txid in page.status
    assert "cancelled 1 bid" in page.status
    gui_thread.assert_not_blocked()

    with gui_thread.paused(), httpx.Client(base_url=app.root_url, timeout=30) as http:
        tx = http.get(f"/esplora/tx/{txid}").json()
        to = tab.destination.text()
        paid = [o["value"] for o in tx["vout"] if o.get("scriptpubkey_address") == to]
        assert paid == [WITHDRAW]
    entries = app.context.activity.entries()  # type: ignore[union-attr]
    done = [e for e in entries if e.action == "withdraw"]
    assert len(done) == 1 and done[0].ok and done[0].txid == txid


def test_the_balance_follows_the_wallet_state_without_refresh(
    bidwallet_app: App, bidwallet_gui_thread: GuiThreadWatch
) -> None:
    """Funds arrive unconfirmed and a block is mined elsewhere: the next WalletState reading
    (the Wallet tab's refresh, the 30 s timer, a live update) shows in the Withdraw tab's
    balance line too, never a stale "unconfirmed" figure until Refresh is pressed."""
    app, gui_thread = bidwallet_app, bidwallet_gui_thread
    qtbot, qloop = app.qtbot, app.loop
    assert app.root_url is not None
    session = profile_session(app.context)
    run_async(qloop, session.ensure_ready())
    wallet = run_async(qloop, get_bidding_wallet(session.read_context())).address
    page = app.withdraw
    tab = page.widget
    page.ready()
    state = WalletState.of(app.context)

    with httpx.Client(base_url=app.root_url, timeout=60) as http:
        body = {"address": wallet, "sats": WALLET_FUNDS}
        assert http.post("/sandbox/faucet", json=body).is_success  # unconfirmed
    gui_thread.start()
    run_async(qloop, state.refresh())  # e.g. the Wallet tab's Refresh
    unconfirmed = f"{WALLET_FUNDS:,} sats (0 sats confirmed, {WALLET_FUNDS:,} sats unconfirmed)"
    qtbot.waitUntil(lambda: tab.balance_label.text() == unconfirmed, timeout=20_000)

    with gui_thread.paused(), httpx.Client(base_url=app.root_url, timeout=60) as http:
        assert http.post("/sandbox/mine", json={"blocks": 1}).is_success
    run_async(qloop, state.refresh())
    confirmed = f"{WALLET_FUNDS:,} sats ({WALLET_FUNDS:,} sats confirmed, 0 sats unconfirmed)"
    qtbot.waitUntil(lambda: tab.balance_label.text() == confirmed, timeout=20_000)
    facts = tab.facts
    assert facts is not None and facts.balance.total == WALLET_FUNDS

    # Typing an amount fills in the bids it cancels and the maker fee they assume: nothing
    # below the field moves under the cursor (the Review button stays where it was).
    review_at = tab.review_button.mapTo(tab, tab.review_button.rect().topLeft())
    page.fill("1000")
    for _ in range(3):
        QApplication.processEvents()  # the relayouts are posted events, one per level
    assert tab.at_risk_note.isVisible() and tab.at_risk_note.text()
    assert tab.review_button.mapTo(tab, tab.review_button.rect().topLeft()) == review_at
    gui_thread.assert_not_blocked()
