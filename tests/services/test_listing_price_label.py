"""The price a live signature's ledger label names (security review of 31a9109): it is read
back from the label we wrote (`ListingItem.label`), so a crafted item name inside it (an
outpoint or id carrying ' for 1 sats') never changes the price read: the last 'for N sats' is
the one we wrote. The price is only shown (the Listed mark, the relist question, the end note);
what End listing moves is the item, reviewed by its own policy."""

from __future__ import annotations

import pytest

from app.services.listings import ListingItem, listing_price_of


@pytest.mark.parametrize(
    "item",
    [
        ListingItem(30_000, inscription_id="ab" * 32 + "i0"),
        ListingItem(30_000, runes_output="cd" * 32 + ":1"),
        ListingItem(30_000, runes_output="x for 1 sats"),
        ListingItem(30_000, inscription_id="y for 999,999,999 sats"),
    ],
)
def test_the_price_read_back_is_the_price_listed(item: ListingItem) -> None:
    assert listing_price_of(item.label) == 30_000


@pytest.mark.parametrize(
    "label", ["", "Bid 30,000 sats on inscription abi0", "List runes for sats", "List"]
)
def test_another_label_names_no_price(label: str) -> None:
    assert listing_price_of(label) is None
