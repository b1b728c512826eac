"""Bulk secure listing of 10 inscriptions through the widgets against the real sandbox: what
cannot go in one request (inscriptions mixed with runes, a TAP transfer) is explained before
anything is sent; one review table shows all 10 PSBTs; a Cancel during signing sends nothing
and marks "Signed" only the item signed before it; signing again lists all 10, and the
listings table shows them active."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx
from pytestqt.qtbot import QtBot

from app.core.limits import MAX_LISTINGS_PER_BULK_REQUEST
from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.models.review_model import short
from app.ui.qa.app import App
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.pages.review import ReviewPage
from app.ui.qa.profiles import open_funded_app
from app.ui.tabs.listings_items import MAX_PER_REQUEST

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
    app = App(funded.app, qtbot, qloop, funded.root_url, funded.assets)
    ordinals = funded.keys.ordinals.address
    held = len(funded.assets.inscription_ids)
    extra = inscribe(funded.root_url, ordinals, COUNT - held)
    (tap,) = inscribe(funded.root_url, ordinals, 1, tap=True)
    inscriptions = [*funded.assets.inscription_ids, *extra]

    gui_thread.start()
    page = app.listings.open()
    tab = page.widget
    keys = page.held()
    assert set(inscriptions) | {tap} <= set(keys)
    runes = next(i.key for i in tab.items_model.items if i.is_runes)
    assert funded.keys.payment.address in tab.receive_label.text()
    assert not page.can_list()  # nothing selected yet

    # Explained before anything is sent: a rune with an inscription, then a TAP transfer.
    page.select([runes, inscriptions[0]])
    assert page.problem == strings.LISTINGS_MIXED and not tab.sign_button.isEnabled()
    page.tick(runes, False)
    page.tick(tap)
    assert page.problem == strings.LISTINGS_TAP
    assert not tab.sign_button.isEnabled() and not tab.export_button.isEnabled()
    page.tick(tap, False)
    assert page.problem == strings.LISTINGS_NEED_PRICE

    page.choose(inscriptions, PRICE)
    assert not page.problem and page.can_list()
    assert page.selection.startswith(f"{COUNT} selected")

    # First try: the user cancels after the first signature; nothing is sent.
    with page.cancelling_signing_after(1):
        said = page.approve(review(page.review_selected()))
    assert said == strings.LISTINGS_CANCELLED_AFTER.format(done=1, total=COUNT)
    signed = strings.LISTINGS_SIGNED_AT.format(price=f"{PRICE:,} sats")
    signed_mark = strings.LISTINGS_SIGNED_NOT_LISTED.format(signed=signed)

    # The one signature made before the cancel stays valid until its item moves: the tab says
    # so of that item alone (the nine never signed are not listed), and listing again asks
    # about it alone. Second try: all ten are signed and submitted.
    marks = {i: page.mark(i) for i in inscriptions}
    (made,) = [i for i, m in marks.items() if m == signed_mark]
    unsigned = [m for i, m in marks.items() if i != made]
    assert unsigned == [strings.LISTINGS_NOT_LISTED] * (COUNT - 1)
    question = page.start_relisting(inscriptions, PRICE)
    assert question.dialog.list.count() == 1 and short(made, 10) in question.head
    said = page.approve(review(question.list_again()))
    assert said == strings.counted(strings.LISTINGS_DONE, COUNT)
    assert not tab.progress.isVisible()
    # The items just listed are unticked, their price gone: the next action starts clean.
    assert page.ticked() == [] and not tab.sign_button.isEnabled()
    assert all(page.price_of(i) is None for i in inscriptions)
    assert all(tab.state_of(i) == "active" for i in inscriptions)
    assert len(page.your_listings()) == COUNT
    gui_thread.assert_not_blocked()


def review(dialog: ReviewPage) -> ReviewPage:
    """The one review table of all ten PSBTs, each approved."""
    plans = dialog.dialog.plans_model
    assert plans.rowCount() == COUNT
    verdicts = {plans.cell(r, 4).text for r in range(COUNT)}
    assert verdicts == {strings.REVIEW_VERDICT_OK}
    assert dialog.can_approve
    assert dialog.action == strings.counted(strings.LISTINGS_ACTION, COUNT).replace("&", "")
    assert any(f"You list {COUNT} items for {COUNT * PRICE:,} sats" in n for n in dialog.notes)
    return dialog
