"""Withdraw: the withdrawal's result ("Withdrawn …: transaction …") or, for a watch-only
profile, what to do with the export stays readable until the user starts another withdrawal.
A background reading of the bidding wallet that failed replaced that line with its failure,
and the next good reading cleared it: the result was gone (the txid row stayed). A reading's
failure is said on the wallet's own line under the balance (as the Wallet and Listings tabs
say theirs), and its coming and going moves nothing.

Against the real sandbox: the readings fail by a fault on the open bids' path, and end when it
is removed; each reading is the shared state's own (`WalletState.refresh`), as its timer's."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.ui.main_window import MINIMUM_SIZE
from app.ui.qa.actions import settle_layouts
from app.ui.qa.app import App
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.loop import run_async
from app.ui.qa.pages import sign_elsewhere as elsewhere
from app.ui.qa.pages.withdraw import WithdrawPage
from app.ui.qa.sandbox import Sandbox, fund_bidding_wallet
from app.ui.qa.sandbox_faults import SandboxFaults
from tests.ui.test_flow_signed_elsewhere import open_collector

FUNDS = 300_000
BIDS_PATH = "/v1/address/bids"  # every reading of the bidding wallet lists its open bids


def where(page: WithdrawPage) -> list[QRect]:
    """Where the balance, the form's fields, Review and the result line are in the tab, once
    laid out."""
    settle_layouts()
    tab = page.widget
    widgets: list[QWidget] = [
        tab.balance_label, tab.refresh_button, tab.amount, tab.fee, tab.review_button,
        tab.status, tab.txid_row,
    ]  # fmt: skip
    return [QRect(w.mapTo(tab, QPoint(0, 0)), w.size()) for w in widgets]


def read_again(app: App) -> None:
    """One reading of the bidding wallet in the background (the state's, as its timer's)."""
    run_async(app.loop, app.withdraw.widget.state.refresh())


def failing_and_recovering(app: App, faults: SandboxFaults, result: str) -> None:
    """A reading fails, then one succeeds: `result` stays on the status line throughout, the
    failure is said on the wallet's line and goes with the good reading; nothing moves."""
    page = app.withdraw
    tab = page.widget
    tab.window().resize(1024, 700)
    txid = tab.txid_row.txid
    before = where(page)
    armed = faults.error("GET", BIDS_PATH, status=503, times=None)
    read_again(app)
    failure = tab.state.error
    assert failure.startswith("The service refused"), failure
    assert page.status == result
    assert page.reading == failure
    assert where(page) == before
    tab.window().resize(MINIMUM_SIZE)  # at the narrowest: cut at its end, whole in its tip
    where(page)
    shown = tab.reading_line.label
    assert shown.text().endswith("…") and failure.startswith(shown.text()[:-1])
    assert shown.toolTip() == failure and tab.reading_line.height() == shown.height()
    tab.window().resize(1024, 700)

    faults.remove(armed.id)
    read_again(app)
    assert not tab.state.error
    assert page.status == result and tab.txid_row.txid == txid
    assert page.reading == ""
    assert where(page) == before


def test_a_failed_reading_leaves_the_withdrawal_result(
    bidwallet_app: App, bidwallet_faults: SandboxFaults
) -> None:
    app = bidwallet_app
    fund_bidding_wallet(app.harness, app.loop, FUNDS)
    page = app.withdraw
    page.refresh()
    done = page.withdraw_and_sign(50_000)
    assert done.status.startswith("Withdrawn 50,000 sats") and done.txid in done.status
    failing_and_recovering(app, bidwallet_faults, done.status)


def test_a_failed_reading_leaves_the_export_instructions(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: Sandbox,
    bidwallet_faults: SandboxFaults,
    tmp_path: Path,
) -> None:
    collector = open_collector(qtbot, open_app, make_options, sandbox)
    fund_bidding_wallet(collector.app, qloop, FUNDS)
    app = App(collector.app, qtbot, qloop, collector.url)
    page = app.withdraw
    page.refresh()
    said = elsewhere.export_reviewed(page, page.withdraw(50_000), tmp_path / "out", "export")
    assert said.startswith("Exported to") and said == page.status
    failing_and_recovering(app, bidwallet_faults, said)


def test_another_profile_does_not_show_this_ones_withdrawal(bidwallet_app: App) -> None:
    """The result stays through readings, not through a switch: under another profile
    "Withdrawn 50,000 sats…" and its transaction would be said of a wallet that did not."""
    from dataclasses import replace

    app = bidwallet_app
    fund_bidding_wallet(app.harness, app.loop, FUNDS)
    page = app.withdraw
    page.refresh()
    done = page.withdraw_and_sign(50_000)
    assert page.status == done.status and page.widget.txid_row.txid == done.txid
    context = app.harness.context
    assert context.profile is not None
    other = replace(context.profile, name="Other")
    run_async(app.loop, context.update_settings(lambda s: s.with_profile(other)))

    run_async(app.loop, app.harness.window.controller.switch_profile("Other"))

    assert context.profile is not None and context.profile.name == "Other"
    assert page.status == ""
    assert page.widget.txid_row.txid is None
