"""The fee rate wherever the user pays the fee, through the widgets against the real sandbox.
Where the service builds the transaction (Withdraw, Inscription bid; behind a proxy): the rate
chosen in the tab's picker is the `feeRate` of the request, the review says the transaction
pays it and the withdrawal confirms at it (measured from the chain); with the field dropped on
the way (a service that ignores it) the review warns, with both figures, before anything is
signed. Where we build it (End listing): the move confirms at the rate chosen."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator

import httpx
import pytest
from pytestqt.qtbot import QtBot

from app.services.bidding_wallet import get_bidding_wallet
from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog
from app.ui.profile_session import profile_session
from app.ui.tabs.inscription_bid_tab import InscriptionBidTab
from app.ui.tabs.withdraw_tab import WithdrawTab
from app.ui.widgets.fee_picker import FeePicker
from tests.support.proxy import FaultProxy
from tests.ui.conftest import AppHarness, OptionsFactory
from tests.ui.flows import (
    FundedApp,
    click,
    open_funded_app,
    sandbox_post,
    type_into,
    wait_dialog,
    wait_new_dialog,
)
from tests.ui.gui_thread import GuiThreadWatch
from tests.ui.helpers import run_async
from tests.ui.test_flow_end_listing import list_at, listings_tab, sign_in_review
from tests.ui.test_flow_inscription_bid import seller_inscription

RATE = 12
FUNDS = 300_000
WITHDRAW = 100_000
PRICE = 30_000


@pytest.fixture
def proxy(qloop: asyncio.AbstractEventLoop, sandbox: SandboxProcess) -> Iterator[FaultProxy]:
    running = run_async(qloop, FaultProxy(upstream=sandbox.url).__aenter__())
    yield running
    run_async(qloop, running.__aexit__(None, None, None))


def drop_fee_rate(_method: str, path: str, body: bytes) -> bytes | None:
    """A service that ignores feeRate: the field never reaches the sandbox."""
    if not path.startswith("/v1/intent/") or not body:
        return None
    fields = json.loads(body)
    fields.pop("feeRate", None)
    return json.dumps(fields).encode()


def fund_bidding_wallet(funded: FundedApp, loop: asyncio.AbstractEventLoop) -> None:
    """Faucet coins into the bidding wallet, straight at the sandbox (the proxy serves on the
    test's loop, which a blocking call from the test would stall)."""
    session = profile_session(funded.app.context)
    run_async(loop, session.ensure_ready())
    address = run_async(loop, get_bidding_wallet(session.read_context())).address
    sandbox_post(funded.root_url, "/sandbox/faucet", {"address": address, "sats": FUNDS})
    sandbox_post(funded.root_url, "/sandbox/mine", {"blocks": 1})


def choose_custom_rate(qtbot: QtBot, picker: FeePicker, rate: int) -> None:
    """Custom, then the rate typed as a user types it."""
    picker.choice.setCurrentIndex(picker.choice.count() - 1)
    picker.custom.setFocus()
    picker.custom.selectAll()
    qtbot.keyClicks(picker.custom, str(rate))
    assert picker.custom.value() == rate


def asked_rates(proxy: FaultProxy, path: str) -> list[object]:
    return [seen.json().get("feeRate") for seen in proxy.requests("POST", path)]


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
    sandbox: SandboxProcess,
    proxy: FaultProxy,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop, proxy.url)
    app = funded.app
    fund_bidding_wallet(funded, qloop)
    gui_thread.start()
    tab = withdraw_tab(qtbot, app)
    # The network's estimates arrive with the balance: fast / normal / slow, normal chosen.
    assert tab.fee.estimate() is not None and tab.fee.choice.count() == 4
    choose_custom_rate(qtbot, tab.fee, RATE)
    type_into(qtbot, tab.amount.edit, f"{WITHDRAW:,}")
    click(qtbot, tab.review_button)

    dialog = wait_dialog(qtbot, app, PsbtReviewDialog, timeout=30_000)
    assert asked_rates(proxy, "/v1/intent/withdraw") == [RATE]
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
    sandbox: SandboxProcess,
    proxy: FaultProxy,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop, proxy.url)
    app = funded.app
    fund_bidding_wallet(funded, qloop)
    proxy.rewrite_request(drop_fee_rate)
    gui_thread.start()
    tab = withdraw_tab(qtbot, app)
    choose_custom_rate(qtbot, tab.fee, RATE)
    type_into(qtbot, tab.amount.edit, f"{WITHDRAW:,}")
    click(qtbot, tab.review_button)

    dialog = wait_dialog(qtbot, app, PsbtReviewDialog, timeout=30_000)
    assert asked_rates(proxy, "/v1/intent/withdraw") == [RATE]  # asked, dropped on the way
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
    assert proxy.requests("POST", "/v1/withdraw") == []
    gui_thread.assert_not_blocked()


def test_the_inscription_bid_rate_chosen_is_asked_and_paid(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    proxy: FaultProxy,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop, proxy.url)
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
    assert asked_rates(proxy, "/v1/intent/bid") == [RATE]
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
    placed = proxy.requests("POST", "/v1/bid/place")
    assert len(placed) == 1 and placed[0].status == 200


def test_the_end_listing_rate_chosen_is_paid_on_chain(
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
    gui_thread.start()
    tab = listings_tab(qtbot, app)
    list_at(qtbot, app, tab, item, PRICE)
    before = len(app.dialogs)
    click(qtbot, tab.sign_button)
    sign_in_review(qtbot, app, tab, before)
    row = next(r for r, m in enumerate(tab.mine or []) if m.state == "active")
    tab.mine_view.selectRow(row)
    qtbot.waitUntil(tab.end_button.isEnabled, timeout=10_000)
    choose_custom_rate(qtbot, tab.end_fee, RATE)
    before = len(app.dialogs)
    click(qtbot, tab.end_button)
    dialog = wait_new_dialog(qtbot, app, PsbtReviewDialog, before)
    assert dialog.sign_button is not None
    if dialog.consent_box is not None:  # above the sandbox's estimate: the user accepts it
        click(qtbot, dialog.consent_box)
    with qtbot.waitSignal(tab.refreshed, timeout=60_000):
        click(qtbot, dialog.sign_button)
        qtbot.waitUntil(lambda: not tab.flow.busy, timeout=60_000)
    assert tab.status.text().startswith("Sent "), tab.status.text()
    txid = tab.status.text().split()[1].rstrip(":")
    gui_thread.assert_not_blocked()
    with gui_thread.paused(), httpx.Client(base_url=funded.root_url, timeout=30) as http:
        assert http.post("/sandbox/mine", json={"blocks": 1}).is_success
        tx = http.get(f"/esplora/tx/{txid}").json()
    assert tx["status"]["confirmed"]
    rate = tx["fee"] / -(-tx["weight"] // 4)
    assert RATE * 0.95 <= rate <= RATE * 1.05, rate
