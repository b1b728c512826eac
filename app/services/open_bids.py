"""Our open bids (`GET /address/bids`) with what each bid pool commits against the balance.

Whose bids: the spec lists bids by the ordinals address, but which address the public service
keys them by (the ordinals address, or the payment address that signs them) is not
documented. So both are asked (one, when they are the same address) and the lists merged by
bid id, the ordinals address's first; each entry keeps the address it was listed under
(`listed_under`), the maker a cancel must name. Either list failing fails the read: the retry
rule must never take an unread list for "not placed".

A pool is a collection (or rune, or `sub1k`-style range) or one trait of a collection (spec
section 1); a rune's pool goes by its etched spelling (`rune_names`). Single-inscription bids
are paid from the payment address, not the bidding wallet, so they are listed but belong to
no pool.

The pools count the context's maker fee; the view names it with where it came from
(`maker_fee`, `app.services.maker_fee`) so every figure can say what it assumed.

Each bid is the client's `BidListEntry` as parsed from the service's list; it is named here
too, the type the window shows and previews against.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from app.core.bid_request import Trait
from app.core.pools import MakerFee, OpenBid, PoolKey, committed_by_pool
from app.net.marketplace_bids import BidListEntry
from app.services.bidding_wallet import BiddingWalletBalance, bidding_wallet_balance
from app.services.context import ServiceContext
from app.services.maker_fee import NOTHING_KNOWN, AssumedMakerFee
from app.services.rune_names import with_canonical_rune_names

__all__ = [
    "INDIVIDUAL_BID_TYPE",
    "BidListEntry",
    "OpenBidsView",
    "PoolTotal",
    "bid_addresses",
    "fetch_open_bids",
    "listed_bids",
    "load_open_bids",
    "merge_by_bid_id",
    "pool_key_of",
    "pool_totals",
    "pooled_bids",
]

INDIVIDUAL_BID_TYPE = "individual"


@dataclass(frozen=True)
class PoolTotal:
    """One pool: its open bids and what they commit (prices plus maker fee) vs the balance."""

    pool: PoolKey
    bids: int
    committed: int
    balance: int

    @property
    def free(self) -> int:
        return max(0, self.balance - self.committed)

    @property
    def over_by(self) -> int:
        """How far the pool exceeds the balance (a fill or withdrawal may cause it)."""
        return max(0, self.committed - self.balance)


@dataclass(frozen=True)
class OpenBidsView:
    bids: tuple[BidListEntry, ...]
    pools: tuple[PoolTotal, ...]
    balance: BiddingWalletBalance
    uncounted: tuple[str, ...]  # bid ids the service listed without a price
    # the maker fee the pools count, and where it came from
    maker_fee: AssumedMakerFee = NOTHING_KNOWN

    @property
    def inscription_bids(self) -> tuple[BidListEntry, ...]:
        return tuple(b for b in self.bids if pool_key_of(b) is None)


def pool_key_of(entry: BidListEntry) -> PoolKey | None:
    """The pool a listed bid belongs to; None for a single-inscription bid."""
    if entry.type == INDIVIDUAL_BID_TYPE or entry.inscription_id is not None:
        return None
    slug = entry.rune_name if entry.is_rune_bid else entry.collection_slug
    slug = slug or entry.collection_slug or entry.rune_name
    if slug is None:
        return None
    trait = None
    if entry.attribute is not None:
        trait = Trait(entry.attribute.trait_type, entry.attribute.value)
    return PoolKey(slug, trait)


def pooled_bids(entries: Iterable[BidListEntry]) -> tuple[list[OpenBid], list[str]]:
    """Listed bids as `OpenBid`s for the pool arithmetic, and the ids that lack a price."""
    pooled, uncounted = [], []
    for entry in entries:
        pool = pool_key_of(entry)
        if pool is None:
            continue
        if entry.price is None:
            uncounted.append(entry.bid_id)
            continue
        pooled.append(OpenBid(entry.bid_id, pool, entry.price, 0))
    return pooled, uncounted


def pool_totals(
    entries: Sequence[BidListEntry], balance_sats: int, fee: MakerFee
) -> tuple[PoolTotal, ...]:
    pooled, _ = pooled_bids(entries)
    counts = Counter(b.pool for b in pooled)
    return tuple(
        PoolTotal(pool, counts[pool], committed, balance_sats)
        for pool, committed in committed_by_pool(pooled, fee).items()
    )


def bid_addresses(ctx: ServiceContext) -> tuple[str, ...]:
    """The addresses the service may list our bids under: ordinals, then payment."""
    return tuple(dict.fromkeys((ctx.ordinals_address, ctx.payment_address)))


def merge_by_bid_id(lists: Iterable[Sequence[BidListEntry]]) -> list[BidListEntry]:
    """One entry per bid id, in order; a bid listed twice keeps its first listing."""
    merged: dict[str, BidListEntry] = {}
    for entries in lists:
        for entry in entries:
            merged.setdefault(entry.bid_id, entry)
    return list(merged.values())


async def listed_bids(ctx: ServiceContext) -> list[BidListEntry]:
    """Our open bids as the service lists them, under either address, merged by bid id."""
    market = ctx.clients.marketplace
    lists = await asyncio.gather(*(market.get_bids(a) for a in bid_addresses(ctx)))
    return merge_by_bid_id(lists)


async def fetch_open_bids(ctx: ServiceContext) -> list[BidListEntry]:
    """Our open bids (spec 4.5), under either address, each rune bid under its etched name."""
    return await with_canonical_rune_names(ctx, await listed_bids(ctx))


async def load_open_bids(ctx: ServiceContext) -> OpenBidsView:
    """Open bids, the bidding wallet's balance and every pool's total against it."""
    entries = await fetch_open_bids(ctx)
    balance = await bidding_wallet_balance(ctx)
    _, uncounted = pooled_bids(entries)
    pools = pool_totals(entries, balance.total, ctx.maker_fee)
    return OpenBidsView(tuple(entries), pools, balance, tuple(uncounted), ctx.assumed_maker_fee)
