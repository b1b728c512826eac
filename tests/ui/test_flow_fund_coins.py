"""Fund while ord has not indexed the newest coins, against the real sandbox answering like real
ord (its default: a mempool output is `indexed: false`): the review says which coins were left
aside and why; "Choose coins…" lists every coin with its amount, confirmations and what it
carries, the ones that must not be spent greyed with no box; the ticked coin is exactly what
the funding spends."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.services.sandbox_demo import DEMO_FAUCET_SATS
from app.services.sandbox_process import SandboxProcess
from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog
from app.ui.tabs.wallet_coins import (
    COL_AMOUNT,
    COL_CARRIES,
    COL_COIN,
    COL_CONFIRMATIONS,
    CoinChooserDialog,
)
from app.ui.tabs.wallet_tab import WalletTab
from tests.ui.conftest import AppHarness, OptionsFactory
from tests.ui.flows import click, open_funded_app, sandbox_post, type_into, wait_new_dialog
from tests.ui.gui_thread import GuiThreadWatch

AMOUNT = 120_000
FRESH = 300_000


def test_fund_skips_unindexed_coins_and_spends_the_coins_chosen(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app, root = funded.app, funded.root_url
    payment = funded.keys.payment.address
    confirmed = f"{funded.assets.faucet_txid}:0"
    inscribed = sandbox_post(root, "/sandbox/inscriptions", {"address": payment})["outpoint"]
    sandbox_post(root, "/sandbox/mine", {"blocks": 1})
    # The sandbox's ord answers like real ord: the fresh coin is not indexed until mined.
    paid = sandbox_post(root, "/sandbox/faucet", {"address": payment, "sats": FRESH})
    fresh = f"{paid['txid']}:{paid['vout']}"
    _scenario(qtbot, app, gui_thread, confirmed, inscribed, fresh)
    with gui_thread.paused(), httpx.Client(base_url=root, timeout=30) as http:
        tx = http.get(f"/esplora/tx/{_tab(app).fund.last_txid}").json()
    assert [f"{i['txid']}:{i['vout']}" for i in tx["vin"]] == [confirmed]


def _tab(app: AppHarness) -> WalletTab:
    tab = app.window.tab("wallet")
    assert isinstance(tab, WalletTab)
    return tab


def _scenario(
    qtbot: QtBot,
    app: AppHarness,
    gui_thread: GuiThreadWatch,
    confirmed: str,
    inscribed: str,
    fresh: str,
) -> None:
    gui_thread.start()
    app.window.show_tab("wallet")
    tab = _tab(app)
    fund = tab.fund
    qtbot.waitUntil(lambda: fund.fee.choice.count() == 4, timeout=20_000)
    type_into(qtbot, fund.amount.edit, f"{AMOUNT:,}")

    # Left to itself the wallet funds from the confirmed coin; the review says what it left.
    before = len(app.dialogs)
    click(qtbot, fund.fund_button)
    review = wait_new_dialog(qtbot, app, PsbtReviewDialog, before, timeout=30_000)
    notes = review.notes_label.text()
    assert "1 coin carries inscriptions or runes and was left untouched." in notes
    assert f"1 coin ({FRESH:,} sats) is waiting for the indexer and was not used" in notes
    assert "you chose" not in notes
    with qtbot.waitSignal(review.finished):
        click(qtbot, review.cancel_button)
    qtbot.waitUntil(lambda: fund.fund_button.isEnabled())

    # Coin control: every coin listed; only the plain indexed one can be ticked.
    before = len(app.dialogs)
    click(qtbot, fund.choose_button)
    dialog = wait_new_dialog(qtbot, app, CoinChooserDialog, before, timeout=30_000)
    assert dialog.table.rowCount() == 3
    assert not dialog.use_button.isEnabled()  # nothing ticked yet

    def cell(outpoint: str, column: int) -> str:
        item = dialog.table.item(dialog.row_of(outpoint), column)
        assert item is not None
        return item.text()

    assert cell(confirmed, COL_AMOUNT) == f"{DEMO_FAUCET_SATS:,} sats"
    assert int(cell(confirmed, COL_CONFIRMATIONS)) >= 2
    assert cell(confirmed, COL_CARRIES) == "Nothing"
    # A greyed coin says why on its second line, not only in a tooltip.
    assert cell(inscribed, COL_CARRIES).startswith("1 inscription (")
    assert cell(inscribed, COL_CARRIES).endswith("\nCannot be chosen: funding never spends it.")
    assert (cell(fresh, COL_CONFIRMATIONS), cell(fresh, COL_CARRIES)) == (
        "unconfirmed",
        "Unknown: waiting for the indexer\nCannot be chosen until ord indexes it.",
    )
    # The coin id shortened as the review shows it, whole in its tooltip; Carries readable.
    coin_item = dialog.table.item(dialog.row_of(confirmed), COL_COIN)
    assert coin_item is not None and coin_item.toolTip() == confirmed
    assert coin_item.text() == f"{confirmed[:12]}…{confirmed[-12:]}"
    carries_width = dialog.table.columnWidth(COL_CARRIES)
    assert carries_width >= dialog.table.fontMetrics().horizontalAdvance(
        "Cannot be chosen: funding never spends it."
    )
    assert dialog.is_choosable(confirmed)
    assert not dialog.is_choosable(inscribed) and not dialog.is_choosable(fresh)
    waiting_item = dialog.table.item(dialog.row_of(fresh), COL_AMOUNT)
    assert waiting_item is not None and "not indexed" in waiting_item.toolTip()
    # Space on the plain coin ticks it, as a click on its box would.
    dialog.table.setFocus()
    dialog.table.setCurrentCell(dialog.row_of(confirmed), COL_AMOUNT)
    qtbot.keyClick(dialog.table, Qt.Key.Key_Space)
    assert dialog.chosen() == (confirmed,)
    assert dialog.summary.text() == f"1 coin chosen: {DEMO_FAUCET_SATS:,} sats."
    with qtbot.waitSignal(dialog.finished):
        click(qtbot, dialog.use_button)
    qtbot.waitUntil(lambda: fund.chosen_coins == (confirmed,))
    assert (
        fund.chosen_label.text() == f"Funding spends the coin you chose: {DEMO_FAUCET_SATS:,} sats."
    )
    assert fund.any_coins_button.isVisibleTo(tab)

    # The review says the chosen coin is spent; Sign broadcasts exactly it.
    before = len(app.dialogs)
    click(qtbot, fund.fund_button)
    review = wait_new_dialog(qtbot, app, PsbtReviewDialog, before, timeout=30_000)
    notes = review.notes_label.text()
    assert f"Spends the coin you chose ({DEMO_FAUCET_SATS:,} sats)." in notes
    assert "waiting for the indexer" not in notes
    assert review.sign_button is not None
    click(qtbot, review.sign_button)
    qtbot.waitUntil(lambda: fund.last_txid is not None, timeout=30_000)
    assert fund.chosen_coins is None  # spent: the next funding lets the wallet choose
    assert not fund.any_coins_button.isVisibleTo(tab)
    gui_thread.assert_not_blocked()
