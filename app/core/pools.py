"""Bid pools (spec section 1): how much of the bidding wallet each pool of open bids commits.

A pool is a collection slug (or a rune name, or a `sub1k`/`sub10k`/`sub100k` range), or one
trait within a collection. The open bids of one pool, plus the maker fee on each, must fit
within the wallet balance; each pool may use the full balance independently.

A request adds to its pools: a plain collection or range bid adds `quantity` bids at `price`
to the collection's pool; a trait bid adds `quantity` bids at `price` to *each* of its traits'
pools; a rune bid adds one bid whose price is the total for its `quantity` units.

Maker fee: `MakerFee(basis_points, flat_sats)` per bid, `ceil(price * basis_points / 10_000)
+ flat_sats`, rounded up so a pool is never under-counted. It is a required argument on
purpose: the spec does not give the fee and a silent zero would let bids the service refuses
through the app's pre-flight check.

After a fill (`bids_to_cancel`), within each pool the bids are kept in priority order, highest
price first, then oldest (`created_at_ms`), then smallest `bid_id` (to be total), each kept
while it still fits next to the ones kept before it; the rest are cancelled. Highest price
first keeps the bids most likely to fill, the ones the user valued most; a cheaper bid further
down that still fits is kept too, so no balance is left idle that could cover it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from app.core.bid_request import BidKind, CollectionBidRequest, Trait
from app.core.errors import CoreError, ErrorCode, RuleViolation


class InvalidPoolInput(CoreError, ValueError):
    """A negative balance or fee, or two open bids with the same id."""


@dataclass(frozen=True)
class PoolKey:
    collection_slug: str
    trait: Trait | None = None

    def __str__(self) -> str:
        if self.trait is None:
            return self.collection_slug
        return f"{self.collection_slug} [{self.trait.trait_type}: {self.trait.value}]"

    def sort_key(self) -> tuple[str, bool, str, str]:
        if self.trait is None:
            return (self.collection_slug, False, "", "")
        return (self.collection_slug, True, self.trait.trait_type, self.trait.value)


@dataclass(frozen=True)
class MakerFee:
    basis_points: int
    flat_sats: int

    def __post_init__(self) -> None:
        if self.basis_points < 0 or self.flat_sats < 0:
            raise InvalidPoolInput("maker fee basis_points and flat_sats must not be negative")

    def on(self, price: int) -> int:
        """The fee on one bid of `price` sats, rounded up to a whole sat."""
        return -(-price * self.basis_points // 10_000) + self.flat_sats


@dataclass(frozen=True)
class OpenBid:
    bid_id: str
    pool: PoolKey
    price: int
    created_at_ms: int


def bid_cost(price: int, fee: MakerFee) -> int:
    """What one bid commits from the balance: its price plus the maker fee on it."""
    return price + fee.on(price)


def request_pools(req: CollectionBidRequest) -> dict[PoolKey, int]:
    """How many new bids at `req.price` the request adds to each pool."""
    if req.kind is BidKind.RUNE:
        return {PoolKey(req.collection_slug): 1}
    traits = req.traits()
    if not traits:
        return {PoolKey(req.collection_slug): req.quantity}
    added: dict[PoolKey, int] = defaultdict(int)
    for trait in traits:  # a duplicate trait (rejected by validation) would add twice
        added[PoolKey(req.collection_slug, trait)] += req.quantity
    return dict(added)


def committed_by_pool(open_bids: Iterable[OpenBid], fee: MakerFee) -> dict[PoolKey, int]:
    """Sats committed per pool: the open bids' prices plus the maker fee on each."""
    committed: dict[PoolKey, int] = defaultdict(int)
    for bid in open_bids:
        committed[bid.pool] += bid_cost(bid.price, fee)
    return dict(sorted(committed.items(), key=lambda item: item[0].sort_key()))


@dataclass(frozen=True)
class PoolUsage:
    """One pool a request touches: what is committed, what it adds, against the balance."""

    pool: PoolKey
    committed: int
    adding: int
    available: int

    @property
    def needed(self) -> int:
        return self.committed + self.adding

    @property
    def shortfall(self) -> int:
        return max(0, self.needed - self.available)


@dataclass(frozen=True)
class FitReport:
    pools: tuple[PoolUsage, ...]

    @property
    def fits(self) -> bool:
        return all(p.shortfall == 0 for p in self.pools)

    @property
    def short_pools(self) -> tuple[PoolUsage, ...]:
        return tuple(p for p in self.pools if p.shortfall > 0)

    def violations(self) -> list[RuleViolation]:
        """COLLECTION_BID_POOL_INSUFFICIENT_BALANCE for each pool that does not fit."""
        return [
            RuleViolation(
                ErrorCode.COLLECTION_BID_POOL_INSUFFICIENT_BALANCE,
                "",
                f"Pool {p.pool} would need {p.needed:,} sats (open bids and maker fee included) "
                f"but the bidding wallet holds {p.available:,}: add {p.shortfall:,} sats, or "
                f"lower the price or quantity.",
                {
                    "pool": str(p.pool),
                    "needed": p.needed,
                    "available": p.available,
                    "shortfall": p.shortfall,
                },
            )
            for p in self.short_pools
        ]


def _check_balance(balance_sats: int) -> None:
    if balance_sats < 0:
        raise InvalidPoolInput(f"balance must not be negative, got {balance_sats}")


def check_request_fits(
    balance_sats: int,
    open_bids: Iterable[OpenBid],
    req: CollectionBidRequest,
    fee: MakerFee,
) -> FitReport:
    """Whether `req`'s new bids fit in every pool they join, each pool against the balance."""
    _check_balance(balance_sats)
    committed = committed_by_pool(open_bids, fee)
    added = request_pools(req)
    usages = (
        PoolUsage(pool, committed.get(pool, 0), count * bid_cost(req.price, fee), balance_sats)
        for pool, count in added.items()
    )
    return FitReport(tuple(sorted(usages, key=lambda u: u.pool.sort_key())))


def _priority(bid: OpenBid) -> tuple[int, int, str]:
    return (-bid.price, bid.created_at_ms, bid.bid_id)


def bids_to_cancel(balance_sats: int, open_bids: Iterable[OpenBid], fee: MakerFee) -> list[OpenBid]:
    """The open bids `balance_sats` no longer covers, by the rule in the module docstring.

    Returned pool by pool (pools in `PoolKey.sort_key` order), each in priority order.
    """
    _check_balance(balance_sats)
    by_pool: Mapping[PoolKey, list[OpenBid]] = _group_by_pool(open_bids)
    cancel: list[OpenBid] = []
    for pool in sorted(by_pool, key=PoolKey.sort_key):
        kept = 0
        for bid in sorted(by_pool[pool], key=_priority):
            cost = bid_cost(bid.price, fee)
            if kept + cost <= balance_sats:
                kept += cost
            else:
                cancel.append(bid)
    return cancel


def _group_by_pool(open_bids: Iterable[OpenBid]) -> dict[PoolKey, list[OpenBid]]:
    groups: dict[PoolKey, list[OpenBid]] = defaultdict(list)
    seen: set[str] = set()
    for bid in open_bids:
        if bid.bid_id in seen:
            raise InvalidPoolInput(f"bid id {bid.bid_id!r} appears twice among the open bids")
        seen.add(bid.bid_id)
        groups[bid.pool].append(bid)
    return groups
