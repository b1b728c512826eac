"""How the Listings tab words what it lists and checks: the kind of a held item, and whether
a batch can go in one request (explained before anything is sent). The items and the user's
listings themselves come from `app.services.listings_inventory`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from app.ui import strings

if TYPE_CHECKING:
    from app.services.listings_inventory import HeldItem

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
