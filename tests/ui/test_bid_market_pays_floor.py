"""A price at or above the floor is said where a listing of the pool could be bought instead:
a collection or a rune pool; not a trait pool, whose floor is the collection's (its cheapest
item may lack the trait)."""

from __future__ import annotations

from app.core.bid_request import Trait
from app.core.market_snapshot import MarketListing, MarketSnapshot, build_snapshot
from app.core.pools import PoolKey
from app.ui.tabs.bid_market_panel import _buying_is_cheaper

LISTING = MarketListing("L1", "ab" * 32 + "i0", 20_000.0, "seller")


def snapshot(pool: PoolKey) -> MarketSnapshot:
    return build_snapshot(
        pool, [], [LISTING], own_addresses=frozenset(), own_bid_ids=frozenset(), fetched_at_ms=0
    )


def test_a_collection_pool_paying_the_floor_is_said() -> None:
    pool = snapshot(PoolKey("punks"))
    assert _buying_is_cheaper(pool, 20_000) and _buying_is_cheaper(pool, 25_000)
    assert not _buying_is_cheaper(pool, 19_000)


def test_a_trait_pool_is_not_compared_with_the_collections_floor() -> None:
    pool = snapshot(PoolKey("punks", Trait("Hat", "Crown")))
    assert not _buying_is_cheaper(pool, 25_000)
