"""How the Listings tab words what it lists and checks: the kind of a held item, whether a
batch can go in one request (explained before anything is sent), and whether each held item is
listed (its mark: listed at a price, not listed, or unknown when the service gives no list; and,
from our own ledger, signed at a price whatever the service says).
The items and the user's listings themselves come from `app.services.listings_inventory`."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.ui import strings
from app.ui.models.review_model import Cell, short

if TYPE_CHECKING:
    from app.services.listings_inventory import HeldItem, SellerListing, SignedOutput

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
    if any(i.tap_transfer for i in items):  # short: the line below the table holds two lines
        return strings.LISTINGS_TAP
    if any(p is None or p <= 0 for p in prices):
        return strings.LISTINGS_NEED_PRICE
    return ""


def listable_together(
    items: Sequence[HeldItem], listed: Collection[str] = ()
) -> tuple[list[HeldItem], str]:
    """What "Select all" ticks: the most of `items` that can go in one request (`batch_problem`
    finds nothing in them but missing prices), inscriptions first, and what it left out, said
    ("" when nothing). Items whose key is in `listed` are left out: relisting is a choice made
    one item at a time, with its own question."""
    unlisted = [i for i in items if i.key not in listed]
    inscriptions = [i for i in unlisted if not i.is_runes and not i.tap_transfer]
    runes = [i for i in unlisted if i.is_runes]
    chosen = inscriptions or runes
    left_out = []
    if len(unlisted) < len(items):
        left_out.append(
            strings.counted(strings.LISTINGS_LEFT_OUT_LISTED, len(items) - len(unlisted))
        )
    if inscriptions and runes:
        left_out.append(strings.LISTINGS_LEFT_OUT_RUNES)
    if any(i.tap_transfer for i in unlisted):
        left_out.append(strings.LISTINGS_LEFT_OUT_TAP)
    if len(chosen) > MAX_PER_REQUEST:
        chosen = chosen[:MAX_PER_REQUEST]
        left_out.append(strings.LISTINGS_LEFT_OUT_LIMIT.format(limit=MAX_PER_REQUEST))
    return chosen, " ".join(left_out)


@dataclass(frozen=True)
class ListingMark:
    """Whether a held item is listed, from two sources: the service's list (`listing` is its
    active listing, None: not listed; `known` is False when the service gave no list or it
    could not be read, `reason`) and our own ledger of live signatures (`signed`: those on the
    item's output; `ledger_read` False when there is no ledger, as for a watch-only profile,
    or it could not be read, `ledger_reason`).
    A live signature sells the item at its price until it moves, whatever the service says,
    so it is shown even when the service says "not listed" or gives no list."""

    known: bool
    listing: SellerListing | None = None
    reason: str = ""
    signed: SignedOutput | None = None
    ledger_read: bool = False
    ledger_reason: str = ""

    @property
    def signed_price(self) -> int | None:
        return None if self.signed is None else self.signed.lowest_price

    @property
    def other_signed_prices(self) -> list[int]:
        """Prices of live signatures other than the service's listing price."""
        listed = None if self.listing is None else self.listing.price
        prices = () if self.signed is None else self.signed.prices
        return sorted({p for p in prices if p is not None and p != listed})

    @property
    def relist_price(self) -> int | None:
        """The price a relist question names: the service's listing, else our signature's."""
        return self.listing.price if self.listing is not None else self.signed_price

    @property
    def asks_before_relisting(self) -> bool:
        """Listed by the service's word, or carrying a live signature of ours."""
        return self.listing is not None or self.signed is not None

    @property
    def text(self) -> str:
        if self.signed is not None and self.listing is None:
            signed = _signed_text(self.signed_price)
            if self.known:  # the service says not listed: the two disagree
                return strings.LISTINGS_SIGNED_NOT_LISTED.format(signed=signed)
            return signed
        if not self.known:
            return strings.LISTINGS_LISTED_UNKNOWN
        if self.listing is None:
            return strings.LISTINGS_NOT_LISTED
        listed = strings.LISTINGS_LISTED_AT.format(price=price_text(self.listing.price))
        others = self.other_signed_prices
        if others:
            return strings.LISTINGS_LISTED_SIGNED_TOO.format(
                listed=listed, price=price_text(others[0])
            )
        return listed

    @property
    def tip(self) -> str:
        return "\n\n".join(t for t in (self._service_tip(), self._ledger_tip()) if t)

    def _service_tip(self) -> str:
        if not self.known:
            if self.reason:
                return strings.LISTINGS_LISTED_UNREAD_TIP.format(reason=self.reason)
            return strings.LISTINGS_LISTED_UNKNOWN_TIP
        if self.listing is None:
            return strings.LISTINGS_NOT_LISTED_TIP
        return strings.LISTINGS_LISTED_TIP.format(
            price=price_text(self.listing.price), listing=self.listing.listing_id
        )

    def _ledger_tip(self) -> str:
        if self.ledger_reason:
            return strings.LISTINGS_LEDGER_UNREAD_TIP.format(reason=self.ledger_reason)
        if self.signed is not None:
            prices = [price_text(p) for p in self.signed.prices if p is not None]
            tip = strings.LISTINGS_SIGNED_TIP.format(
                prices=", ".join(prices) or strings.LISTINGS_SIGNED_NO_PRICE
            )
            if self.known and self.listing is None:
                tip += " " + strings.LISTINGS_SIGNED_DISAGREE_TIP
            return tip
        if self.listing is not None and self.ledger_read:  # listed, yet not signed here
            return strings.LISTINGS_LISTED_UNSIGNED_TIP
        return ""


def _signed_text(price: int | None) -> str:
    if price is None:
        return strings.LISTINGS_SIGNED_AT.format(price=strings.LISTINGS_SIGNED_NO_PRICE)
    return strings.LISTINGS_SIGNED_AT.format(price=price_text(price))


def price_text(price: int | None) -> str:
    return "—" if price is None else strings.SATS.format(sats=price)


def active_listing(item_key: str, mine: Sequence[SellerListing]) -> SellerListing | None:
    """The active listing of the item `item_key` (an inscription id or a runes outpoint)."""
    return next((m for m in mine if m.item == item_key and m.state == "active"), None)


def marks_for(
    items: Sequence[HeldItem],
    mine: Sequence[SellerListing] | None,
    reason: str = "",
    signed: Mapping[str, SignedOutput] | None = None,
    ledger_reason: str = "",
) -> dict[str, ListingMark]:
    """Each held item's mark, by its key: the service's word (unknown for all when `mine` is
    None) and our live signatures on its output (`signed`, by outpoint; None with
    `ledger_reason` when the ledger could not be read, None alone when there is none)."""
    ledger_read = signed is not None
    found = signed or {}
    return {
        i.key: ListingMark(
            mine is not None,
            None if mine is None else active_listing(i.key, mine),
            "" if mine is not None else reason,
            found.get(i.outpoint),
            ledger_read,
            ledger_reason,
        )
        for i in items
    }


def item_name(item: HeldItem) -> str:
    """'inscription 6fb9…799i0' or 'runes 1,000 BIDWALLET•DEMO'."""
    if item.inscription_id is not None:
        return f"inscription {short(item.inscription_id, 10)}"
    return f"runes {item.runes}"


def mine_row(listing: SellerListing) -> tuple[Cell, Cell, Cell, Cell]:
    """A row of Your listings: the item, its price, its state and the listing's id (wallet
    contents, the public service's word, name a listed item without its id: "—")."""
    m = listing
    return (
        Cell(short(m.item, 10), tooltip=m.item),
        Cell("—" if m.price is None else strings.SATS.format(sats=m.price)),
        Cell(strings.LISTINGS_STATES.get(m.state, m.state), "ok" if m.state == "active" else None),
        Cell(m.listing_id or "—", tooltip=None if m.listing_id else strings.LISTINGS_NO_ID),
    )


def listing_key(listing: SellerListing) -> str:
    """What tells a listing of ours from the others: its id, else (wallet contents name none)
    the item, listed once at a time."""
    return listing.listing_id or listing.item
