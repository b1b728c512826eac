"""Which pool a listed bid belongs to, across the list shapes the services use (pure)."""

from __future__ import annotations

from app.core.bid_request import Trait
from app.core.pools import MakerFee, PoolKey
from app.net.marketplace_bids import BidListEntry, BidTrait
from app.services.open_bids import pool_key_of, pool_totals, pooled_bids


def test_pool_of_each_kind_of_listed_bid() -> None:
    collection = BidListEntry("a", type="collection", price=1_000, collection_slug="pals")
    trait = BidListEntry(
        "b",
        type="collection",
        price=1_000,
        collection_slug="pals",
        attribute=BidTrait("hat", "red"),
    )
    rune = BidListEntry(
        "c", type="rune", price=20_000, collection_slug="DOG•GO", rune_name="DOG•GO"
    )
    single = BidListEntry("d", type="individual", price=50_000, inscription_id="ab" * 32 + "i0")
    assert pool_key_of(collection) == PoolKey("pals")
    assert pool_key_of(trait) == PoolKey("pals", Trait("hat", "red"))
    assert pool_key_of(rune) == PoolKey("DOG•GO")
    assert pool_key_of(single) is None  # paid from the payment address, not the wallet


def test_a_bid_listed_without_a_price_is_reported_not_guessed() -> None:
    entries = [
        BidListEntry("a", type="collection", price=3_000, collection_slug="pals"),
        BidListEntry("b", type="collection", price=None, collection_slug="pals"),
    ]
    pooled, uncounted = pooled_bids(entries)
    assert [b.bid_id for b in pooled] == ["a"] and uncounted == ["b"]
    (total,) = pool_totals(entries, 3_500, MakerFee(0, 1_000))
    assert (total.bids, total.committed, total.over_by, total.free) == (1, 4_000, 500, 0)
