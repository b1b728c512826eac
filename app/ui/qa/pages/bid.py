"""The Bid tab: its form filled as a user fills it, and Place pressed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.ui.qa.actions import click, set_spin, type_into, wait_new_dialog
from app.ui.qa.harness import AppHarness

if TYPE_CHECKING:
    from app.ui.tabs.bid_tab import BidTab

BALANCE_TIMEOUT_MS = 20_000


def bid_tab_ready(qtbot: QtBot, app: AppHarness, slug: str | None = None) -> BidTab:
    """The Bid tab shown, with the balance loaded and (when `slug`) the collections offered."""
    from app.ui.tabs.bid_tab import BidTab

    app.window.show_tab("bid")
    tab = app.window.tab("bid")
    assert isinstance(tab, BidTab)
    qtbot.waitUntil(lambda: tab.state.view is not None and tab.state.view.balance.total > 0,
                    timeout=BALANCE_TIMEOUT_MS)  # fmt: skip
    if slug is not None:
        qtbot.waitUntil(
            lambda: slug in tab.form.slug_names.stringList(), timeout=BALANCE_TIMEOUT_MS
        )
    return tab


def fill_collection_bid(qtbot: QtBot, tab: BidTab, slug: str, price: str, quantity: int) -> None:
    """Type a collection bid into the Bid tab's form, as a user does: slug, price, quantity."""
    type_into(qtbot, tab.form.slug, slug)
    type_into(qtbot, tab.form.price.edit, price)
    set_spin(qtbot, tab.form.quantity, quantity)


def tick_trait(qtbot: QtBot, tab: BidTab, search: str, label: str) -> None:
    """Type `search` in the trait picker's search box, then tick the trait shown as `label`
    ("Type: value") with the space bar."""
    picker = tab.form.traits
    picker.search.clear()
    type_into(qtbot, picker.search, search)
    for row in range(picker.proxy.rowCount()):
        index = picker.proxy.index(row, 0)
        if index.data() == label:
            picker.view.setFocus()
            picker.view.setCurrentIndex(index)
            qtbot.keyClick(picker.view, Qt.Key.Key_Space)
            return
    raise AssertionError(f"no trait {label!r} among {picker.proxy.rowCount()} shown")


def place_from_bid_tab(qtbot: QtBot, app: AppHarness, tab: BidTab) -> dict[str, str]:
    """Press Place and sign at the question before signing; what it showed (pools, price,
    quantity, expiry, fee rate, and the message)."""
    from app.ui.tabs.bid_confirm import BidConfirmDialog

    before = len(app.dialogs)
    click(qtbot, tab.place_button)
    dialog = wait_new_dialog(qtbot, app, BidConfirmDialog, before, timeout=10_000)
    shown = dict(dialog.values, message=dialog.message.toPlainText())
    click(qtbot, dialog.sign_button)
    return shown
