"""What a seller starts a listing from, read-only:

- `held_items(ctx)`: the inscriptions, and the runes outputs without an inscription, that the
  ordinals address holds, as ord reports them (with each inscription's collection and whether
  it is a TAP token transfer, which cannot be a secure listing);
- `my_listings(ctx)`: the seller's secure listings with their state (`GET /listings?
  sellerOrdAddress=`, beyond the spec); where the service has no such list (the public
  service), the active ones `/address/wallet-contents` names (the items it says are listed, at
  their price, without a listing id); None when neither is offered;
- `signed_outputs(ctx)`: the outputs that carry a live listing signature of ours, from our own
  ledger (`acp_signatures`), whatever the service says: such a signature lets anyone buy what
  the output holds at its price until the output is spent.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from app.net.errors import HttpError
from app.net.marketplace_states import NOT_OFFERED, SellerListing
from app.services.acp_signatures import live_signatures
from app.services.context import ServiceContext
from app.services.listings import ListingItem, listing_price_of

WALLET_CONTENTS_PAGES = 10  # 100 items a page: a seller's first 1,000 listed items

__all__ = [
    "HeldItem",
    "SellerListing",
    "SignedOutput",
    "held_items",
    "my_listings",
    "signed_outputs",
]


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

    def listing(self, price: int) -> ListingItem:
        """This item listed for `price` sats."""
        if self.inscription_id is not None:
            return ListingItem(
                price, inscription_id=self.inscription_id, collection_slug=self.collection
            )
        return ListingItem(price, runes_output=self.outpoint)


async def held_items(ctx: ServiceContext) -> list[HeldItem]:
    """Each inscription of each output (outputs in outpoint order), then a runes output as one
    item when it carries no inscription."""
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


async def my_listings(ctx: ServiceContext) -> list[SellerListing] | None:
    """The listings of our ordinals address with their state; else (no such list) the active
    ones wallet contents name; None when neither is offered."""
    listings = await ctx.clients.marketplace.get_seller_listings(ctx.ordinals_address)
    if listings is not None:
        return listings
    return await _listed_in_wallet_contents(ctx)


async def _listed_in_wallet_contents(ctx: ServiceContext) -> list[SellerListing] | None:
    """The items of our ordinals address that `/address/wallet-contents` says are listed, as
    active listings without an id (it gives none), page by page up to a bound, each item once
    (a cursor already read ends the reading: a service whose cursors loop repeats nothing);
    None when the service does not offer wallet contents either (404, 405)."""
    market = ctx.clients.marketplace
    found: dict[str, SellerListing] = {}  # by item: the first page's word on it
    cursor: int | None = None
    read: set[int | None] = set()
    for _ in range(WALLET_CONTENTS_PAGES):
        read.add(cursor)
        try:
            page = await market.get_wallet_contents(
                ctx.ordinals_address, listed_only=True, cursor=cursor
            )
        except HttpError as exc:
            if exc.status in NOT_OFFERED and not found:
                return None
            raise
        listed = [
            SellerListing("", held.inscription_id, None, held.listing_price, "active")
            for held in page.inscriptions
            if held.listing_price is not None
        ]
        listed += [
            SellerListing("", None, rune.output, rune.listing_price, "active")
            for rune in page.runes
            if rune.listing_price is not None and rune.output
        ]
        for listing in listed:
            found.setdefault(listing.item, listing)
        if page.next_cursor in read:
            break
        cursor = page.next_cursor
    return list(found.values())


@dataclass(frozen=True)
class SignedOutput:
    """Our live ANYONECANPAY signatures on one output, as the ledger records them: each lets
    anyone holding it buy what the output carries at its price until the output moves."""

    outpoint: str
    prices: tuple[int | None, ...]  # one per signature; None where its label names no price

    @property
    def lowest_price(self) -> int | None:
        """The price a buyer would choose (None when no signature names one)."""
        known = [p for p in self.prices if p is not None]
        return min(known) if known else None


async def signed_outputs(ctx: ServiceContext) -> dict[str, SignedOutput] | None:
    """Each output with a live signature of ours, by outpoint (the ledger read off the event
    loop); None when no ledger is open. An entry whose coin our own recorded move spends (an
    ended listing) no longer counts. Raises `ServiceError` when the ledger cannot be read."""
    live = await live_signatures(ctx)
    if live is None:
        return None
    prices: dict[str, list[int | None]] = {}
    for sig in live:
        if not sig.spent_by:
            prices.setdefault(sig.outpoint, []).append(listing_price_of(sig.label))
    return {
        outpoint: SignedOutput(outpoint, tuple(sorted(p, key=lambda x: (x is None, x or 0))))
        for outpoint, p in prices.items()
    }
