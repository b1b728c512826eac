"""Secure rune listings through the widgets against the real sandbox, whatever runestone the
service adds (issue 18; `POST /sandbox/market/runestones`): none, an edict of the rune's id to
the escrow, a pointer at it. One window lists a rune output under each: the review shows the
escrow (output 0) receiving the runes and, when there is one, what the runestone says; it is
approved, signed, and the listing is active. And an inscription bid under "pointer", whose PSBT
carries a runestone though the item has no runes: decoded, shown, approved and placed."""

from __future__ import annotations

import asyncio
import secrets
import string
from collections.abc import Callable

from pytestqt.qtbot import QtBot

from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog
from app.ui.qa.actions import click, type_into, wait_new_dialog
from app.ui.qa.app import App
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.pages.listings import ListingsPage
from app.ui.qa.profiles import open_funded_app
from app.ui.qa.sandbox import sandbox_post
from app.ui.tabs.inscription_bid_tab import InscriptionBidTab
from tests.ui.test_flow_inscription_bid import seller_inscription

PRICE = 33_000
UNITS = 2_024
# What the review's details say of the runestone (output 3, after escrow, price and fee).
RUNESTONE_SAYS = {
    "none": None,
    "edict": "Output 3 is a runestone: an edict: all of {rune} to output 0.",
    "pointer": "Output 3 is a runestone: the runes left go to output 0.",
}
OWNER, RECEIVES = 3, 4  # the outputs table's columns: whose, and the runes it receives


def etch(root_url: str, address: str) -> tuple[str, str]:
    """A fresh rune of UNITS at `address`, mined: (its name, its outpoint)."""
    rune = "WINDOW•" + "".join(secrets.choice(string.ascii_uppercase) for _ in range(9))
    made = sandbox_post(root_url, "/sandbox/runes", {"address": address, "rune": rune,
                                                     "amount": UNITS})  # fmt: skip
    sandbox_post(root_url, "/sandbox/mine", {"blocks": 1})
    return rune, str(made["outpoint"])


def test_a_rune_listing_under_each_runestone_setting(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app, root = funded.app, funded.root_url
    runes = {mode: etch(root, funded.keys.ordinals.address) for mode in RUNESTONE_SAYS}
    gui_thread.start()
    page = App(app, qtbot, qloop, root).listings.open()
    try:
        for mode, (rune, outpoint) in runes.items():
            with gui_thread.paused():  # the test arranging the service, not the app's work
                sandbox_post(root, "/sandbox/market/runestones", {"mode": mode})
            says = RUNESTONE_SAYS[mode]
            list_one(page, rune, outpoint, says and says.format(rune=rune))
    finally:
        with gui_thread.paused():
            sandbox_post(root, "/sandbox/market/runestones", {"mode": "none"})
    gui_thread.assert_not_blocked()


def list_one(page: ListingsPage, rune: str, outpoint: str, says: str | None) -> None:
    review = page.start_listing([outpoint], PRICE)
    dialog = review.dialog
    receives = [dialog.outputs_model.cell(r, RECEIVES).text for r in range(3)]
    assert receives == [f"◆ {UNITS:,} {rune}", "", ""]  # the escrow gets them, nothing else
    # The service's addresses are not known: each output not ours is named by the flow's rule
    # (the escrow, where the runes go, holds the item; the rest is the fee).
    owners = [dialog.outputs_model.cell(r, OWNER).text for r in range(3)]
    assert owners == [
        "the service (holds the item)",
        "your payment address",
        "the service (its fee)",
    ]
    details = dialog.details_label.text()
    if says is None:
        assert "runestone" not in details and dialog.outputs_model.rowCount() == 3
    else:
        assert says in details and dialog.outputs_model.rowCount() == 4
        assert dialog.outputs_model.cell(3, RECEIVES).text == ""
        assert dialog.outputs_model.cell(3, OWNER).text == "a runestone (OP_RETURN)"
    assert dialog.plans_model.cell(0, 4).text == strings.REVIEW_VERDICT_OK
    assert review.can_approve
    assert page.approve(review) == strings.counted(strings.LISTINGS_DONE, 1)
    assert page.widget.state_of(outpoint) == "active"


def test_an_inscription_bid_carrying_the_services_pointer(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app, root = funded.app, funded.root_url
    inscription = seller_inscription(root, "ui-runestone-seller")
    sandbox_post(root, "/sandbox/market/runestones", {"mode": "pointer"})
    try:
        gui_thread.start()
        app.window.show_tab("inscription_bid")
        tab = app.window.tab("inscription_bid")
        assert isinstance(tab, InscriptionBidTab)
        qtbot.waitUntil(lambda: tab.bids is not None, timeout=20_000)
        type_into(qtbot, tab.inscription, inscription)
        type_into(qtbot, tab.price.edit, f"{PRICE:,}")
        before = len(app.dialogs)
        click(qtbot, tab.review_button)
        dialog = wait_new_dialog(qtbot, app, PsbtReviewDialog, before)
        last = dialog.outputs_model.rowCount() - 1
        assert dialog.outputs_model.cell(last, OWNER).text == "a runestone (OP_RETURN)"
        says = f"Output {last} is a runestone: the runes left go to output 0."
        assert says in dialog.details_label.text()
        assert dialog.sign_button is not None
        with qtbot.waitSignal(tab.refreshed, timeout=30_000):
            click(qtbot, dialog.sign_button)
            qtbot.waitUntil(lambda: tab.last_bid_id is not None, timeout=30_000)
        bid_id = tab.last_bid_id
        assert bid_id is not None
        qtbot.waitUntil(lambda: tab.state_of(bid_id) == "open", timeout=10_000)
    finally:
        with gui_thread.paused():
            sandbox_post(root, "/sandbox/market/runestones", {"mode": "none"})
    gui_thread.assert_not_blocked()
