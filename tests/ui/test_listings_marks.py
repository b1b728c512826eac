"""How a held item is marked from the service's list of our listings: listed at its price
(an inscription by id, runes by their outpoint), not listed (no active listing: replaced,
sold or moved ones do not count), or unknown when there is no list (and why, when known); and
from our ledger of live signatures, by the item's output, whatever the service says: signed at a
price when the service says not listed or gives no list (saying they disagree), signed at
another price too when the service lists it at one."""

from __future__ import annotations

from app.net.marketplace_states import SellerListing
from app.services.listings_inventory import HeldItem, SignedOutput
from app.ui import strings
from app.ui.tabs.listings_items import ListingMark, marks_for

INSCRIPTION = "ab" * 32 + "i0"
RUNES_AT = "cd" * 32 + ":1"
INSCRIPTION_AT = "ef" * 32 + ":0"
HELD = [HeldItem(INSCRIPTION_AT, INSCRIPTION), HeldItem(RUNES_AT, runes="1,000 X•Y")]


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


def signed_at(outpoint: str, *prices: int | None) -> dict[str, SignedOutput]:
    return {outpoint: SignedOutput(outpoint, prices)}


def test_a_live_signature_marks_an_item_the_service_gives_no_list_for() -> None:
    marks = marks_for(HELD, None, "", signed_at(INSCRIPTION_AT, 30_000))
    assert marks[INSCRIPTION].text == "Signed at 30,000 sats"
    assert "anyone holding this signature can buy it at that price" in marks[INSCRIPTION].tip
    assert "End listing moves it" in marks[INSCRIPTION].tip
    assert marks[INSCRIPTION].asks_before_relisting
    assert marks[INSCRIPTION].relist_price == 30_000
    assert marks[RUNES_AT].text == strings.LISTINGS_LISTED_UNKNOWN  # no signature on its output
    assert not marks[RUNES_AT].asks_before_relisting


def test_service_and_ledger_disagreeing_is_said() -> None:
    not_listed = marks_for(HELD, [], "", signed_at(RUNES_AT, 45_000))[RUNES_AT]
    assert not_listed.text == "Signed at 45,000 sats · service: not listed"
    assert strings.LISTINGS_SIGNED_DISAGREE_TIP in not_listed.tip
    relisted = [listing(4, "active", inscription=INSCRIPTION)]  # 40,000 sats
    both = marks_for(HELD, relisted, "", signed_at(INSCRIPTION_AT, 25_000, 40_000))[INSCRIPTION]
    assert both.text == "Listed · 40,000 sats · also signed at 25,000 sats"
    assert "25,000 sats, 40,000 sats" in both.tip
    same = marks_for(HELD, relisted, "", signed_at(INSCRIPTION_AT, 40_000))[INSCRIPTION]
    assert same.text == "Listed · 40,000 sats" and strings.LISTINGS_SIGNED_TIP[:20] in same.tip
    unsigned = marks_for(HELD, relisted, "", {})[INSCRIPTION]
    assert unsigned.tip.endswith(strings.LISTINGS_LISTED_UNSIGNED_TIP)


def test_a_signature_without_a_price_and_an_unreadable_ledger() -> None:
    unpriced = marks_for(HELD, None, "", signed_at(RUNES_AT, None))[RUNES_AT]
    assert unpriced.text == "Signed at an unrecorded price"
    unread = marks_for(HELD, [], "", None, "the file is not JSON")[INSCRIPTION]
    assert unread.text == strings.LISTINGS_NOT_LISTED
    assert "could not be read (the file is not JSON)" in unread.tip
    # watch-only: no ledger at all, so nothing is said about signatures
    no_ledger = marks_for(HELD, [listing(2, "active", inscription=INSCRIPTION)], "", None)
    assert no_ledger[INSCRIPTION].tip.startswith("Listed at 20,000 sats (listing L2)")
    assert strings.LISTINGS_LISTED_UNSIGNED_TIP not in no_ledger[INSCRIPTION].tip
    assert no_ledger[RUNES_AT].tip == strings.LISTINGS_NOT_LISTED_TIP
