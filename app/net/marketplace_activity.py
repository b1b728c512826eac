"""``GET /activity/listings``, ``/activity/bids``, ``/activity/sales``: one page of a collection's
(or a rune's) orders, parsed into the market snapshot's rows (``app.core.market_snapshot``).

Shapes read (``../shared/notes/satflow-market-data.md``, section 2; the sandbox serves the
first of each):
- the array: ``data.items`` [DOC, sandbox], ``data.listings`` / ``data.bids`` [MM, 3P],
  ``data.sales`` (by analogy), or the same key at the top level (legacy, no envelope);
- the count: ``data.pagination.total`` [DOC] or ``data.total`` [3P]; both may be missing;
- a bid's price per item: ``unitPrice``, then ``price``, then ``bid.price`` [3P]; a rune bid's
  ``price`` is the total for its units, so without ``unitPrice`` it is divided by them;
- units: ``quantity`` or ``bid.quantity`` (the docs give none: one row per unit, [INF]); a
  rune bid without them counts ``runes.amount``;
- expiry: ``expiry`` or ``bid.expiry``, ISO-8601 or epoch milliseconds [3P];
- a listing's seller: ``ask.sellerOrdAddress`` [MM], ``ask.sellerReceiveAddress`` [3P], or the
  legacy top-level ``seller`` [MM history].
The envelope must hold one of those arrays (``BadResponse`` otherwise). A row that cannot be read
(not an object, no id, no positive price, a price above all the bitcoin there is) is skipped and
counted in ``skipped``, and so are the rows past ``MAX_PAGE_SIZE`` (a page holds no more than
asked: the rest are not read); a row that is
readable but not a live order of this kind (another ``orderType``, an item bid, a listing with
``cancelledAt``/``invalidAt``/``fillPendingAt`` set [3P]) is left out without counting.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

from app.core.bid_request import Trait
from app.core.limits import MAX_MONEY_SATS
from app.core.market_snapshot import BID_KINDS, BidKindName, MarketBid, MarketListing
from app.net.fields import Reader, as_epoch_ms, as_int, as_str, object_id
from app.net.marketplace_requests import InvalidRequest

T = TypeVar("T")

LISTINGS_ACTIVITY_PATH: Final = "/activity/listings"
BIDS_ACTIVITY_PATH: Final = "/activity/bids"
SALES_ACTIVITY_PATH: Final = "/activity/sales"
SORT_FIELDS: Final = frozenset({"price", "unitPrice", "createdAt"})
SORT_DIRECTIONS: Final = frozenset({"asc", "desc"})
MAX_PAGE_SIZE: Final = 500
_ARRAY_KEYS: Final = ("items", "listings", "bids", "sales")
_NOT_LIVE: Final = ("cancelledAt", "invalidAt", "fillPendingAt")


@dataclass(frozen=True)
class ActivityPage(Generic[T]):
    """One page: its readable rows, the total the service counts (None when it does not say),
    and how many rows could not be read."""

    rows: tuple[T, ...]
    page: int | None  # as the service numbers it, when it says
    total: int | None
    total_pages: int | None
    skipped: int


@dataclass(frozen=True)
class Sale:
    sale_id: str
    collection_slug: str | None
    inscription_id: str | None
    price: int
    unit_price: float
    at_ms: int | None  # fillCompletedAt, else the row's timestamp
    txid: str | None
    seller: str | None
    buyer: str | None


def activity_params(
    collection_slug: str | None,
    page: int,
    page_size: int,
    sort_by: str,
    sort_direction: str,
    active: bool | None,
) -> dict[str, str | int]:
    """The query of one page, checked before anything is sent; `collection_slug` None: the
    whole market's (most recent first, as the sandbox serves it; the public service's answer
    is undocumented)."""
    if collection_slug is not None and not collection_slug.strip():
        raise InvalidRequest("an empty collection slug names no collection")
    if page < 1 or not 1 <= page_size <= MAX_PAGE_SIZE:
        raise InvalidRequest(f"page must be >= 1 and pageSize 1..{MAX_PAGE_SIZE}")
    if sort_by not in SORT_FIELDS or sort_direction not in SORT_DIRECTIONS:
        raise InvalidRequest(f"cannot sort by {sort_by!r} {sort_direction!r}")
    params: dict[str, str | int] = {
        "page": page,
        "pageSize": page_size,
        "sortBy": sort_by,
        "sortDirection": sort_direction,
    }
    if collection_slug is not None:
        params["collectionSlug"] = collection_slug
    if active is not None:
        params["active"] = "true" if active else "false"
    return params


def parse_listing_page(r: Reader, body: Any) -> ActivityPage[MarketListing]:
    return _page(r, body, _listing)


def parse_bid_page(r: Reader, body: Any) -> ActivityPage[MarketBid]:
    return _page(r, body, _bid)


def parse_sale_page(r: Reader, body: Any) -> ActivityPage[Sale]:
    return _page(r, body, _sale)


class _Unreadable(Exception):
    """A row that cannot be read: skipped and counted."""


class _NotLive(Exception):
    """A readable row that is no live order of the kind asked: left out."""


def _page(r: Reader, body: Any, read: Callable[[Mapping[str, Any]], T]) -> ActivityPage[T]:
    data = r.data(body)
    items = next((data[k] for k in _ARRAY_KEYS if isinstance(data.get(k), list)), None)
    if items is None:
        top = r.obj(body)
        items = next((top[k] for k in _ARRAY_KEYS if isinstance(top.get(k), list)), None)
    if items is None:
        raise r.error("no list of rows (data.items, data.listings or data.bids)", "data.items")
    rows: list[T] = []
    skipped = max(0, len(items) - MAX_PAGE_SIZE)  # more than any page asks for: not read
    for item in items[:MAX_PAGE_SIZE]:
        try:
            if not isinstance(item, Mapping):
                raise _Unreadable
            rows.append(read(item))
        except _Unreadable:
            skipped += 1
        except _NotLive:
            pass
    pagination = data.get("pagination")
    pagination = pagination if isinstance(pagination, Mapping) else {}
    total = as_int(pagination.get("total"))
    if total is None:
        total = as_int(data.get("total"))
    return ActivityPage(
        rows=tuple(rows),
        page=as_int(pagination.get("page")),
        total=total,
        total_pages=as_int(pagination.get("totalPages")),
        skipped=skipped,
    )


def _inner(row: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    value = row.get(name)
    return value if isinstance(value, Mapping) else {}


def _first(*values: Any) -> Any:
    return next((v for v in values if v is not None), None)


def _price(value: Any) -> float | None:
    """A positive price from a JSON number or a decimal string, at most all the bitcoin there
    is (`MAX_MONEY_SATS`): a larger, infinite or NaN one is no price (and an integer too long
    for a float must not raise)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            return None
    if isinstance(value, int) and not 0 < value <= MAX_MONEY_SATS:
        return None
    if isinstance(value, int | float) and math.isfinite(value) and 0 < value <= MAX_MONEY_SATS:
        return value
    return None


def _row_id(row: Mapping[str, Any], *more: Any) -> str:
    found = object_id(_first(row.get("id"), row.get("_id"), *more))
    if found is None:
        raise _Unreadable
    return found


def _listing(row: Mapping[str, Any]) -> MarketListing:
    ask = _inner(row, "ask")
    order_type = as_str(row.get("orderType"))
    if (order_type not in (None, "ask")) or any(row.get(k) for k in _NOT_LIVE):
        raise _NotLive
    inscription_id = as_str(_first(row.get("inscriptionId"), ask.get("inscriptionId"))) or ""
    listing_id = _row_id(row, inscription_id or None)
    unit_price = _price(_first(row.get("unitPrice"), row.get("price"), ask.get("price")))
    if unit_price is None:
        raise _Unreadable
    seller = _first(
        as_str(ask.get("sellerOrdAddress")),
        as_str(row.get("sellerOrdAddress")),
        as_str(ask.get("sellerReceiveAddress")),
        as_str(row.get("seller")),
    )
    units = as_int(_first(row.get("quantity"), ask.get("quantity")))
    slug = as_str(_first(row.get("collectionSlug"), ask.get("collectionSlug"))) or None
    return MarketListing(
        listing_id, inscription_id, unit_price, seller or "", max(1, units or 1), slug
    )


def _bid(row: Mapping[str, Any]) -> MarketBid:
    bid = _inner(row, "bid")
    order_type = as_str(row.get("orderType"))
    if order_type not in (None, "bid"):
        raise _NotLive
    bid_id = _row_id(row, bid.get("id"), row.get("bid_id"))
    runes = _inner(row, "runes")
    trait = _trait(_first(bid.get("attribute"), row.get("attribute")))
    kind = _kind(row, bid, runes, trait)
    if kind == "trait" and trait is None:
        raise _Unreadable  # a trait bid whose trait cannot be read joins no pool we can name
    units = as_int(_first(row.get("quantity"), bid.get("quantity")))
    if units is None and kind == "rune":
        units = as_int(runes.get("amount"))
    units = 1 if units is None else units
    if units < 1:
        raise _Unreadable
    unit_price = _price(row.get("unitPrice"))
    if unit_price is None:
        total_or_each = _price(_first(row.get("price"), bid.get("price")))
        if total_or_each is None:
            raise _Unreadable
        unit_price = total_or_each / units if kind == "rune" else total_or_each
    slug = as_str(_first(row.get("collectionSlug"), runes.get("name") if kind == "rune" else None))
    return MarketBid(
        bid_id=bid_id,
        unit_price=unit_price,
        units=units,
        bidder=as_str(_first(bid.get("bidderAddress"), row.get("bidderAddress"))) or "",
        kind=kind,
        trait=trait,
        expires_at_ms=as_epoch_ms(_first(row.get("expiry"), bid.get("expiry"))),
        collection_slug=slug or None,
    )


def _kind(
    row: Mapping[str, Any], bid: Mapping[str, Any], runes: Mapping[str, Any], trait: Trait | None
) -> BidKindName:
    said = as_str(bid.get("kind"))
    for kind in BID_KINDS:
        if said == kind:
            return kind
    if _first(bid.get("inscriptionId"), row.get("inscriptionId")) is not None:
        raise _NotLive  # a bid on one inscription joins no pool
    if runes or row.get("type") == "rune":
        return "rune"
    return "trait" if trait is not None else "collection"


def _trait(value: Any) -> Trait | None:
    if not isinstance(value, Mapping):
        return None
    trait_type, trait_value = as_str(value.get("trait_type")), as_str(value.get("value"))
    if trait_type and trait_value:
        return Trait(trait_type, trait_value)
    return None


def _sale(row: Mapping[str, Any]) -> Sale:
    sale_id = _row_id(row, row.get("txid"))
    price = _price(row.get("price"))
    unit_price = _price(row.get("unitPrice")) or price
    if price is None or unit_price is None:
        raise _Unreadable
    return Sale(
        sale_id=sale_id,
        collection_slug=as_str(row.get("collectionSlug")),
        inscription_id=as_str(row.get("inscriptionId")),
        price=int(price),
        unit_price=unit_price,
        at_ms=as_epoch_ms(_first(row.get("fillCompletedAt"), row.get("timestamp"))),
        txid=as_str(row.get("txid")),
        seller=as_str(row.get("sellerAddress")),
        buyer=as_str(row.get("buyerAddress")),
    )
