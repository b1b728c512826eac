"""How the Listings tab words what it lists and checks: the kind of a held item, whether a
batch can go in one request (explained before anything is sent), and whether each held item is
listed (its mark: listed at a price, not listed, or unknown when the service gives no list).
The items and the user's listings themselves come from `app.services.listings_inventory`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.ui import strings
from app.ui.models.review_model import short

if TYPE_CHECKING:
    from app.services.listings_inventory import HeldItem, SellerListing

MAX_PER_REQUEST = 100  # app.core.limits.MAX_LISTINGS_PER_BULK_REQUEST (checked in a test)


def kind_text(item: HeldItem) -> str:
    if item.is_runes:
        return strings.LISTINGS_KIND_RUNES
    return strings.LISTINGS_KIND_TAP if item.tap_transfer else strings.LISTINGS_KIND_INSCRIPTION


def batch_problem(items: Sequence[HeldItem], prices: Sequence[int | None]) -> str:
    """Why these items cannot go in one secure listing request ("" when they can)."""
    if not items:
        return ""
    if len(items) > MAX_PER_REQUEST:
        return strings.LISTINGS_TOO_MANY.format(limit=MAX_PER_REQUEST, count=len(items))
    if len({i.is_runes for i in items}) > 1:
        return strings.LISTINGS_MIXED
    if any(i.tap_transfer for i in items):
        from app.services.listings import TAP_TRANSFER_EXPLANATION

        return TAP_TRANSFER_EXPLANATION
    if any(p is None or p <= 0 for p in prices):
        return strings.LISTINGS_NEED_PRICE
    return ""


@dataclass(frozen=True)
class ListingMark:
    """Whether a held item is listed, as the service says: `listing` is its active listing
    (None: not listed); `known` is False when the service gave no list of our listings (or it
    could not be read, `reason`), so "not listed" cannot be told."""

    known: bool
    listing: SellerListing | None = None
    reason: str = ""

    @property
    def text(self) -> str:
        if not self.known:
            return strings.LISTINGS_LISTED_UNKNOWN
        if self.listing is None:
            return strings.LISTINGS_NOT_LISTED
        return strings.LISTINGS_LISTED_AT.format(price=price_text(self.listing.price))

    @property
    def tip(self) -> str:
        if not self.known:
            if self.reason:
                return strings.LISTINGS_LISTED_UNREAD_TIP.format(reason=self.reason)
            return strings.LISTINGS_LISTED_UNKNOWN_TIP
        if self.listing is None:
            return strings.LISTINGS_NOT_LISTED_TIP
        return strings.LISTINGS_LISTED_TIP.format(
            price=price_text(self.listing.price), listing=self.listing.listing_id
        )


def price_text(price: int | None) -> str:
    return "—" if price is None else strings.SATS.format(sats=price)


def active_listing(item_key: str, mine: Sequence[SellerListing]) -> SellerListing | None:
    """The active listing of the item `item_key` (an inscription id or a runes outpoint)."""
    return next((m for m in mine if m.item == item_key and m.state == "active"), None)


def marks_for(
    items: Sequence[HeldItem], mine: Sequence[SellerListing] | None, reason: str = ""
) -> dict[str, ListingMark]:
    """Each held item's mark, by its key; all unknown when `mine` is None."""
    if mine is None:
        return {i.key: ListingMark(False, reason=reason) for i in items}
    return {i.key: ListingMark(True, active_listing(i.key, mine)) for i in items}


def item_name(item: HeldItem) -> str:
    """'inscription 6fb9…799i0' or 'runes 1,000 BIDWALLET•DEMO'."""
    if item.inscription_id is not None:
        return f"inscription {short(item.inscription_id, 10)}"
    return f"runes {item.runes}"
