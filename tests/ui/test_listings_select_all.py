"""The Listings tab at 1024x700: the mixed inscriptions-and-runes error has a line of its own
(the items table keeps its size), and "Select all" ticks what can be listed together, saying
what it left out and why, never an error by itself."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from pytestqt.qtbot import QtBot

from app.net.marketplace_states import SellerListing
from app.services.listings_inventory import HeldItem, SignedOutput
from app.ui import strings
from app.ui.main_window import MINIMUM_SIZE
from app.ui.qa.actions import click, settle_layouts
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.profiles import open_prepared_app
from app.ui.tabs.listings_items import ListingMark
from app.ui.tabs.listings_tab import ListingsTab

ONE = HeldItem("ab" * 32 + ":0", "cd" * 32 + "i0")
TWO = HeldItem("ab" * 32 + ":1", "ef" * 32 + "i0")
RUNES = HeldItem("ef" * 32 + ":1", runes="1,000,000 BIDWALLET•DEMO")
TAP = HeldItem("ab" * 32 + ":2", "12" * 32 + "i0", tap_transfer=True)


def listings_tab(
    qtbot: QtBot, make_options: OptionsFactory, open_app: Callable[..., AppHarness]
) -> ListingsTab:
    app = open_prepared_app(qtbot, open_app, make_options())
    app.window.resize(1024, 700)
    app.window.show_tab("listings")
    tab = app.window.tab("listings")
    assert isinstance(tab, ListingsTab)
    tab.items_model.set_items([ONE, TWO, RUNES, TAP])
    settle_layouts()
    return tab


def test_the_problem_line_moves_nothing(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    """At the window's narrowest, where a long message wraps most, every batch problem fits
    the reserved line: the table and the buttons stay where they were."""
    tab = listings_tab(qtbot, make_options, open_app)
    tab.window().resize(MINIMUM_SIZE)
    settle_layouts()
    table, buttons = tab.items_view.geometry(), tab.sign_button.geometry()
    label = tab.problem_label
    for rows, problem in (
        ([0, 2], strings.LISTINGS_MIXED),
        ([0, 3], strings.LISTINGS_TAP),
        ([0], strings.LISTINGS_NEED_PRICE),
    ):
        tab.items_model.check_all(False)
        for row in rows:
            tab.items_model.set_checked(row, True)
        settle_layouts()
        assert label.text() == problem
        assert label.heightForWidth(label.width()) <= label.height()  # none of it cut off
        assert tab.items_view.geometry() == table and tab.sign_button.geometry() == buttons
    tab.show_status(strings.counted(strings.LISTINGS_DONE, 1), "ok")  # after a listing
    settle_layouts()
    assert tab.items_view.geometry() == table and tab.sign_button.geometry() == buttons


def test_the_export_message_moves_nothing_at_1024x700(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    """After an export, Show as QR… comes next: the message (a folder, then the next steps)
    fits the two reserved lines, so the buttons do not move up under the cursor."""
    tab = listings_tab(qtbot, make_options, open_app)
    table, buttons = tab.items_view.geometry(), tab.sign_button.geometry()
    folder = "/home/me/Bidwallet/exports/2026-11-26"
    tab.show_status(strings.counted(strings.LISTINGS_EXPORTED, 2, folder=folder), "ok")
    settle_layouts()
    status = tab.status
    assert status.heightForWidth(status.width()) <= status.height()  # none of it cut off
    assert tab.items_view.geometry() == table and tab.sign_button.geometry() == buttons


def test_select_all_ticks_what_can_be_listed_together(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    tab = listings_tab(qtbot, make_options, open_app)
    click(qtbot, tab.select_all)
    assert [i for i, _ in tab.items_model.selected()] == [ONE, TWO]
    text = tab.problem_label.text()
    assert strings.LISTINGS_LEFT_OUT_RUNES in text and strings.LISTINGS_LEFT_OUT_TAP in text
    assert tab.problem_label.property("role") == "hint"  # prices come next: not an error
    tab.price_all.set_value(40_000)
    click(qtbot, tab.apply_price)
    assert (
        tab.sign_button.isEnabled() and strings.LISTINGS_NEED_PRICE not in tab.problem_label.text()
    )

    # Only runes held with a TAP transfer: the runes are ticked.
    tab.items_model.set_items([RUNES, TAP])
    click(qtbot, tab.select_none)
    click(qtbot, tab.select_all)
    assert [i for i, _ in tab.items_model.selected()] == [RUNES]
    assert tab.problem_label.property("role") == "hint"


def test_select_all_leaves_listed_items_out_and_says_so(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    """Relisting asks its own question, one item at a time: "Select all" never ticks an item
    the service lists or our live signature sells, and the hint line counts what it left."""
    tab = listings_tab(qtbot, make_options, open_app)
    listing = SellerListing("L", TWO.inscription_id, None, 30_000, "active")
    tab.items_model.set_marks({TWO.key: ListingMark(True, listing)})
    click(qtbot, tab.select_all)
    assert [i for i, _ in tab.items_model.selected()] == [ONE]
    left = strings.counted(strings.LISTINGS_LEFT_OUT_LISTED, 1)
    assert left in tab.problem_label.text()
    assert tab.problem_label.property("role") == "hint"

    # Everything listed: nothing ticked, and the line still says why.
    tab.items_model.set_items([ONE, TWO])
    tab.items_model.set_marks(
        {
            ONE.key: ListingMark(False, signed=SignedOutput(ONE.outpoint, (25_000,))),
            TWO.key: ListingMark(True, listing),
        }
    )
    click(qtbot, tab.select_all)
    assert tab.items_model.selected() == []
    assert tab.problem_label.text() == strings.counted(strings.LISTINGS_LEFT_OUT_LISTED, 2)


def test_your_listings_gaining_a_row_moves_nothing(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    """The "no listings" hint keeps its line when the first listing arrives (it went away and
    the splitter's halves moved by a few pixels under the cursor)."""
    tab = listings_tab(qtbot, make_options, open_app)
    tab._show_mine([])
    settle_layouts()
    assert tab.mine_hint.text() == strings.LISTINGS_MINE_NONE
    table, end = tab.items_view.geometry(), tab.end_button.geometry()
    mine_top = tab.mine_view.mapTo(tab, tab.mine_view.rect().topLeft())
    tab._show_mine([SellerListing("L", TWO.inscription_id, None, 30_000, "active")])
    settle_layouts()
    assert tab.mine_hint.text() == ""
    assert tab.items_view.geometry() == table and tab.end_button.geometry() == end
    assert tab.mine_view.mapTo(tab, tab.mine_view.rect().topLeft()) == mine_top
