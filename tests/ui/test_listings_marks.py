"""How a held item is marked from the service's list of our listings: listed at its price
(an inscription by id, runes by their outpoint), not listed (no active listing: replaced,
sold or moved ones do not count), or unknown when there is no list (and why, when known)."""

from __future__ import annotations

from app.net.marketplace_states import SellerListing
from app.services.listings_inventory import HeldItem
from app.ui import strings
from app.ui.tabs.listings_items import ListingMark, marks_for

INSCRIPTION = "ab" * 32 + "i0"
RUNES_AT = "cd" * 32 + ":1"
HELD = [HeldItem("ef" * 32 + ":0", INSCRIPTION), HeldItem(RUNES_AT, runes="1,000 X•Y")]


def listing(
    n: int, state: str, *, inscription: str | None = None, runes: str | None = None
) -> SellerListing:
    return SellerListing(f"L{n}", inscription, runes, 10_000 * n, state)


def test_active_listings_mark_their_items_with_the_price() -> None:
    mine = [
        listing(1, "replaced", inscription=INSCRIPTION),
        listing(2, "active", inscription=INSCRIPTION),
        listing(3, "active", runes=RUNES_AT),
    ]
    marks = marks_for(HELD, mine)
    assert marks[INSCRIPTION].text == strings.LISTINGS_LISTED_AT.format(price="20,000 sats")
    assert "listing L2" in marks[INSCRIPTION].tip
    assert marks[RUNES_AT].text == strings.LISTINGS_LISTED_AT.format(price="30,000 sats")


def test_only_ended_listings_mean_not_listed() -> None:
    mine = [listing(1, "item_moved", inscription=INSCRIPTION), listing(2, "sold", runes=RUNES_AT)]
    marks = marks_for(HELD, mine)
    assert {m.text for m in marks.values()} == {strings.LISTINGS_NOT_LISTED}


def test_no_list_is_unknown_never_not_listed() -> None:
    unoffered = marks_for(HELD, None)
    assert {m.text for m in unoffered.values()} == {strings.LISTINGS_LISTED_UNKNOWN}
    assert unoffered[INSCRIPTION].tip == strings.LISTINGS_LISTED_UNKNOWN_TIP
    unread = marks_for(HELD, None, "The service did not answer.")
    assert unread[RUNES_AT].tip.endswith("The service did not answer.")
    assert not ListingMark(False).known and ListingMark(False).listing is None
