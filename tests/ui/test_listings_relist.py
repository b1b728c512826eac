"""The question before relisting: one item names it and its price; several are listed line by
line with a counted head; Enter keeps the listings (Cancel is the default button). An item the
service does not list but that carries a live signature of ours is named with that signature's
price."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.net.marketplace_states import SellerListing
from app.services.listings_inventory import HeldItem, SignedOutput
from app.ui import strings
from app.ui.tabs.listings_items import ListingMark
from app.ui.tabs.listings_relist import RelistDialog

ONE = HeldItem("ab" * 32 + ":0", "cd" * 32 + "i0")
RUNES = HeldItem("ef" * 32 + ":1", runes="1,000 X•Y")


def listed(item: HeldItem, price: int) -> tuple[HeldItem, ListingMark]:
    listing = SellerListing(
        "L", item.inscription_id, None if item.inscription_id else item.outpoint, price, "active"
    )
    return item, ListingMark(True, listing)


def signed(item: HeldItem, *prices: int, known: bool = False) -> tuple[HeldItem, ListingMark]:
    """Not listed by the service (or no list: `known` False), signed by us at `prices`."""
    return item, ListingMark(known, signed=SignedOutput(item.outpoint, tuple(sorted(prices))))


def test_one_listed_item_is_named_with_its_price(qtbot: QtBot) -> None:
    dialog = RelistDialog([listed(ONE, 30_000)])
    qtbot.addWidget(dialog)
    assert dialog.head.text().startswith("Inscription cdcdcdcdcd…")
    assert dialog.head.text().endswith("is listed at 30,000 sats.")
    assert dialog.list.isHidden()
    assert dialog.yes_button.text() == strings.counted(strings.RELIST_YES, 1)
    assert dialog.no_button.isDefault() and not dialog.yes_button.isDefault()


def test_several_are_listed_line_by_line(qtbot: QtBot) -> None:
    dialog = RelistDialog([listed(ONE, 30_000), listed(RUNES, 45_000)])
    qtbot.addWidget(dialog)
    assert dialog.head.text() == strings.counted(strings.RELIST_MANY, 2)
    lines = [dialog.list.item(i).text() for i in range(dialog.list.count())]
    assert lines[1] == "runes 1,000 X•Y — listed at 45,000 sats"
    assert dialog.yes_button.text() == "&List them again"


def test_an_item_signed_but_not_listed_is_named_with_the_signature_price(qtbot: QtBot) -> None:
    dialog = RelistDialog([signed(ONE, 25_000, 30_000)])
    qtbot.addWidget(dialog)
    assert dialog.head.text().endswith("carries your listing signature at 25,000 sats.")
    assert dialog.explain.text() == strings.RELIST_EXPLAIN_SIGNED
    many = RelistDialog([listed(ONE, 30_000), signed(RUNES, 45_000, known=True)])
    qtbot.addWidget(many)
    lines = [many.list.item(i).text() for i in range(many.list.count())]
    assert lines == [
        "inscription cdcdcdcdcd…cdcdcdcdi0 — listed at 30,000 sats",
        "runes 1,000 X•Y — signed at 45,000 sats",
    ]
    assert many.explain.text() == strings.RELIST_EXPLAIN  # one of them the service replaces
