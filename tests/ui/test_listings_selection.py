"""The Listings tab's held-items table: a price shows only on a ticked row (a listed item's
price is in the Listed column), typing one ticks the row, and unticking hides it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.services.listings_inventory import HeldItem
from app.ui.models.listings_model import CHECK, PRICE, HeldItemsModel

ONE = HeldItem("ab" * 32 + ":0", "cd" * 32 + "i0")
TWO = HeldItem("ab" * 32 + ":1", "ef" * 32 + "i0")
RUNES = HeldItem("ef" * 32 + ":1", runes="1,000 X•Y")


def shown_price(model: HeldItemsModel, row: int) -> str:
    return str(model.data(model.index(row, PRICE), Qt.ItemDataRole.DisplayRole))


def test_a_price_shows_only_on_a_ticked_row(qtbot: QtBot) -> None:
    model = HeldItemsModel()
    model.set_items([ONE, TWO])
    model.check_all(True)
    model.price_selected(40_000)
    assert [shown_price(model, r) for r in (0, 1)] == ["40,000", "40,000"]

    model.set_checked(1, False)
    assert shown_price(model, 1) == ""  # no old price left on an unticked row
    assert model.selected() == [(ONE, 40_000)]
    model.set_checked(1, True)  # the price typed before comes back with the tick
    assert shown_price(model, 1) == "40,000"


def test_typing_a_price_ticks_the_row(qtbot: QtBot) -> None:
    model = HeldItemsModel()
    model.set_items([ONE, TWO])
    assert model.setData(model.index(0, PRICE), "25,000")
    assert model.data(model.index(0, CHECK), Qt.ItemDataRole.CheckStateRole) == (
        Qt.CheckState.Checked
    )
    assert shown_price(model, 0) == "25,000" and model.selected() == [(ONE, 25_000)]
