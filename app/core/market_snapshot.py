"""A pool's market at one moment: floor, top bid, depth per price level and where our bids rank.

Input: the bids and listings the marketplace lists (already parsed), our addresses and our bid
ids. A bid or listing is ours when its id is one of our bid ids or its address one of ours (the
service may show the payment address or the bidding wallet's: the caller passes all of them).

Which bids belong to the pool (a page of `/activity/bids` mixes them):
- a collection pool (`PoolKey(slug)`, not a rune): collection-wide bids only (not trait bids);
- a trait pool (`PoolKey(slug, trait)`): bids on exactly that trait;
- a rune pool (`PoolKey(rune name)`): rune bids of that rune, names compared whatever their
  spacers (`app.core.rune_names.same_rune`).
A bid that names its collection (`collection_slug`) must name the pool's; one that does not is
taken as the page's own. Listings are the collection's (no listing names a trait).

Rank (the marketplace fills the highest price first): a bid's rank is 1 + the units of OTHER
bids priced strictly higher, so bids tied at a price share a rank, and a bid is the top bid when
no other bid is priced strictly above it (a tie at the top is still the top). Our own bids never
outrank each other: the question is who fills before us. `of` counts every unit in the pool.

Prices: `unit_price` is sats per item (per rune unit for runes: a rune bid's price on the wire is
the total). The shortcuts (`floor_minus_percent`, `top_bid_plus_step`) give an ordinals price on
the bid step grid (`app.core.limits`); a rune pool has no per-unit step, so they give None there,
and neither gives a price above all the bitcoin there is (`limits.MAX_MONEY_SATS`: a market that
says so is wrong). Market data is what the service says, unsigned: `pays_the_floor` tells a
price that would buy the cheapest listing for less, which the window says before signing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, Literal

from app.core import limits
from app.core.bid_request import Trait
from app.core.errors import CoreError
from app.core.pools import PoolKey
from app.core.rune_names import RUNE_SPACER_LOOKALIKES, rune_letters

BidKindName = Literal["collection", "trait", "rune"]
BID_KINDS: Final[tuple[BidKindName, ...]] = ("collection", "trait", "rune")


class InvalidMarketInput(CoreError, ValueError):
    """A percentage or a unit count the market maths cannot take."""


@dataclass(frozen=True)
class MarketBid:
    bid_id: str
    unit_price: float  # sats per item; per rune unit for runes
    units: int  # items, or rune units
    bidder: str
    kind: BidKindName
    trait: Trait | None
    expires_at_ms: int | None
    collection_slug: str | None = None  # the slug (or rune name) the row names, when it does


@dataclass(frozen=True)
class MarketListing:
    listing_id: str
    inscription_id: str
    unit_price: float
    seller: str
    units: int = 1  # rune units for a rune listing
    collection_slug: str | None = None  # the slug (or rune name) the row names, when it does


@dataclass(frozen=True)
class PriceLevel:
    unit_price: float
    units: int
    mine: int  # units of ours at that price


@dataclass(frozen=True)
class BidRank:
    bid_id: str  # "" for a price being typed (`rank_for_price`)
    unit_price: float
    rank: int  # 1 = top: 1 + units of OTHER bids priced strictly higher
    of: int  # every unit in the pool
    below_top: float  # top other bid - ours, >= 0
    is_top: bool  # no other bid strictly higher


@dataclass(frozen=True)
class MarketSnapshot:
    pool: PoolKey
    floor: float | None  # lowest listing not ours
    top_bid: float | None  # highest bid not ours
    bid_levels: tuple[PriceLevel, ...]  # highest first, ours included (counted in `mine`)
    ask_levels: tuple[PriceLevel, ...]  # lowest first
    bid_units: int
    listing_count: int
    spread: float | None  # floor - top_bid
    my_ranks: tuple[BidRank, ...]  # highest price first
    fetched_at_ms: int
    skipped_rows: int
    is_rune: bool = False
    # What the service counts on each side, when it says (more than was read: the depth shown
    # is the top of the book); None when it does not say.
    bids_total: int | None = None
    listings_total: int | None = None


def is_rune_pool(pool: PoolKey) -> bool:
    """Whether a pool names a rune: no trait, and only capital letters and spacers (a collection
    slug is lower-case; ord's rune names are upper-case)."""
    if pool.trait is not None:
        return False
    letters = rune_letters(pool.collection_slug)
    bare = "".join(ch for ch in pool.collection_slug if ch not in RUNE_SPACER_LOOKALIKES)
    return bool(letters) and bare == letters and letters.isascii() and letters.isalpha()


def _in_pool(bid: MarketBid, pool: PoolKey, rune: bool) -> bool:
    named = bid.collection_slug
    if rune:
        return bid.kind == "rune" and (
            named is None or rune_letters(named) == rune_letters(pool.collection_slug)
        )
    if named is not None and named != pool.collection_slug:
        return False
    if pool.trait is None:
        return bid.kind == "collection"
    return bid.kind == "trait" and bid.trait == pool.trait


def build_snapshot(
    pool: PoolKey,
    bids: Iterable[MarketBid],
    listings: Iterable[MarketListing],
    *,
    own_addresses: frozenset[str],
    own_bid_ids: frozenset[str],
    fetched_at_ms: int,
    skipped_rows: int = 0,
    rune: bool | None = None,
    bids_total: int | None = None,
    listings_total: int | None = None,
) -> MarketSnapshot:
    """The pool's market from the rows read; `rune` None: told from the pool's name."""
    is_rune = is_rune_pool(pool) if rune is None else rune
    bid_units: dict[float, int] = {}
    bid_mine: dict[float, int] = {}
    mine: list[MarketBid] = []
    total_units = 0
    for bid in bids:
        if bid.units < 1 or not _in_pool(bid, pool, is_rune):
            continue
        price = bid.unit_price
        bid_units[price] = bid_units.get(price, 0) + bid.units
        total_units += bid.units
        if bid.bid_id in own_bid_ids or bid.bidder in own_addresses:
            bid_mine[price] = bid_mine.get(price, 0) + bid.units
            mine.append(bid)
    bid_levels = tuple(
        PriceLevel(price, bid_units[price], bid_mine.get(price, 0))
        for price in sorted(bid_units, reverse=True)
    )
    ask_units: dict[float, int] = {}
    ask_mine: dict[float, int] = {}
    listing_count = 0
    for listing in listings:
        price = listing.unit_price
        ask_units[price] = ask_units.get(price, 0) + listing.units
        listing_count += 1
        if listing.seller in own_addresses:
            ask_mine[price] = ask_mine.get(price, 0) + listing.units
    ask_levels = tuple(
        PriceLevel(price, ask_units[price], ask_mine.get(price, 0)) for price in sorted(ask_units)
    )
    floor = next((lv.unit_price for lv in ask_levels if lv.units > lv.mine), None)
    others_above = _others_strictly_above(bid_levels)
    top_bid = next((lv.unit_price for lv in bid_levels if lv.units > lv.mine), None)
    my_ranks = tuple(
        _rank(bid.bid_id, bid.unit_price, others_above[bid.unit_price], total_units, top_bid)
        for bid in sorted(mine, key=lambda b: (-b.unit_price, b.bid_id))
    )
    return MarketSnapshot(
        pool=pool,
        floor=floor,
        top_bid=top_bid,
        bid_levels=bid_levels,
        ask_levels=ask_levels,
        bid_units=total_units,
        listing_count=listing_count,
        spread=None if floor is None or top_bid is None else floor - top_bid,
        my_ranks=my_ranks,
        fetched_at_ms=fetched_at_ms,
        skipped_rows=skipped_rows,
        is_rune=is_rune,
        bids_total=bids_total,
        listings_total=listings_total,
    )


def _others_strictly_above(levels: tuple[PriceLevel, ...]) -> dict[float, int]:
    """Per level price (highest first), the units of other bids priced strictly above it."""
    above: dict[float, int] = {}
    running = 0
    for level in levels:
        above[level.unit_price] = running
        running += level.units - level.mine
    return above


def _rank(bid_id: str, price: float, above: int, of: int, top: float | None) -> BidRank:
    return BidRank(
        bid_id=bid_id,
        unit_price=price,
        rank=1 + above,
        of=of,
        below_top=0.0 if top is None else max(0.0, top - price),
        is_top=above == 0,
    )


def rank_of(snapshot: MarketSnapshot, bid_id: str) -> BidRank | None:
    """Our bid's rank in the snapshot (the Open bids tab's column); None when the snapshot does
    not hold it (not in this pool, or beyond the orders read)."""
    return next((r for r in snapshot.my_ranks if r.bid_id == bid_id), None)


def rank_for_price(snapshot: MarketSnapshot, unit_price: float, units: int = 1) -> BidRank:
    """Where a new bid of `units` at `unit_price` would rank among the other bids; `of` counts
    the pool's units with the new ones."""
    if units < 1:
        raise InvalidMarketInput(f"a bid has at least one unit, got {units}")
    above = sum(lv.units - lv.mine for lv in snapshot.bid_levels if lv.unit_price > unit_price)
    return _rank("", unit_price, above, snapshot.bid_units + units, snapshot.top_bid)


def floor_minus_percent(snapshot: MarketSnapshot, percent: float) -> int | None:
    """The floor less `percent` %, rounded down to the bid step; None without a floor, for a
    rune pool, or when that falls below the lowest ordinals price."""
    if not 0 <= percent < 100:
        raise InvalidMarketInput(f"the percentage must be at least 0 and below 100, got {percent}")
    if snapshot.floor is None or snapshot.is_rune:
        return None
    # Exact arithmetic: 10.1 % of a floor must not land a sat under a step through float error.
    exact = Fraction(snapshot.floor) * (100 - Fraction(str(percent))) / 100
    price = limits.price_step_at_or_below(exact)
    return price if limits.MIN_ORDINALS_PRICE_SATS <= price <= limits.MAX_MONEY_SATS else None


def top_bid_plus_step(snapshot: MarketSnapshot) -> int | None:
    """The lowest price on the bid step grid strictly above the top other bid (one step above it
    when it is on the grid); None without another bid, for a rune pool, or above all the
    bitcoin there is. It may reach the floor: `pays_the_floor` says so."""
    if snapshot.top_bid is None or snapshot.is_rune:
        return None
    price = max(limits.MIN_ORDINALS_PRICE_SATS, limits.price_step_above(snapshot.top_bid))
    return price if price <= limits.MAX_MONEY_SATS else None


def pays_the_floor(snapshot: MarketSnapshot, unit_price: float) -> bool:
    """Whether a bid at `unit_price` (per item, per rune unit for runes) pays at least the
    floor, the cheapest listing not ours: buying that listing would cost no more. Never for a
    trait pool: its floor is the collection's, whose cheapest item may lack the trait."""
    if snapshot.pool.trait is not None:
        return False
    return snapshot.floor is not None and unit_price >= snapshot.floor
