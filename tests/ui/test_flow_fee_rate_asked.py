"""The fee rate wherever the user pays the fee, through the widgets against the real sandbox.
Where the service builds the transaction (Withdraw, Inscription bid): the rate chosen in the
tab's picker is the `feeRate` of the request (the sandbox's request journal), the review says
the transaction pays it and the withdrawal confirms at it (measured from the chain); with the
field dropped on the way (a service that ignores it) the review warns, with both figures,
before anything is signed. Where we build it (End listing): the move confirms at the rate
chosen.

The service ignoring the field is the sandbox's `reply` fault answering the app's request with
the sandbox's own answer to the same request without `feeRate`."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx
from pytestqt.qtbot import QtBot

from app.ui import strings
from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog
from app.ui.profile_session import profile_session
from app.ui.qa.actions import click, type_into, wait_dialog
from app.ui.qa.app import App
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.profiles import FundedApp, open_funded_app
from app.ui.qa.sandbox import Sandbox, fund_bidding_wallet
from app.ui.qa.sandbox_faults import SandboxFaults
from app.ui.tabs.inscription_bid_tab import InscriptionBidTab
from app.ui.tabs.withdraw_tab import WithdrawTab
from app.ui.widgets.fee_picker import FeePicker
from tests.ui.test_flow_inscription_bid import seller_inscription

RATE = 12
FUNDS = 300_000
WITHDRAW = 100_000
PRICE = 30_000


def choose_custom_rate(qtbot: QtBot, picker: FeePicker, rate: int) -> None:
    """Custom, then the rate typed as a user types it."""
    picker.choice.setCurrentIndex(picker.choice.count() - 1)
    picker.custom.setFocus()
    picker.custom.selectAll()
    qtbot.keyClicks(picker.custom, str(rate))
    assert picker.custom.value() == rate


def asked_rates(sandbox: Sandbox, path: str, since: int | None = None) -> list[object]:
    """The `feeRate` of each POST to `path` the sandbox received (since the test's
    `bidwallet_faults` scope began, or after the request `since`)."""
    sent = sandbox.requests(path=path, method="POST", since=since)
    return [request.body.get("feeRate") for request in sent]


def serve_ignoring_the_rate(sandbox: Sandbox, faults: SandboxFaults, funded: FundedApp) -> int:
    """The next withdrawal intent is answered as a service ignoring `feeRate` would: the
    sandbox's own answer to the same request without it (asked here, nothing submitted).
    The id of the journal's last request then (what the app sends comes after it)."""
    payment = profile_session(funded.app.context).signing_context().payment_address
    request = {"userAddress": payment, "amount": WITHDRAW}
    with httpx.Client(base_url=funded.root_url, timeout=60) as http:
        honest = http.post("/v1/intent/withdraw", json=request)
    assert honest.status_code == 200, honest.text
    faults.reply("POST", "/v1/intent/withdraw", 200, honest.json())
    return sandbox.requests()[-1].id


def withdraw_tab(qtbot: QtBot, app: AppHarness) -> WithdrawTab:
    app.window.show_tab("withdraw")
    tab = app.window.tab("withdraw")
    assert isinstance(tab, WithdrawTab)
    qtbot.waitUntil(lambda: tab.facts is not None and tab.facts.balance.total > 0, timeout=20_000)
    return tab


def test_the_withdraw_rate_chosen_is_asked_and_paid_on_chain(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: Sandbox,
    bidwallet_faults: SandboxFaults,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app = funded.app
    fund_bidding_wallet(app, qloop, FUNDS)
    gui_thread.start()
    tab = withdraw_tab(qtbot, app)
    # The network's estimates arrive with the balance: fast / normal / slow, normal chosen.
    assert tab.fee.estimate() is not None and tab.fee.choice.count() == 4
    choose_custom_rate(qtbot, tab.fee, RATE)
    type_into(qtbot, tab.amount.edit, f"{WITHDRAW:,}")
    click(qtbot, tab.review_button)

    dialog = wait_dialog(qtbot, app, PsbtReviewDialog, timeout=30_000)
    with gui_thread.paused():
        assert asked_rates(sandbox, "/v1/intent/withdraw") == [RATE]
    assert f"pays {RATE} sat/vB, the rate you asked for ({RATE} sat/vB)" in (
        dialog.notes_label.text()
    )
    assert not dialog.warnings_label.isVisible()
    # 12 sat/vB is far above the sandbox's next-block estimate: the user accepts that fee.
    assert dialog.consent_box is not None and dialog.sign_button is not None
    click(qtbot, dialog.consent_box)
    with qtbot.waitSignal(tab.refreshed, timeout=30_000):
        click(qtbot, dialog.sign_button)
        qtbot.waitUntil(lambda: tab.txid_row.txid is not None, timeout=30_000)
    gui_thread.assert_not_blocked()

    with gui_thread.paused(), httpx.Client(base_url=funded.root_url, timeout=30) as http:
        assert http.post("/sandbox/mine", json={"blocks": 1}).is_success
        tx = http.get(f"/esplora/tx/{tab.txid_row.txid}").json()
    assert tx["status"]["confirmed"]
    rate = tx["fee"] / -(-tx["weight"] // 4)
    assert RATE * 0.95 <= rate <= RATE * 1.05, rate


def test_a_service_ignoring_the_withdraw_rate_is_told_before_signing(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: Sandbox,
    bidwallet_faults: SandboxFaults,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app = funded.app
    fund_bidding_wallet(app, qloop, FUNDS)
    before_the_app = serve_ignoring_the_rate(sandbox, bidwallet_faults, funded)
    gui_thread.start()
    tab = withdraw_tab(qtbot, app)
    choose_custom_rate(qtbot, tab.fee, RATE)
    type_into(qtbot, tab.amount.edit, f"{WITHDRAW:,}")
    click(qtbot, tab.review_button)

    dialog = wait_dialog(qtbot, app, PsbtReviewDialog, timeout=30_000)
    with gui_thread.paused():
        assert asked_rates(sandbox, "/v1/intent/withdraw", before_the_app) == [RATE]  # asked
        (ignored,) = bidwallet_faults.fired()  # ... and answered as if it were not
    assert ignored.path == "/v1/intent/withdraw" and ignored.kind == "reply"
    warning = dialog.warnings_label.text()
    assert dialog.warnings_label.isVisible() and dialog.warnings_label.property("role") == (
        "warning"
    )
    assert f"you asked for {RATE} sat/vB; the service's transaction pays 2 sat/vB" in warning
    assert "the rate you asked for" not in dialog.notes_label.text()  # never claimed
    assert dialog.cancel_button.isDefault() and dialog.sign_button is not None
    assert not dialog.sign_button.isDefault()  # Enter does not sign what was not asked
    click(qtbot, dialog.cancel_button)
    qtbot.waitUntil(lambda: tab.status.text() == strings.FLOW_CANCELLED, timeout=10_000)
    with gui_thread.paused():
        assert sandbox.requests(path="/v1/withdraw") == ()
    gui_thread.assert_not_blocked()


def test_the_inscription_bid_rate_chosen_is_asked_and_paid(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: Sandbox,
    bidwallet_faults: SandboxFaults,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app = funded.app
    inscription = seller_inscription(funded.root_url, "ui-fee-rate-seller")
    gui_thread.start()
    app.window.show_tab("inscription_bid")
    tab = app.window.tab("inscription_bid")
    assert isinstance(tab, InscriptionBidTab)
    qtbot.waitUntil(lambda: tab.bids is not None, timeout=20_000)
    assert tab.fee.estimate() is not None  # the estimates came with the list
    choose_custom_rate(qtbot, tab.fee, RATE)
    type_into(qtbot, tab.inscription, inscription)
    type_into(qtbot, tab.price.edit, f"{PRICE:,}")
    click(qtbot, tab.review_button)

    dialog = wait_dialog(qtbot, app, PsbtReviewDialog, timeout=30_000)
    with gui_thread.paused():
        assert asked_rates(sandbox, "/v1/intent/bid") == [RATE]
    notes = dialog.notes_label.text()
    assert f"pays {RATE} sat/vB, the rate you asked for" in notes
    assert not dialog.warnings_label.isVisible()
    # The note's total is the headline's: price, postage and network fee.
    headline = dialog.summary_label.text()
    total = headline.removeprefix("You pay ").split(" for inscription")[0]
    assert notes.startswith(f"You pay {total} (price, postage and network fee)"), (notes, headline)
    assert dialog.consent_box is not None and dialog.sign_button is not None
    click(qtbot, dialog.consent_box)
    with qtbot.waitSignal(tab.refreshed, timeout=30_000):
        click(qtbot, dialog.sign_button)
        qtbot.waitUntil(lambda: tab.last_bid_id is not None, timeout=30_000)
    gui_thread.assert_not_blocked()
    placed = sandbox.requests(path="/v1/bid/place", method="POST")
    assert len(placed) == 1 and placed[0].status == 200


def test_the_end_listing_rate_chosen_is_paid_on_chain(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: Sandbox,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    item = funded.assets.inscription_ids[0]
    gui_thread.start()
    page = App(funded.app, qtbot, qloop, funded.root_url, funded.assets).listings.open()
    page.list_items([item], PRICE)
    page.choose_listing(item)
    review = page.start_end_listing(RATE)
    if review.needs_fee_consent:  # above the sandbox's estimate: the user accepts it
        review.accept_fee()
    said = page.approve(review)
    assert said.startswith("Sent "), said
    txid = said.split()[1].rstrip(":")
    gui_thread.assert_not_blocked()
    with gui_thread.paused(), httpx.Client(base_url=funded.root_url, timeout=30) as http:
        assert http.post("/sandbox/mine", json={"blocks": 1}).is_success
        tx = http.get(f"/esplora/tx/{txid}").json()
    assert tx["status"]["confirmed"]
    rate = tx["fee"] / -(-tx["weight"] // 4)
    assert RATE * 0.95 <= rate <= RATE * 1.05, rate
