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
from collections.abc import Callable

import httpx
from pytestqt.qtbot import QtBot

from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog
from app.ui.qa.app import App
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.profiles import open_funded_app
from app.ui.qa.sandbox_faults import SandboxFaults
from tests.ui.mnemonics import shared_mnemonics

FIRST, SECOND = 30_000, 40_000
NOT_FOUND = {"error": "Not Found"}  # what a service without the endpoint answers


def test_marks_relist_question_and_end_listing(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app = App(funded.app, qtbot, qloop, funded.root_url, funded.assets)
    item, other = funded.assets.inscription_ids[:2]
    gui_thread.start()
    page = app.listings.open()
    tab = page.widget
    assert page.mark(item) == page.mark(other) == strings.LISTINGS_NOT_LISTED
    assert not tab.end_button.isEnabled()

    # List it: its row says so, with the price.
    page.list_items([item], FIRST)
    listed_at = strings.LISTINGS_LISTED_AT.format(price=f"{FIRST:,} sats")
    assert page.mark(item) == listed_at
    assert page.mark(other) == strings.LISTINGS_NOT_LISTED

    # Again at another price: asked first; Cancel sends nothing.
    before = len(funded.app.dialogs)
    question = page.start_relisting([item], SECOND)
    assert f"is listed at {FIRST:,} sats" in question.head
    assert "replaces the current one" in question.explain
    assert "stays valid until the item moves" in question.explain
    assert question.keep() == strings.RELIST_CANCELLED
    assert not any(isinstance(d, PsbtReviewDialog) for d in funded.app.dialogs[before:])
    assert page.mark(item) == listed_at

    # "List it again": the new listing replaces the old one.
    question = page.start_relisting([item], SECOND)
    page.approve(question.list_again())
    # ... but the first signature stays valid until the item moves: the row says so.
    listed_second = strings.LISTINGS_LISTED_AT.format(price=f"{SECOND:,} sats")
    assert page.mark(item) == f"{listed_second} · also signed at {FIRST:,} sats"
    states = sorted((m.price, m.state) for m in tab.mine or [])
    assert states == [(FIRST, "replaced"), (SECOND, "active")]

    # End listing: the active one chosen, reviewed, signed, sent; the listing is gone.
    page.choose_listing(item, "active")
    page.refresh()  # the chosen listing stays chosen
    chosen = tab.selected_listing()
    assert chosen is not None and (chosen.price, chosen.state) == (SECOND, "active")
    assert tab.end_button.isEnabled(), page.end_hint
    # Listed items are unticked after listing: tick it again (a price typed ticks the row)
    # so that every button is enabled for the mnemonics check.
    assert not page.ticked()
    page.price_item(item, SECOND)
    assert page.ticked() == [item]
    assert tab.export_button.isEnabled() and shared_mnemonics(funded.app.window) == {}
    review = page.start_end_listing()
    sign = review.dialog.sign_button
    assert sign is not None and sign.isEnabled()
    assert any("moves back to your ordinals address" in note for note in review.notes)
    assert any(f"listing at {SECOND:,} sats" in note for note in review.notes)
    said = page.approve(review)
    assert said.startswith("Sent ")
    txid = said.split()[1].rstrip(":")
    assert page.mark(item) == strings.LISTINGS_NOT_LISTED
    assert sorted(m.state for m in tab.mine or []) == ["item_moved", "replaced"]
    ended = tab.selected_listing()  # still the one chosen, though the list was re-read
    assert ended is not None and (ended.price, ended.state) == (SECOND, "item_moved")
    assert not tab.end_button.isEnabled()
    gui_thread.assert_not_blocked()
    with gui_thread.paused(), httpx.Client(base_url=funded.root_url, timeout=60) as http:
        assert http.post("/sandbox/mine", json={"blocks": 1}).is_success
        status = http.get(f"/esplora/tx/{txid}/status").json()
    assert status["confirmed"] is True
    page.refresh()  # ord indexes blocks: re-read
    moved = next(i for i in tab.held or [] if i.key == item)
    assert moved.outpoint == f"{txid}:0"  # still ours, on the new output ord indexed


def test_without_a_list_of_listings_items_are_unknown_until_signed_by_us(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    bidwallet_faults: SandboxFaults,
    gui_thread: GuiThreadWatch,
) -> None:
    bidwallet_faults.reply("GET", "/v1/listings", 404, NOT_FOUND, times=None)
    # Nor wallet contents (which name listed items where /listings is missing).
    bidwallet_faults.reply("GET", "/v1/address/wallet-contents", 404, NOT_FOUND, times=None)
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app = App(funded.app, qtbot, qloop, funded.root_url, funded.assets)
    page = app.listings.open()
    tab = page.widget
    item = funded.assets.inscription_ids[0]
    assert page.mark(item) == strings.LISTINGS_LISTED_UNKNOWN
    assert page.mark_tip(item) == strings.LISTINGS_LISTED_UNKNOWN_TIP
    assert tab.mine_hint.text() == strings.LISTINGS_MINE_UNAVAILABLE
    assert not tab.end_button.isEnabled()

    # Listed through the tab: the service still gives no list, but our own record of the
    # signature marks the item, and listing it again asks first.
    gui_thread.start()
    page.list_items([item], FIRST)
    assert page.mark(item) == f"Signed at {FIRST:,} sats"
    tip = page.mark_tip(item)
    assert strings.LISTINGS_LISTED_UNKNOWN_TIP in tip
    assert "anyone holding this signature can buy it at that price until the item moves" in tip
    before = len(funded.app.dialogs)
    question = page.start_relisting([item], SECOND)
    assert question.head.endswith(f"carries your listing signature at {FIRST:,} sats.")
    assert question.explain == strings.RELIST_EXPLAIN_SIGNED
    assert question.keep() == strings.RELIST_CANCELLED
    assert not any(isinstance(d, PsbtReviewDialog) for d in funded.app.dialogs[before:])

    # End listing from the ticked item (no list to pick its listing from): once moved, the
    # signature is dead and the mark is the service's "Unknown" again.
    assert tab.end_button.isEnabled(), page.end_hint
    review = page.start_end_listing()
    assert any(f"listing at {FIRST:,} sats" in note for note in review.notes)
    assert review.can_approve
    said = page.approve(review)
    assert said.startswith("Sent "), said
    assert page.mark(item) == strings.LISTINGS_LISTED_UNKNOWN
    page.select([])
    assert not tab.end_button.isEnabled()
    assert tab.end_hint.text() == strings.END_LISTING_PICK
    gui_thread.assert_not_blocked()


def test_without_a_list_of_listings_wallet_contents_mark_the_listed_item(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    bidwallet_faults: SandboxFaults,
) -> None:
    """The public service has no list of a seller's listings, but its wallet contents say
    which items are listed: the Listed column and Your listings show it (no listing id)."""
    bidwallet_faults.reply("GET", "/v1/listings", 404, NOT_FOUND, times=None)
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    page = App(funded.app, qtbot, qloop, funded.root_url, funded.assets).listings.open()
    tab = page.widget
    item = funded.assets.inscription_ids[0]
    assert tab.mine_hint.text() == strings.LISTINGS_MINE_NONE  # known: none listed yet
    page.list_items([item], FIRST)
    assert page.mark(item) == f"Listed · {FIRST:,} sats"
    (row,) = page.your_listings()
    assert row[1:] == (f"{FIRST:,} sats", strings.LISTINGS_STATES["active"], "—")
    page.choose_listing(item)
    listing = tab.selected_listing()
    assert listing is not None and listing.item == item


def test_a_watch_only_profile_is_told_where_to_end_a_listing(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
) -> None:
    from tests.ui.test_flow_signed_elsewhere import open_collector

    collector = open_collector(qtbot, open_app, make_options, sandbox)
    tab = App(collector.app, qtbot, qloop).listings.open().widget
    assert tab.end_hint.text() == strings.END_LISTING_WATCH_ONLY
    assert not tab.end_button.isEnabled()
