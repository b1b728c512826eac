"""The market scenario (issue 16): what `/sandbox/market/...` does with the sandbox-held
participants (market_participants.py), each through the marketplace's own code paths.

- add a listing: a seller lists an item it holds, or a new inscription minted for it, or a
  new runes output sent to it from the sandbox's reserve;
- remove a listing: the seller moves the item (the listing ends as `item_moved`);
- add / remove a competing bid: a bidder places (with its own funded bidding wallet) or
  cancels a collection, trait or rune bid;
- a sale: the sandbox's buyer buys a listing (`POST /sandbox/listings/purchase`'s path), or a
  seller fills a bid (`POST /sandbox/bids/fill`'s path) with an item it holds, minted to match
  when it holds none;
- shift the floor: reprice or add the sellers' listings of a collection so its lowest active
  listing is the given price.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.core.bid_request import Trait
from app.core.errors import ErrorCode
from app.sandbox.chain.errors import ChainError
from app.sandbox.market import listing_targets
from app.sandbox.market import market_participants as parties
from app.sandbox.market.bid_store import BID_TYPE_RUNE, bid_states
from app.sandbox.market.errors import MarketError
from app.sandbox.market.fills import fill_bid
from app.sandbox.market.listings_items import is_spent
from app.sandbox.market.listings_store import SecureListing, active_listings, listing_by_id
from app.sandbox.market.listings_view import listing_entry
from app.sandbox.market.purchase_requests import sandbox_purchase
from app.sandbox.market.service import Json, Market

DEFAULT_SELLER = "seller-1"
FLOOR_STEP = 1_000  # sats between the repriced listings above a new floor


@dataclass(frozen=True)
class BidOrder:
    """A competing bid as the scenario asks for it."""

    bidder: str
    kind: str  # "collection" | "trait" | "rune"
    slug: str  # a collection slug, or the rune's spaced name
    price: int
    quantity: int
    expiry_ms: int
    trait: Trait | None = None
    fund_sats: int | None = None


def collection_or_error(market: Market, slug: str, field: str = "slug") -> Json:
    found = market.node.collection(slug)
    if found is None:
        raise MarketError(
            ErrorCode.UNKNOWN_COLLECTION,
            f"no collection {slug!r} on this sandbox (GET /sandbox/collections lists them)",
            field=field,
        )
    return found


def traits_for(
    collection: Mapping[str, Any], index: int, wanted: Trait | None = None
) -> dict[str, str]:
    """Trait values of a new item: the `index`-th combination (one value of each trait type,
    cycling), with `wanted` taking its trait type's place."""
    chosen: dict[str, str] = {}
    for depth, trait in enumerate(collection["traits"]):
        values = trait["values"]
        if values:
            chosen[trait["trait_type"]] = values[(index + depth) % len(values)]
    if wanted is not None:
        chosen[wanted.trait_type] = wanted.value
    return chosen


def new_item(
    market: Market, seller: parties.Participant, slug: str, wanted: Trait | None = None
) -> str:
    collection = collection_or_error(market, slug)
    traits = traits_for(collection, int(collection["inscriptionCount"]), wanted)
    return parties.mint_item(market, seller, slug, traits)


# -- listings -----------------------------------------------------------------------------


def add_listing(
    market: Market, slug: str, price: int, seller_label: str | None, inscription_id: str | None
) -> Json:
    """A seller's new active listing of `inscription_id` (which it holds) or of a new item."""
    collection_or_error(market, slug)
    seller = parties.participant(market, seller_label or DEFAULT_SELLER, sells=True)
    item = inscription_id or new_item(market, seller, slug)
    return parties.list_item(market, seller, price, slug, inscription_id=item)


def rune_or_error(market: Market, name: str, field: str = "rune") -> str:
    """The etched rune's spaced name, whatever the spacers of `name`."""
    try:
        found = market.node.rune(name)
    except ChainError:
        found = None
    if found is None:
        raise MarketError(
            ErrorCode.UNKNOWN_COLLECTION, f"no rune {name!r} is etched on this sandbox", field=field
        )
    return str(found["spaced"])


def add_rune_listing(
    market: Market, rune: str, price: int, amount: int, seller_label: str | None
) -> Json:
    """A seller's new active listing of a new output of `amount` units of `rune`, for `price`
    (the whole output)."""
    spaced = rune_or_error(market, rune)
    seller = parties.participant(market, seller_label or DEFAULT_SELLER, sells=True)
    output = parties.give_runes(market, seller, spaced, amount)
    return parties.list_item(market, seller, price, spaced, runes_output=output)


def sandbox_listing(market: Market, listing_id: str) -> tuple[SecureListing, parties.Participant]:
    """An active listing of a participant's, or 404/409 saying why not."""
    with market.store.reading() as conn:
        listing = listing_by_id(conn, listing_id)
        label = None if listing is None else parties.label_of(conn, listing.seller_ord_address)
    if listing is None:
        raise MarketError(
            ErrorCode.LISTING_NOT_FOUND, f"no secure listing {listing_id}", field="listingId"
        )
    if label is None:
        raise MarketError(
            ErrorCode.NOT_SANDBOX_HELD,
            f"listing {listing_id} is not a sandbox participant's: only theirs move here",
            status=409,
            field="listingId",
        )
    if listing.status != "active" or is_spent(market.node, listing.item_outpoint):
        raise MarketError(
            ErrorCode.LISTING_NOT_ACTIVE, f"listing {listing_id} is {listing.status}, not active"
        )
    return listing, parties.participant(market, label)


def remove_listing(market: Market, listing_id: str) -> Json:
    listing, seller = sandbox_listing(market, listing_id)
    txid = parties.unlist_item(market, seller, listing)
    with market.store.reading() as conn:
        ended = listing_by_id(conn, listing_id)
    assert ended is not None
    return {**listing_entry(ended), "removedByTxid": txid}


def active_of(market: Market, slug: str) -> list[SecureListing]:
    """Active listings of collection or rune `slug` (as the chain says what each sells, not
    the seller: `listing_targets`) whose item is still in place, the lowest price per item or
    rune unit first."""
    listing_targets.sync(market)
    with market.store.reading() as conn:
        unit_prices = dict(
            conn.execute(
                "SELECT listing_id, unit_price FROM listing_targets WHERE slug = ?", (slug,)
            ).fetchall()
        )
        found = [x for x in active_listings(conn) if x.id in unit_prices]
    live = [x for x in found if not is_spent(market.node, x.item_outpoint)]
    return sorted(live, key=lambda x: (unit_prices[x.id], x.created_ms, x.id))


def shift_floor(market: Market, slug: str, price: int, seller_label: str | None) -> Json:
    """Make `price` the lowest active listing of `slug`: the sellers' cheaper listings are
    repriced to it and above (a step apart), else their cheapest is repriced down to it, else a
    seller lists a new item at it. A cheaper listing of someone else's: 409."""
    collection_or_error(market, slug)
    listings = active_of(market, slug)
    with market.store.reading() as conn:
        owners = {x.id: parties.label_of(conn, x.seller_ord_address) for x in listings}
    foreign = [x for x in listings if owners[x.id] is None and x.price < price]
    if foreign:
        raise MarketError(
            ErrorCode.NOT_SANDBOX_HELD,
            f"a listing the sandbox does not hold is at {foreign[0].price:,} sats, below "
            f"{price:,}: the floor cannot rise above it (buy it first: POST /sandbox/market/sale)",
            status=409,
            details={"listingId": foreign[0].id, "price": foreign[0].price},
        )
    ours = [x for x in listings if owners[x.id] is not None]
    changed: list[Json] = []
    below = [x for x in ours if x.price < price]
    targets = below or [x for x in ours[:1] if x.price > price and listings[0].price > price]
    for step, listing in enumerate(targets):
        seller = parties.participant(market, owners[listing.id] or DEFAULT_SELLER)
        assert listing.inscription_id is not None
        new_price = price + step * FLOOR_STEP
        changed.append(
            parties.list_item(
                market, seller, new_price, slug, inscription_id=listing.inscription_id
            )
        )
    if not listings or (not targets and listings[0].price > price):
        changed.append(add_listing(market, slug, price, seller_label, None))
    floor = active_of(market, slug)[0].price
    return {"collectionSlug": slug, "floor": floor, "changed": changed}


# -- bids ---------------------------------------------------------------------------------


def add_bid(market: Market, order: BidOrder) -> Json:
    bidder = parties.participant(market, order.bidder, bids=True)
    wallet = parties.bidding_wallet(market, bidder, order.fund_sats)
    data = parties.place_bid(
        market,
        bidder,
        slug=order.slug,
        price=order.price,
        quantity=order.quantity,
        expiry_ms=order.expiry_ms,
        rune=order.kind == "rune",
        trait=order.trait,
    )
    return {
        **data,
        "bidder": order.bidder,
        "bidderAddress": bidder.payment.address,
        "bidderTokenReceiveAddress": bidder.ordinals.address,
        "biddingWallet": wallet.multisig_address,
        "walletBalance": market.balance(wallet.multisig_address),
    }


def remove_bid(market: Market, bid_id: str) -> Json:
    return parties.cancel_bid(market, bid_id)


# -- sales --------------------------------------------------------------------------------


def buy_listing(
    market: Market, listing_id: str | None, slug: str | None, rune: str | None = None
) -> Json:
    """The sandbox's buyer buys `listing_id`, or the cheapest active listing of collection
    `slug`, or of `rune` (the lowest price per unit)."""
    if listing_id is None:
        if rune is not None:
            pool, field = rune_or_error(market, rune), "rune"
        elif slug is not None:
            pool, field = slug, "slug"
            collection_or_error(market, slug)
        else:
            raise MarketError(
                ErrorCode.MISSING_FIELD, "name listingId, slug, rune or bidId", field="listingId"
            )
        cheapest = active_of(market, pool)
        if not cheapest:
            raise MarketError(
                ErrorCode.LISTING_NOT_FOUND,
                f"{pool} has no active listing to buy (add one: POST /sandbox/market/listings)",
                field=field,
            )
        listing_id = cheapest[0].id
    return {"kind": "purchase", **sandbox_purchase(market, listing_id, None, None)}


def fill_with_seller(market: Market, bid_id: str, seller_label: str | None) -> Json:
    """A seller fills bid `bid_id` with an item it holds; a seller is minted a matching item
    first when none holds one."""
    with market.store.reading() as conn:
        state = bid_states(conn, [bid_id]).get(bid_id)
    if state is None or not state.is_open(market.now_ms()):
        raise MarketError(ErrorCode.BID_NOT_FOUND, f"{bid_id!r} is not an open bid", field="bidId")
    if state.type == BID_TYPE_RUNE:
        raise MarketError(ErrorCode.FILL_UNSUPPORTED, "rune bids cannot be filled here")
    seller = parties.participant(market, seller_label or DEFAULT_SELLER, sells=True)
    holders: Sequence[str] = (
        [seller.key_label] if seller_label else parties.seller_key_labels(market)
    )
    try:
        result = fill_bid(market, bid_id, None, holders)
    except MarketError as exc:
        if exc.code is not ErrorCode.FILL_NO_MATCHING_INSCRIPTION:
            raise
        try:
            new_item(market, seller, state.slug, state.trait)
        except ChainError as chain_exc:  # e.g. a range "slug": nothing to mint into
            raise exc from chain_exc
        result = fill_bid(market, bid_id, None, [seller.key_label])
    return {"kind": "fill", **result}
