"""The seller's side of the Listings tab through the widgets against the real sandbox: each held
item is marked with its listing (or "Not listed"); listing a listed item again asks first (Cancel
sends nothing, "List it again" replaces the listing at the new price); End listing reviews the
move of the item back to the ordinals address in the one review dialog, signs and sends it, and
the listing is gone. A service that gives no list of our listings marks every item "Unknown",
never "Not listed", until we sign a listing of one: our own record of that signature marks it
"Signed at …", listing it again asks first, and End listing ends it from the ticked item. A
listing replaced at a new price is still marked with the old signature's price, which stays
valid until the item moves."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator

import httpx
import pytest
from pytestqt.qtbot import QtBot

from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog
from app.ui.models.listings_model import LISTED, PRICE
from app.ui.tabs.listings_relist import RelistDialog
from app.ui.tabs.listings_tab import ListingsTab
from tests.support.proxy import Fault, FaultProxy
from tests.ui.conftest import AppHarness, OptionsFactory
from tests.ui.flows import click, open_funded_app, type_into, wait_new_dialog
from tests.ui.gui_thread import GuiThreadWatch
from tests.ui.helpers import run_async
from tests.ui.mnemonics import shared_mnemonics

FIRST, SECOND = 30_000, 40_000


@pytest.fixture
def proxy(qloop: asyncio.AbstractEventLoop, sandbox: SandboxProcess) -> Iterator[FaultProxy]:
    running = run_async(qloop, FaultProxy(upstream=sandbox.url).__aenter__())
    yield running
    run_async(qloop, running.__aexit__(None, None, None))


def listings_tab(qtbot: QtBot, app: AppHarness) -> ListingsTab:
    app.window.show_tab("listings")
    tab = app.window.tab("listings")
    assert isinstance(tab, ListingsTab)
    qtbot.waitUntil(lambda: tab.held is not None, timeout=30_000)
    return tab


def mark(tab: ListingsTab, key: str) -> str:
    return str(tab.items_model.index(tab.row_of(key), LISTED).data())


def list_at(qtbot: QtBot, app: AppHarness, tab: ListingsTab, key: str, price: int) -> None:
    """Select only `key` and price it."""
    tab.items_model.check_all(False)
    tab.items_model.set_checked(tab.row_of(key), True)
    tab.price_all.edit.clear()
    type_into(qtbot, tab.price_all.edit, f"{price:,}")
    click(qtbot, tab.apply_price)


def sign_in_review(qtbot: QtBot, app: AppHarness, tab: ListingsTab, before: int) -> None:
    dialog = wait_new_dialog(qtbot, app, PsbtReviewDialog, before)
    assert dialog.sign_button is not None
    with qtbot.waitSignal(tab.refreshed, timeout=60_000):
        click(qtbot, dialog.sign_button)
        qtbot.waitUntil(lambda: not tab.flow.busy, timeout=60_000)


def test_marks_relist_question_and_end_listing(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app = funded.app
    item, other = funded.assets.inscription_ids[:2]
    gui_thread.start()
    tab = listings_tab(qtbot, app)
    assert mark(tab, item) == mark(tab, other) == strings.LISTINGS_NOT_LISTED
    assert not tab.end_button.isEnabled()

    # List it: its row says so, with the price.
    list_at(qtbot, app, tab, item, FIRST)
    before = len(app.dialogs)
    click(qtbot, tab.sign_button)
    sign_in_review(qtbot, app, tab, before)
    listed_at = strings.LISTINGS_LISTED_AT.format(price=f"{FIRST:,} sats")
    assert mark(tab, item) == listed_at
    assert mark(tab, other) == strings.LISTINGS_NOT_LISTED

    # Again at another price: asked first; Cancel sends nothing.
    list_at(qtbot, app, tab, item, SECOND)
    before = len(app.dialogs)
    click(qtbot, tab.sign_button)
    question = wait_new_dialog(qtbot, app, RelistDialog, before)
    assert f"is listed at {FIRST:,} sats" in question.head.text()
    assert "replaces the current one" in question.explain.text()
    assert "stays valid until the item moves" in question.explain.text()
    click(qtbot, question.no_button)
    qtbot.waitUntil(lambda: tab.status.text() == strings.RELIST_CANCELLED)
    assert not any(isinstance(d, PsbtReviewDialog) for d in app.dialogs[before:])
    assert mark(tab, item) == listed_at

    # "List it again": the new listing replaces the old one.
    before = len(app.dialogs)
    click(qtbot, tab.sign_button)
    click(qtbot, wait_new_dialog(qtbot, app, RelistDialog, before).yes_button)
    sign_in_review(qtbot, app, tab, before)
    # ... but the first signature stays valid until the item moves: the row says so.
    listed_second = strings.LISTINGS_LISTED_AT.format(price=f"{SECOND:,} sats")
    assert mark(tab, item) == f"{listed_second} · also signed at {FIRST:,} sats"
    states = sorted((m.price, m.state) for m in tab.mine or [])
    assert states == [(FIRST, "replaced"), (SECOND, "active")]

    # End listing: the active one selected, reviewed, signed, sent; the listing is gone.
    active_row = next(r for r, m in enumerate(tab.mine or []) if m.state == "active")
    tab.mine_view.selectRow(active_row)
    with qtbot.waitSignal(tab.refreshed, timeout=30_000):
        click(qtbot, tab.refresh_button)  # the chosen listing stays chosen
    chosen = tab.selected_listing()
    assert chosen is not None and (chosen.price, chosen.state) == (SECOND, "active")
    assert tab.end_button.isEnabled(), tab.end_hint.text()
    # Listed items are unticked after listing: tick it again (a price typed ticks the row)
    # so that every button is enabled for the mnemonics check.
    model = tab.items_model
    assert not model.selected()
    assert model.setData(model.index(tab.row_of(item), PRICE), str(SECOND))
    assert tab.export_button.isEnabled() and shared_mnemonics(app.window) == {}
    before = len(app.dialogs)
    click(qtbot, tab.end_button)
    dialog = wait_new_dialog(qtbot, app, PsbtReviewDialog, before)
    assert dialog.sign_button is not None and dialog.sign_button.isEnabled()
    assert "moves back to your ordinals address" in dialog.notes_label.text()
    assert f"listing at {SECOND:,} sats" in dialog.notes_label.text()
    with qtbot.waitSignal(tab.refreshed, timeout=60_000):
        click(qtbot, dialog.sign_button)
        qtbot.waitUntil(lambda: not tab.flow.busy, timeout=60_000)
    assert tab.status.text().startswith("Sent ")
    txid = tab.status.text().split()[1].rstrip(":")
    assert mark(tab, item) == strings.LISTINGS_NOT_LISTED
    assert sorted(m.state for m in tab.mine or []) == ["item_moved", "replaced"]
    ended = tab.selected_listing()  # still the one chosen, though the list was re-read
    assert ended is not None and (ended.price, ended.state) == (SECOND, "item_moved")
    assert not tab.end_button.isEnabled()
    gui_thread.assert_not_blocked()
    with gui_thread.paused(), httpx.Client(base_url=funded.root_url, timeout=60) as http:
        assert http.post("/sandbox/mine", json={"blocks": 1}).is_success
        status = http.get(f"/esplora/tx/{txid}/status").json()
    assert status["confirmed"] is True
    with qtbot.waitSignal(tab.refreshed, timeout=60_000):  # ord indexes blocks: re-read
        click(qtbot, tab.refresh_button)
    moved = next(i for i in tab.held or [] if i.key == item)
    assert moved.outpoint == f"{txid}:0"  # still ours, on the new output ord indexed


def test_without_a_list_of_listings_items_are_unknown_until_signed_by_us(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    proxy: FaultProxy,
    gui_thread: GuiThreadWatch,
) -> None:
    proxy.add_fault(Fault.reply("GET", "/v1/listings", 404, {"error": "Not Found"}, times=None))
    # Nor wallet contents (which name listed items where /listings is missing).
    contents = "/v1/address/wallet-contents"
    proxy.add_fault(Fault.reply("GET", contents, 404, {"error": "Not Found"}, times=None))
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop, proxy.url)
    tab = listings_tab(qtbot, funded.app)
    item = funded.assets.inscription_ids[0]
    assert mark(tab, item) == strings.LISTINGS_LISTED_UNKNOWN
    tip = tab.items_model.index(tab.row_of(item), LISTED).data(3)  # ToolTipRole
    assert tip == strings.LISTINGS_LISTED_UNKNOWN_TIP
    assert tab.mine_hint.text() == strings.LISTINGS_MINE_UNAVAILABLE
    assert not tab.end_button.isEnabled()

    # Listed through the tab: the service still gives no list, but our own record of the
    # signature marks the item, and listing it again asks first.
    app = funded.app
    gui_thread.start()
    list_at(qtbot, app, tab, item, FIRST)
    before = len(app.dialogs)
    click(qtbot, tab.sign_button)
    sign_in_review(qtbot, app, tab, before)
    assert mark(tab, item) == f"Signed at {FIRST:,} sats"
    tip = tab.items_model.index(tab.row_of(item), LISTED).data(3)
    assert strings.LISTINGS_LISTED_UNKNOWN_TIP in tip
    assert "anyone holding this signature can buy it at that price until the item moves" in tip
    list_at(qtbot, app, tab, item, SECOND)
    before = len(app.dialogs)
    click(qtbot, tab.sign_button)
    question = wait_new_dialog(qtbot, app, RelistDialog, before)
    assert question.head.text().endswith(f"carries your listing signature at {FIRST:,} sats.")
    assert question.explain.text() == strings.RELIST_EXPLAIN_SIGNED
    click(qtbot, question.no_button)
    qtbot.waitUntil(lambda: tab.status.text() == strings.RELIST_CANCELLED)
    assert not any(isinstance(d, PsbtReviewDialog) for d in app.dialogs[before:])

    # End listing from the ticked item (no list to pick its listing from): once moved, the
    # signature is dead and the mark is the service's "Unknown" again.
    assert tab.end_button.isEnabled(), tab.end_hint.text()
    before = len(app.dialogs)
    click(qtbot, tab.end_button)
    dialog = wait_new_dialog(qtbot, app, PsbtReviewDialog, before)
    assert f"listing at {FIRST:,} sats" in dialog.notes_label.text()
    assert dialog.sign_button is not None
    with qtbot.waitSignal(tab.refreshed, timeout=60_000):
        click(qtbot, dialog.sign_button)
        qtbot.waitUntil(lambda: not tab.flow.busy, timeout=60_000)
    assert tab.status.text().startswith("Sent "), tab.status.text()
    assert mark(tab, item) == strings.LISTINGS_LISTED_UNKNOWN
    tab.items_model.check_all(False)
    assert not tab.end_button.isEnabled()
    assert tab.end_hint.text() == strings.END_LISTING_PICK
    gui_thread.assert_not_blocked()


def test_without_a_list_of_listings_wallet_contents_mark_the_listed_item(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    proxy: FaultProxy,
) -> None:
    """The public service has no list of a seller's listings, but its wallet contents say
    which items are listed: the Listed column and Your listings show it (no listing id)."""
    proxy.add_fault(Fault.reply("GET", "/v1/listings", 404, {"error": "Not Found"}, times=None))
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop, proxy.url)
    tab = listings_tab(qtbot, funded.app)
    item = funded.assets.inscription_ids[0]
    assert tab.mine_hint.text() == strings.LISTINGS_MINE_NONE  # known: none listed yet
    list_at(qtbot, funded.app, tab, item, FIRST)
    before = len(funded.app.dialogs)
    click(qtbot, tab.sign_button)
    sign_in_review(qtbot, funded.app, tab, before)
    assert mark(tab, item) == f"Listed · {FIRST:,} sats"
    assert [tab.mine_model.cell(0, c).text for c in (1, 2, 3)] == [
        f"{FIRST:,} sats",
        strings.LISTINGS_STATES["active"],
        "—",
    ]
    tab.mine_view.selectRow(0)
    listing = tab.selected_listing()
    assert listing is not None and listing.item == item


def test_a_watch_only_profile_is_told_where_to_end_a_listing(
    qtbot: QtBot,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
) -> None:
    from tests.ui.test_flow_signed_elsewhere import open_collector

    collector = open_collector(qtbot, open_app, make_options, sandbox)
    tab = listings_tab(qtbot, collector.app)
    assert tab.end_hint.text() == strings.END_LISTING_WATCH_ONLY
    assert not tab.end_button.isEnabled()
