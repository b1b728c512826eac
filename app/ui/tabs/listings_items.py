"""What the Listings tab lists and checks: the items the ordinals address holds (from ord),
whether a batch can go in one request (explained before anything is sent), and the user's
listings with their state when the service offers that list."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.ui import strings

if TYPE_CHECKING:
    from app.services.context import ServiceContext
    from app.services.listings import ListingItem

MAX_PER_REQUEST = 100  # app.core.limits.MAX_LISTINGS_PER_BULK_REQUEST (checked in a test)
LISTINGS_PATH = "/listings"


@dataclass(frozen=True)
class HeldItem:
    """An inscription, or a whole output's runes, on the ordinals address."""

    outpoint: str
    inscription_id: str | None = None
    runes: str = ""  # "1,000 BIDWALLET•DEMO" for a runes output
    collection: str | None = None
    tap_transfer: bool = False  # as ord reports it (when it does)

    @property
    def is_runes(self) -> bool:
        return self.inscription_id is None

    @property
    def key(self) -> str:
        return self.inscription_id or self.outpoint

    def kind_text(self) -> str:
        if self.is_runes:
            return strings.LISTINGS_KIND_RUNES
        return strings.LISTINGS_KIND_TAP if self.tap_transfer else strings.LISTINGS_KIND_INSCRIPTION

    def listing(self, price: int) -> ListingItem:
        from app.services.listings import ListingItem

        if self.inscription_id is not None:
            return ListingItem(
                price, inscription_id=self.inscription_id, collection_slug=self.collection
            )
        return ListingItem(price, runes_output=self.outpoint)


async def load_held_items(ctx: ServiceContext) -> list[HeldItem]:
    ord_client = ctx.clients.ord
    held = await ord_client.address(ctx.ordinals_address)
    outputs = await ord_client.outputs(held.outputs)
    ids = [i for o in outputs for i in o.inscriptions]
    details = await asyncio.gather(*(ord_client.inscription(i) for i in ids))
    extra = {d.inscription_id: d.raw for d in details}
    items: list[HeldItem] = []
    for out in sorted(outputs, key=lambda o: o.outpoint):
        for inscription in out.inscriptions:
            raw = extra.get(inscription, {})
            collection = raw.get("collection")
            items.append(
                HeldItem(
                    out.outpoint,
                    inscription,
                    collection=collection if isinstance(collection, str) else None,
                    tap_transfer=raw.get("tap_transfer") is True,
                )
            )
        if out.runes and not out.inscriptions:
            runes = ", ".join(f"{r.amount:,} {r.name}" for r in out.runes)
            items.append(HeldItem(out.outpoint, runes=runes))
    return items


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
class MyListing:
    listing_id: str
    item: str
    price: int | None
    state: str


async def load_my_listings(ctx: ServiceContext) -> list[MyListing] | None:
    """The seller's listings with their state; None when the service offers no such list."""
    from app.net.errors import HttpError

    market = ctx.clients.marketplace
    try:
        body = await market.get_json(
            LISTINGS_PATH,
            params={"sellerOrdAddress": ctx.ordinals_address},
            on_error=market.marketplace_error,
        )
    except HttpError as exc:
        if exc.status in (404, 405):
            return None
        raise
    return parse_listings(body)


def parse_listings(body: Any) -> list[MyListing]:
    data = body.get("data") if isinstance(body, Mapping) else None
    found = data.get("listings") if isinstance(data, Mapping) else None
    rows = []
    for item in found if isinstance(found, list) else []:
        if not isinstance(item, Mapping) or not isinstance(item.get("id"), str):
            continue
        what = item.get("inscriptionId") or item.get("runesOutput") or "?"
        price, state = item.get("price"), item.get("status")
        rows.append(
            MyListing(
                item["id"],
                str(what),
                price if isinstance(price, int) else None,
                state if isinstance(state, str) else "active",
            )
        )
    return rows
