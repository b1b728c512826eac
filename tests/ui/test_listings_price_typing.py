"""The Listings tab: a price being typed in an item's cell survives a refresh. A refresh (a
live sale, lock/unlock, the reading after an action) resets the held items' model, and the
reset closed the open editor without saving it: what the user was typing was lost. The editor
opens again on the same item (found by its key, not its row) with the text and cursor as they
were; nothing is committed until the user presses Enter. An item gone after the refresh takes
what was typed in its cell with it, written nowhere else.

The refresh's reading is handed to the items' model by hand (`set_items`, as the refresh
does): no service answers anything here (the profile's URLs are never contacted)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QApplication, QLineEdit
from pytestqt.qtbot import QtBot

from app.services.listings_inventory import HeldItem
from app.ui.models.listings_model import PRICE
from app.ui.qa.actions import type_into
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.profiles import open_prepared_app
from app.ui.tabs.listings_tab import ListingsTab

ONE = HeldItem("ab" * 32 + ":0", "cd" * 32 + "i0")
TWO = HeldItem("ab" * 32 + ":1", "ef" * 32 + "i0")
NEW = HeldItem("ab" * 32 + ":2", "01" * 32 + "i0")  # received meanwhile, sorts first


def listings_tab(
    qtbot: QtBot, make_options: OptionsFactory, open_app: Callable[..., AppHarness]
) -> ListingsTab:
    app = open_prepared_app(qtbot, open_app, make_options())
    app.window.show_tab("listings")
    tab = app.window.tab("listings")
    assert isinstance(tab, ListingsTab)
    tab.items_model.set_items([ONE, TWO])
    return tab


def start_typing(qtbot: QtBot, tab: ListingsTab, item: HeldItem, text: str) -> QLineEdit:
    """F2 on `item`'s Price cell and `text` typed, Enter not pressed: the open editor."""
    view, model = tab.items_view, tab.items_model
    index = model.index(tab.row_of(item.key), PRICE)
    view.setFocus()
    view.setCurrentIndex(index)
    qtbot.keyClick(view, Qt.Key.Key_F2)
    editor = view.indexWidget(index)
    assert isinstance(editor, QLineEdit)
    type_into(qtbot, editor, text)
    return editor


def open_editors(tab: ListingsTab) -> dict[str, str]:
    """The Price cells being edited: the text typed in each, by item key."""
    model, view = tab.items_model, tab.items_view
    editors = {i.key: view.indexWidget(model.index(r, PRICE)) for r, i in enumerate(model.items)}
    return {key: e.text() for key, e in editors.items() if isinstance(e, QLineEdit)}


def test_a_refresh_keeps_the_price_being_typed_on_its_item(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    tab = listings_tab(qtbot, make_options, open_app)
    start_typing(qtbot, tab, TWO, "12,5")

    # The refresh's reading lands: a new item sorts first, TWO moves a row down.
    tab.items_model.set_items([NEW, ONE, TWO])
    assert open_editors(tab) == {TWO.key: "12,5"}
    assert tab.items_view.state() == QAbstractItemView.State.EditingState
    assert tab.items_model.prices == [None, None, None]  # nothing committed before Enter

    # The user goes on typing where the cursor was, and presses Enter.
    editor = tab.items_view.indexWidget(tab.items_model.index(tab.row_of(TWO.key), PRICE))
    assert isinstance(editor, QLineEdit)
    assert tab.window().focusWidget() is editor  # the next key goes on into the price
    qtbot.keyClicks(editor, "00")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    QApplication.processEvents()  # the delegate commits and closes on a queued call
    assert open_editors(tab) == {}
    assert tab.items_model.selected() == [(TWO, 12_500)]
    assert tab.items_model.prices == [None, None, 12_500]


def test_an_item_gone_after_the_refresh_takes_its_typed_price_with_it(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    tab = listings_tab(qtbot, make_options, open_app)
    start_typing(qtbot, tab, ONE, "30000")

    tab.items_model.set_items([TWO])  # ONE sold meanwhile: TWO now in its row
    assert open_editors(tab) == {}
    assert tab.items_view.state() != QAbstractItemView.State.EditingState
    assert tab.items_model.prices == [None] and tab.items_model.selected() == []

    tab.items_model.set_items([ONE, TWO])  # back later: what was typed is not brought back
    assert open_editors(tab) == {}
    assert tab.items_model.prices == [None, None] and tab.items_model.selected() == []
