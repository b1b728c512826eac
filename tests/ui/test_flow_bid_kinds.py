"""Each kind of bid keeps its own form state, and rune names are suggested from the service.

- A trait bid's collection, price, quantity and ticked traits come back after a look at the
  Runes form, and the rune's name, total and units come back after a look at Ordinals: nothing
  crosses (a 500-unit rune bid once came back as a quantity of 500 items).
- The rune field suggests the names ord lists (the sandbox's `/ord/runes`), matched whatever
  the spacers: typing the letters alone suggests the etched spelling, and picking it looks it
  up as typed names are, so the bid can be placed under it.
- Nothing is red before it is touched, and each state message is true: unlocked with a known
  balance, the preview never says to unlock or that the balance is unknown."""

from __future__ import annotations

import secrets
import string
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QListView

from app.services.sandbox_demo import DEMO_RUNE
from app.ui import strings
from app.ui.qa.actions import paste_into, set_spin, type_into, widget_top
from app.ui.qa.app import App
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.sandbox import fund_bidding_wallet, sandbox_post

if TYPE_CHECKING:
    from app.ui.qa.sandbox_faults import SandboxFaults


def test_each_kind_keeps_its_own_values(bidwallet_app: App, gui_thread: GuiThreadWatch) -> None:
    app, qtbot = bidwallet_app, bidwallet_app.qtbot
    assert app.assets is not None
    slug = app.assets.collection_slug
    fund_bidding_wallet(app.harness, app.loop, 300_000)
    gui_thread.start()
    bid = app.bid.ready(slug)
    tab = bid.tab
    form = tab.form

    # Untouched: nothing red, and every state line true for an unlocked wallet with a balance.
    assert all(bid.field_error(field) == "" for field in form.messages)
    assert tab.balance_hint.text() == ""
    assert tab.message.toPlainText() == strings.BID_PREVIEW_INCOMPLETE

    # An ordinals trait bid, filled in.
    type_into(qtbot, form.slug, slug)
    qtbot.keyClick(form.slug, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: form.traits.available() > 0, timeout=20_000)
    type_into(qtbot, form.price.edit, "12,000")
    set_spin(qtbot, form.quantity, 3)
    bid.tick_trait("Hat: Crown", "Crown")
    assert form.traits.selected() == [("Hat", "Crown")]
    assert tab.last_preview.placeable, tab.last_preview.errors

    # Runes: its own, empty form; nothing of the trait bid is carried over, nothing is red.
    bid.choose_runes()
    assert (form.slug.text(), form.price.edit.text(), form.quantity.value()) == ("", "", 1)
    assert form.scope.currentText() == strings.BID_SCOPE_RUNE and not form.scope.isEnabled()
    assert all(bid.field_error(field) == "" for field in form.messages)
    paste_into(qtbot, form.slug, DEMO_RUNE)
    qtbot.keyClick(form.slug, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: form.rune_is_etched(), timeout=20_000)
    type_into(qtbot, form.price.edit, "50,000")
    set_spin(qtbot, form.quantity, 500)
    assert tab.last_preview.placeable, tab.last_preview.errors

    # Back to Ordinals: the trait bid as it was, not 500 items of anything.
    bid.choose_ordinals()
    assert (form.slug.text(), form.price.value(), form.quantity.value()) == (slug, 12_000, 3)
    assert form.scope.currentData() == "collection" and form.scope.isEnabled()
    scope_list = form.scope.view()
    assert isinstance(scope_list, QListView) and scope_list.isRowHidden(form.rune_scope)
    assert form.traits.selected() == [("Hat", "Crown")]
    assert tab.last_preview.placeable, tab.last_preview.errors
    assert bid.count_text == "This request places 3 bids for 36,000 sats in all."

    # And Runes again: its name, total and units.
    bid.choose_runes()
    assert (form.slug.text(), form.price.value(), form.quantity.value()) == (
        DEMO_RUNE,
        50_000,
        500,
    )
    assert form.rune_is_etched() and tab.last_preview.placeable
    message = bid.message
    assert ":50000:500:" in message and f":{DEMO_RUNE}:" in message
    gui_thread.assert_not_blocked()


def test_rune_names_are_suggested_whatever_the_spacers(
    bidwallet_app: App, gui_thread: GuiThreadWatch
) -> None:
    app, qtbot, keys, root = (
        bidwallet_app,
        bidwallet_app.qtbot,
        bidwallet_app.keys,
        bidwallet_app.root_url,
    )
    assert keys is not None and root is not None
    stem = "".join(secrets.choice(string.ascii_uppercase) for _ in range(7))
    etched = f"UNCOMMON•{stem}•GOODS"
    sandbox_post(
        root, "/sandbox/runes", {"address": keys.ordinals.address, "rune": etched, "amount": 1_000}
    )
    sandbox_post(root, "/sandbox/mine", {"blocks": 1})
    fund_bidding_wallet(app.harness, app.loop, 200_000)
    gui_thread.start()
    bid = app.bid.ready()
    tab = bid.tab
    form = tab.form
    bid.choose_runes()
    tab.load_catalog()  # as coming to the tab does: the service's names are read
    qtbot.waitUntil(lambda: etched in form.rune_completion.names, timeout=20_000)

    # The letters alone, in any case: the etched spelling is offered.
    type_into(qtbot, form.slug, f"uncommon{stem.lower()}goods")
    assert form.rune_completion.suggestions() == [etched]
    popup = form.rune_completion.completer.popup()
    assert popup is not None
    qtbot.waitUntil(popup.isVisible)
    # Picked from the list (Down, Enter): the field holds it and ord confirms it.
    qtbot.keyClick(popup, Qt.Key.Key_Down)
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    assert form.slug.text() == etched
    qtbot.waitUntil(form.rune_is_etched, timeout=20_000)
    type_into(qtbot, form.price.edit, "20,000")
    assert tab.last_preview.placeable, tab.last_preview.errors
    assert tab.pools.item(0, 0).text() == etched

    # A part of the name, spaced another way, finds it too; a name ord lists none of, nothing.
    form.slug.clear()
    type_into(qtbot, form.slug, f"{stem[:3]}.{stem[3:]}")
    assert form.rune_completion.suggestions() == [etched]
    form.slug.clear()
    type_into(qtbot, form.slug, "QQQQQQQQQQQQQQQQ")
    assert form.rune_completion.suggestions() == []

    # A name ord's rules refuse is said under the field, in its reserved lines: the price
    # field below does not move.
    price_at = widget_top(form.price)
    form.slug.clear()
    type_into(qtbot, form.slug, "AB.")
    qtbot.keyClick(form.slug, Qt.Key.Key_Return)
    qtbot.waitUntil(
        lambda: form.slug_hint.text().startswith("“AB.” is not a rune name"), timeout=20_000
    )
    assert widget_top(form.price) == price_at
    gui_thread.assert_not_blocked()


def test_the_balance_line_says_why_pools_are_not_checked(
    bidwallet_app_factory: Callable[..., App],
    bidwallet_faults: SandboxFaults,
    gui_thread: GuiThreadWatch,
) -> None:
    fault = bidwallet_faults.reply(
        "GET", "/v1/address/bids", 500, {"message": "index rebuilding"}, times=None
    )
    app = bidwallet_app_factory()
    qtbot = app.qtbot
    gui_thread.start()
    tab = app.bid.tab
    # The open bids cannot be read: not "not known yet", but why.
    hint = tab.balance_hint
    qtbot.waitUntil(lambda: hint.text().startswith("No pools checked:"), timeout=30_000)
    assert "index rebuilding" in tab.balance_hint.text()
    bidwallet_faults.remove(fault.id)
    tab.state.request_refresh()
    qtbot.waitUntil(lambda: tab.state.view is not None, timeout=30_000)
    assert tab.balance_hint.text() == ""
    gui_thread.assert_not_blocked()
