"""Every field of the Bid tab says what is wrong with it as the user types, in plain words,
and Place stays disabled until nothing is: collection, price (text, floor, step, BTC unit),
quantity (floor and the 1,000-bid cap), expiry (a date too soon), traits (the 50 cap), rune
price floor, ranges without traits, and a pool the balance does not cover. A field that starts
empty says so only once edited, or once Place is tried; each message line keeps its height, so
the fields below do not move while the user types."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from PySide6.QtCore import QDateTime, Qt
from pytestqt.qtbot import QtBot

from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.qa.actions import click, set_spin, type_into, widget_top
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.pages.bid import bid_tab_ready, tick_trait
from app.ui.qa.profiles import open_funded_app
from app.ui.qa.sandbox import fund_bidding_wallet, new_collection
from app.ui.tabs.bid_tab import BidTab

BALANCE = 100_000
VALUES = [f"t{n:02d}" for n in range(52)]


def _error(tab: BidTab, field: str) -> str:
    label = tab.form.messages[field]
    return label.text() if label.isVisibleTo(tab) else ""


def _retype(qtbot: QtBot, edit: object, text: str) -> None:
    from PySide6.QtWidgets import QLineEdit

    assert isinstance(edit, QLineEdit)
    edit.clear()
    type_into(qtbot, edit, text)


def test_every_field_says_what_is_wrong(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app = funded.app
    slug = new_collection(funded.root_url, {"tier": VALUES})
    fund_bidding_wallet(app, qloop, BALANCE)
    gui_thread.start()
    tab = bid_tab_ready(qtbot, app, slug)
    form = tab.form

    # Nothing entered: nothing is red yet, Place is off, the balance is known.
    assert _error(tab, "slug") == "" and _error(tab, "price") == ""
    assert not tab.place_button.isEnabled()
    assert tab.balance_hint.text() == ""
    # Place tried (Ctrl+Return): the collection and the price are asked for.
    app.window.activateWindow()
    qtbot.waitUntil(app.window.isActiveWindow)
    form.slug.setFocus()
    qtbot.keyClick(form.slug, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert _error(tab, "slug") == strings.BID_NEED_SLUG
    assert _error(tab, "price") == strings.BID_NEED_PRICE
    assert not tab.place_button.isEnabled()

    # Collection: a colon would make the signed message ambiguous. Nothing below the field
    # moves as its message comes and goes.
    price_at = widget_top(form.price)
    type_into(qtbot, form.slug, "bad:slug")
    assert _error(tab, "slug") == "A collection slug never contains “:”: check it."
    _retype(qtbot, form.slug, slug)
    assert _error(tab, "slug") == ""
    assert widget_top(form.price) == price_at

    # Price: not a number, under the floor, off the 1,000-sat step; BTC works too.
    type_into(qtbot, form.price.edit, "abc")
    assert _error(tab, "price") == "Enter an amount in sats, like 20,000."
    _retype(qtbot, form.price.edit, "500")
    assert _error(tab, "price") == "Offer at least 1,000 sats per item."
    assert tab.count_label.text() == "" and tab.pools.rowCount() == 0  # no "Fits: yes"
    assert tab.message.toPlainText() == strings.BID_PREVIEW_INCOMPLETE
    _retype(qtbot, form.price.edit, "1,500")
    assert _error(tab, "price") == "Steps of 1,000 sats: use 1,000 or 2,000 sats."
    assert tab.count_label.text() == "" and tab.pools.rowCount() == 0
    form.price.unit.setCurrentIndex(1)  # BTC: the amount is kept, shown in BTC
    assert form.price.edit.text() == "0.000015"
    _retype(qtbot, form.price.edit, "0.000000001")
    assert _error(tab, "price") == strings.AMOUNT_TOO_PRECISE
    _retype(qtbot, form.price.edit, "0.00002")
    assert form.price.value() == 2_000 and _error(tab, "price") == ""
    assert tab.last_preview.placeable

    # Quantity: at least 1.
    set_spin(qtbot, form.quantity, 0)
    assert _error(tab, "quantity") == strings.BID_RULE_QUANTITY_MIN
    assert tab.count_label.text() == "" and tab.pools.rowCount() == 0
    assert not tab.place_button.isEnabled()
    set_spin(qtbot, form.quantity, 1)

    # Expiry: a date and time less than 15 minutes ahead.
    form.expiry_preset.setCurrentIndex(form.expiry_preset.count() - 1)  # "At a date and time"
    assert form.expiry_at.isVisibleTo(tab)
    form.expiry_at.setDateTime(QDateTime.currentDateTime().addSecs(5 * 60))
    assert _error(tab, "expiry") == strings.BID_EXPIRY_PAST
    assert not tab.place_button.isEnabled()
    form.expiry_at.setDateTime(QDateTime.currentDateTime().addSecs(2 * 3600))
    assert _error(tab, "expiry") == ""

    # Traits: 50 at most; the 51st is refused where it is ticked.
    for value in VALUES[:50]:
        tick_trait(qtbot, tab, value, f"tier: {value}")
    assert len(form.traits.selected()) == 50
    tick_trait(qtbot, tab, VALUES[50], f"tier: {VALUES[50]}")
    assert len(form.traits.selected()) == 50
    assert form.traits.count_label.text() == strings.BID_TRAITS_LIMIT.format(limit=50)
    # 50 traits x 21 items = 1,050 bids: over the 1,000-bid cap, said at the quantity.
    set_spin(qtbot, form.quantity, 21)
    assert _error(tab, "quantity").startswith("That makes 1,050 bids")
    set_spin(qtbot, form.quantity, 1)
    # Each trait is its own pool: 50 pools, each fits the balance on its own.
    assert tab.pools.rowCount() == 50 and tab.last_preview.placeable
    click(qtbot, form.traits.clear_button)
    assert form.traits.selected() == []

    # A pool the balance does not cover.
    form.price.unit.setCurrentIndex(0)
    _retype(qtbot, form.price.edit, "150,000")
    assert tab.pools.rowCount() == 1
    assert tab.pools.item(0, 4).text().startswith("no: ")
    assert not tab.place_button.isEnabled()

    # Ranges take no traits (the picker is off) and no collection name.
    form.scope.setCurrentIndex(1)  # sub1k
    assert form.traits.count_label.text() == strings.BID_TRAITS_NOT_RANGES
    assert not form.slug.isEnabled() and not form.traits.isEnabled()
    _retype(qtbot, form.price.edit, "3,000")
    assert tab.last_preview.placeable and tab.pools.item(0, 0).text() == "sub1k"
    form.scope.setCurrentIndex(0)

    # Rune bids: the switch empties what changes meaning (a price per item is no total, a
    # quantity of items no number of units); the total is at least 10,000 sats.
    click(qtbot, form.runes_radio)
    assert form.slug.text() == "" and form.price.value() is None and form.quantity.value() == 1
    assert form.traits.count_label.text() == strings.BID_TRAITS_NOT_RUNES
    assert _error(tab, "price") == ""  # emptied, not edited yet
    type_into(qtbot, form.price.edit, "5,000")
    assert _error(tab, "price") == "Offer at least 10,000 sats for all the units together."
    assert not tab.place_button.isEnabled()
    gui_thread.assert_not_blocked()
