"""A pool's market end to end against the real sandbox: its other participants list and bid
through the scenario API (`/sandbox/market/...`), we bid through the use cases, and
`read_pool_market` reads `/v1/activity/*` as the public service would serve them: the floor,
the top bid, the depth and our rank follow a competitor's bid and a floor that drops. The
client's other market reads (stats, floors, wallet contents) parse the sandbox's answers."""

from __future__ import annotations

import secrets
from typing import Any

import pytest

from app.core.bid_request import Trait
from app.core.market_snapshot import (
    BidRank,
    MarketSnapshot,
    PriceLevel,
    floor_minus_percent,
    rank_for_price,
    top_bid_plus_step,
)
from app.core.pools import PoolKey
from app.services.bids import BidSpec, place_bid
from app.services.context import ServiceContext
from app.services.market import MarketReader, read_own_orders, read_pool_market
from tests.services.conftest import SandboxControl, hour_from_now

pytestmark = pytest.mark.asyncio(loop_scope="session")


def rival() -> str:
    """A new sandbox bidder (each keeps the 500 ms bid rate of its own)."""
    return f"rival-{secrets.token_hex(6)}"


async def scenario(sandbox: SandboxControl, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = await sandbox.http.post(f"/sandbox/market/{path}", json=body)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


async def competing_bid(
    sandbox: SandboxControl, slug: str, price: int, quantity: int = 1, **more: Any
) -> str:
    body = {"kind": "collection", "slug": slug, "price": price, "quantity": quantity,
            "bidder": rival(), "fundSats": 10_000_000, **more}  # fmt: skip
    data = await scenario(sandbox, "bids", body)
    return str(data["bidIds"][0])


async def snapshot_of(ctx: ServiceContext, pool: PoolKey) -> MarketSnapshot:
    own = await read_own_orders(ctx)
    return await read_pool_market(ctx, pool, own_addresses=own.addresses, own_bid_ids=own.bid_ids)


async def test_floor_top_bid_depth_and_our_rank_follow_the_market(
    bidder: ServiceContext, sandbox: SandboxControl, collection: str
) -> None:
    pool = PoolKey(collection)
    await scenario(sandbox, "listings", {"slug": collection, "price": 30_000})
    await scenario(sandbox, "listings", {"slug": collection, "price": 25_000})
    await competing_bid(sandbox, collection, 5_000, quantity=2)
    await competing_bid(sandbox, collection, 8_000)
    blue = {"kind": "trait", "trait": {"trait_type": "hat", "value": "red"}}
    await competing_bid(sandbox, collection, 9_000, **blue)
    await place_bid(bidder, BidSpec.collection(collection, 6_000, 1, hour_from_now(bidder)))

    market = await snapshot_of(bidder, pool)

    assert (market.floor, market.top_bid, market.spread) == (25_000, 8_000, 17_000)
    assert market.bid_levels == (
        PriceLevel(8_000, 1, 0),
        PriceLevel(6_000, 1, 1),
        PriceLevel(5_000, 2, 0),
    )
    assert market.ask_levels == (PriceLevel(25_000, 1, 0), PriceLevel(30_000, 1, 0))
    (mine,) = market.my_ranks
    assert (mine.rank, mine.of, mine.below_top, mine.is_top) == (2, 4, 2_000.0, False)
    # the service counts every bid row of the collection: the trait bid's too
    assert (market.bids_total, market.listings_total, market.skipped_rows) == (5, 2, 0)
    assert top_bid_plus_step(market) == 9_000
    assert floor_minus_percent(market, 10) == 22_000
    assert rank_for_price(market, 9_000) == BidRank("", 9_000, 1, 5, 0.0, True)

    trait = await snapshot_of(bidder, PoolKey(collection, Trait("hat", "red")))
    assert (trait.top_bid, trait.bid_units, trait.my_ranks) == (9_000, 1, ())

    # a competitor outbids us, and the floor drops
    await competing_bid(sandbox, collection, 7_000)
    await scenario(sandbox, "floor", {"slug": collection, "price": 20_000})
    moved = await snapshot_of(bidder, pool)
    assert moved.floor == 20_000
    (mine,) = moved.my_ranks
    assert (mine.rank, mine.of) == (3, 5)


async def test_the_reader_caches_the_pool(
    bidder: ServiceContext, sandbox: SandboxControl, sandbox_sleeper: Any, collection: str
) -> None:
    await competing_bid(sandbox, collection, 4_000)
    reader = MarketReader(lambda: bidder, sleeper=sandbox_sleeper, clock=bidder.clock)
    held = await reader.refresh(PoolKey(collection))
    assert not held.stale and held.snapshot is not None and held.snapshot.top_bid == 4_000
    assert reader.cached(PoolKey(collection)) == held


async def test_a_rune_pool(bidder: ServiceContext, sandbox: SandboxControl) -> None:
    letters = "".join(secrets.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(14))
    spaced = f"{letters[:7]}•{letters[7:]}"
    await sandbox.etch_runes(bidder.ordinals_address, spaced, 1_000_000)
    body = {"kind": "rune", "rune": spaced, "price": 50_000, "quantity": 100_000,
            "bidder": rival(), "fundSats": 10_000_000}  # fmt: skip
    await scenario(sandbox, "bids", body)
    market = await snapshot_of(bidder, PoolKey(letters))  # typed without its spacer
    assert market.is_rune and market.top_bid == 0.5 and market.bid_units == 100_000
    assert top_bid_plus_step(market) is None


async def test_stats_floors_and_wallet_contents_parse_the_sandbox(
    ctx: ServiceContext, sandbox: SandboxControl, collection: str
) -> None:
    market = ctx.clients.marketplace
    await sandbox.inscribe(ctx.ordinals_address, collection, {"hat": "red"})
    await scenario(sandbox, "listings", {"slug": collection, "price": 42_000})
    stats = await market.get_collection_stats(collection)
    assert stats is not None and (stats.slug, stats.floor, stats.listed_count) == (
        collection,
        42_000,
        1,
    )
    assert await market.get_collection_stats(f"none-{secrets.token_hex(4)}") is None
    floors = await market.get_collection_floors("ordinals", [collection])
    assert [(f.slug, f.floor) for f in floors.floors] == [(collection, 42_000)]
    held = await market.get_wallet_contents(ctx.ordinals_address)
    assert [i.collection_slug for i in held.inscriptions] == [collection] and held.skipped == 0
