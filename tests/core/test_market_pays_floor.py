"""`pays_the_floor`: a price at or above the floor is told where a listing of the pool could
be bought instead (a collection or a rune pool); never in a trait pool, whose floor is the
collection's (its cheapest item may lack the trait)."""

from __future__ import annotations

from app.core.bid_request import Trait
from app.core.market_snapshot import (
    MarketListing,
    MarketSnapshot,
    build_snapshot,
    pays_the_floor,
)
from app.core.pools import PoolKey

LISTING = MarketListing("L1", "ab" * 32 + "i0", 20_000.0, "seller")


def snapshot(pool: PoolKey) -> MarketSnapshot:
    return build_snapshot(
        pool, [], [LISTING], own_addresses=frozenset(), own_bid_ids=frozenset(), fetched_at_ms=0
    )


def test_a_collection_pool_paying_the_floor_is_said() -> None:
    pool = snapshot(PoolKey("punks"))
    assert pays_the_floor(pool, 20_000) and pays_the_floor(pool, 25_000)
    assert not pays_the_floor(pool, 19_000)


def test_a_trait_pool_is_not_compared_with_the_collections_floor() -> None:
    pool = snapshot(PoolKey("punks", Trait("Hat", "Crown")))
    assert not pays_the_floor(pool, 25_000)
