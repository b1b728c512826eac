"""Bulk secure listing of 10 inscriptions through the widgets against the real sandbox: what
cannot go in one request (inscriptions mixed with runes, a TAP transfer) is explained before
anything is sent; one review table shows all 10 PSBTs; a Cancel during signing sends nothing;
signing again lists all 10, and the listings table shows them active."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx
from pytestqt.qtbot import QtBot

from app.core.limits import MAX_LISTINGS_PER_BULK_REQUEST
from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog
from app.ui.tabs.listings_items import MAX_PER_REQUEST
from app.ui.tabs.listings_tab import ListingsTab
from tests.ui.conftest import AppHarness, OptionsFactory
from tests.ui.flows import click, open_funded_app, type_into, wait_new_dialog
from tests.ui.gui_thread import GuiThreadWatch

COUNT = 10
PRICE = 25_000


def inscribe(root_url: str, address: str, count: int, *, tap: bool = False) -> list[str]:
    with httpx.Client(base_url=root_url, timeout=60) as http:
        made = []
        for _ in range(count):
            body = {"address": address, "tapTransfer": tap}
            answer = http.post("/sandbox/inscriptions", json=body)
            assert answer.is_success, answer.text
            made.append(str(answer.json()["inscriptionId"]))
        assert http.post("/sandbox/mine", json={"blocks": 1}).is_success
        return made


def test_the_tab_limit_is_the_spec_limit() -> None:
    assert MAX_PER_REQUEST == MAX_LISTINGS_PER_BULK_REQUEST


def test_bulk_secure_listing_of_ten_inscriptions(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app = funded.app
    ordinals = funded.keys.ordinals.address
    held = len(funded.assets.inscription_ids)
    extra = inscribe(funded.root_url, ordinals, COUNT - held)
    (tap,) = inscribe(funded.root_url, ordinals, 1, tap=True)
    inscriptions = [*funded.assets.inscription_ids, *extra]

    gui_thread.start()
    app.window.show_tab("listings")
    tab = app.window.tab("listings")
    assert isinstance(tab, ListingsTab)
    qtbot.waitUntil(lambda: tab.held is not None, timeout=30_000)
    model = tab.items_model
    keys = [i.key for i in model.items]
    assert set(inscriptions) | {tap} <= set(keys)
    runes_row = next(r for r, i in enumerate(model.items) if i.is_runes)
    assert funded.keys.payment.address in tab.receive_label.text()
    assert not tab.sign_button.isEnabled()  # nothing selected yet

    # Explained before anything is sent: a rune with an inscription, then a TAP transfer.
    model.set_checked(runes_row, True)
    model.set_checked(tab.row_of(inscriptions[0]), True)
    assert tab.problem_label.text() == strings.LISTINGS_MIXED and not tab.sign_button.isEnabled()
    model.set_checked(runes_row, False)
    model.set_checked(tab.row_of(tap), True)
    assert tab.problem_label.text() == strings.LISTINGS_TAP
    assert not tab.sign_button.isEnabled() and not tab.export_button.isEnabled()
    model.set_checked(tab.row_of(tap), False)
    assert tab.problem_label.text() == strings.LISTINGS_NEED_PRICE

    for inscription in inscriptions:
        model.set_checked(tab.row_of(inscription), True)
    type_into(qtbot, tab.price_all.edit, f"{PRICE:,}")
    click(qtbot, tab.apply_price)
    assert not tab.problem_label.text() and tab.sign_button.isEnabled()
    assert tab.selection_label.text().startswith(f"{COUNT} selected")

    # First try: the user cancels after the first signature; nothing is sent.
    def cancel_after_first(value: int) -> None:
        if value == 1 and tab.progress.label.text() == strings.LISTINGS_SIGNING:
            click(qtbot, tab.progress.cancel_button)

    tab.progress.bar.valueChanged.connect(cancel_after_first)
    dialog = review(qtbot, app, tab)
    click(qtbot, dialog.sign_button)  # type: ignore[arg-type]
    qtbot.waitUntil(lambda: not tab.flow.busy, timeout=60_000)
    tab.progress.bar.valueChanged.disconnect(cancel_after_first)
    assert tab.status.text() == strings.LISTINGS_CANCELLED_AFTER.format(done=1, total=COUNT)

    # Second try: all ten are signed and submitted.
    dialog = review(qtbot, app, tab)
    with qtbot.waitSignal(tab.refreshed, timeout=60_000):
        click(qtbot, dialog.sign_button)  # type: ignore[arg-type]
        qtbot.waitUntil(lambda: not tab.flow.busy, timeout=60_000)
    assert tab.status.text() == strings.counted(strings.LISTINGS_DONE, COUNT)
    assert not tab.progress.isVisible()
    # The items just listed are unticked, their price gone: the next action starts clean.
    assert model.selected() == [] and not tab.sign_button.isEnabled()
    assert all(model.prices[tab.row_of(i)] is None for i in inscriptions)
    assert all(tab.state_of(i) == "active" for i in inscriptions)
    assert tab.mine_model.rowCount() == COUNT
    gui_thread.assert_not_blocked()


def review(qtbot: QtBot, app: AppHarness, tab: ListingsTab) -> PsbtReviewDialog:
    """Review and sign -> the one review table of all ten PSBTs, each approved."""
    before = len(app.dialogs)
    click(qtbot, tab.sign_button)
    dialog = wait_new_dialog(qtbot, app, PsbtReviewDialog, before)
    assert dialog.plans_model.rowCount() == COUNT
    verdicts = {dialog.plans_model.cell(r, 4).text for r in range(COUNT)}
    assert verdicts == {strings.REVIEW_VERDICT_OK}
    assert dialog.sign_button is not None
    assert dialog.sign_button.text() == strings.counted(strings.LISTINGS_ACTION, COUNT)
    assert f"You list {COUNT} items for {COUNT * PRICE:,} sats" in dialog.notes_label.text()
    return dialog
