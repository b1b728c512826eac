"""A bid on one inscription through the widgets against the real sandbox: bad input is said at
each field, the review says "you pay ... you receive inscription ... at <your ordinals
address>", Sign places it, and once the sandbox's seller accepts it the table shows it filled."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx
from pytestqt.qtbot import QtBot

from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog
from app.ui.tabs.inscription_bid_tab import InscriptionBidTab
from tests.ui.conftest import AppHarness, OptionsFactory
from tests.ui.flows import click, open_funded_app, type_into, wait_dialog, widget_top
from tests.ui.gui_thread import GuiThreadWatch

PRICE = 30_000


def seller_inscription(root_url: str, label: str) -> str:
    """An inscription held by a sandbox key (a seller who can accept bids), confirmed."""
    with httpx.Client(base_url=root_url, timeout=60) as http:
        seller = http.get(f"/sandbox/addresses/{label}").json()["address"]
        created = http.post("/sandbox/inscriptions", json={"address": seller})
        assert created.is_success, created.text
        assert http.post("/sandbox/mine", json={"blocks": 1}).is_success
        return str(created.json()["inscriptionId"])


def test_inscription_bid_placed_then_accepted_shows_filled(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app = funded.app
    inscription = seller_inscription(funded.root_url, "ui-inscription-seller")

    gui_thread.start()
    app.window.show_tab("inscription_bid")
    tab = app.window.tab("inscription_bid")
    assert isinstance(tab, InscriptionBidTab)
    qtbot.waitUntil(lambda: tab.bids is not None, timeout=20_000)
    assert tab.model.rowCount() == 0 and tab.list_hint.text() == strings.INSCRIPTION_BID_NONE

    # Nothing is red before it is touched, nor while it is being typed; each field says what
    # is wrong with it once left, under it, without moving the fields below; Review stays off.
    assert not tab.inscription_error.isVisible() and not tab.price_error.isVisible()
    app.window.activateWindow()  # focus moves (leaving a field) only in the active window
    qtbot.waitUntil(app.window.isActiveWindow)
    price_at = widget_top(tab.price)
    type_into(qtbot, tab.inscription, "not-an-id")
    assert not tab.inscription_error.isVisible()  # still typing
    type_into(qtbot, tab.price.edit, "9,000")  # the id field is left
    assert tab.inscription_error.text() == strings.INSCRIPTION_BID_ID_INVALID
    assert tab.inscription_error.isVisible() and widget_top(tab.price) == price_at
    assert not tab.price_error.isVisible()
    tab.inscription.setFocus()  # the price field is left
    assert tab.price_error.text() == "Offer at least 10,000 sats for one inscription."
    assert not tab.review_button.isEnabled()
    tab.inscription.clear()
    type_into(qtbot, tab.inscription, inscription)
    assert not tab.inscription_error.isVisible()  # fixed: gone at once
    tab.price.edit.clear()
    type_into(qtbot, tab.price.edit, f"{PRICE:,}")
    assert not tab.inscription_error.isVisible() and not tab.price_error.isVisible()
    assert widget_top(tab.price) == price_at

    click(qtbot, tab.review_button)
    dialog = wait_dialog(qtbot, app, PsbtReviewDialog, timeout=30_000)
    note = dialog.notes_label.text()
    assert note.startswith("You pay ") and f"you receive inscription {inscription}" in note
    assert f"at {funded.keys.ordinals.address} (your ordinals address)" in note
    assert dialog.sign_button is not None
    with qtbot.waitSignal(tab.refreshed, timeout=30_000):
        click(qtbot, dialog.sign_button)
        qtbot.waitUntil(lambda: tab.last_bid_id is not None, timeout=30_000)
    bid_id = tab.last_bid_id
    assert bid_id is not None and bid_id in tab.status.text()
    qtbot.waitUntil(lambda: tab.state_of(bid_id) == "open", timeout=10_000)

    with gui_thread.paused(), httpx.Client(base_url=funded.root_url, timeout=60) as http:
        accepted = http.post("/sandbox/inscription-bids/accept", json={"bidId": bid_id})
        assert accepted.is_success, accepted.text
    with qtbot.waitSignal(tab.refreshed, timeout=20_000):
        click(qtbot, tab.refresh_button)
    assert tab.state_of(bid_id) == "accepted"
    row = next(r for r in range(tab.model.rowCount()) if tab.model.cell(r, 3).text == bid_id)
    assert tab.model.cell(row, 2).text == strings.INSCRIPTION_BID_STATES["accepted"]
    gui_thread.assert_not_blocked()
