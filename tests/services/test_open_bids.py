"""Open bids with their pool totals against the bidding wallet's balance (real sandbox),
whichever of our addresses the service lists them under (`BOTH_KEYINGS`)."""

from __future__ import annotations

import pytest

from app.core.bid_request import Trait
from app.core.pools import PoolKey
from app.services.bids import BidSpec, place_bid
from app.services.context import ServiceContext
from app.services.open_bids import bid_addresses, fetch_open_bids, load_open_bids
from tests.services.conftest import (
    BIDDING_FUNDS,
    BOTH_KEYINGS,
    BidsKeyedBy,
    SandboxControl,
    hour_from_now,
    keyed_address,
    other_address,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")


@BOTH_KEYINGS
async def test_pools_total_what_each_commits(
    bidder: ServiceContext, collection: str, bids_keyed_by: BidsKeyedBy
) -> None:
    fee = bidder.maker_fee
    expiry = hour_from_now(bidder)
    await place_bid(bidder, BidSpec.collection(collection, 20_000, 2, expiry))
    traits = [Trait("hat", "red"), Trait("eyes", "sleepy")]
    await place_bid(bidder, BidSpec.trait(collection, traits, 10_000, 3, expiry))
    view = await load_open_bids(bidder)
    assert len(view.bids) == 2 + 2 * 3
    assert view.balance.total == BIDDING_FUNDS and view.uncounted == ()
    totals = {p.pool: (p.bids, p.committed, p.free) for p in view.pools}
    whole = 2 * (20_000 + fee.on(20_000))
    per_trait = 3 * (10_000 + fee.on(10_000))
    assert totals == {
        PoolKey(collection): (2, whole, BIDDING_FUNDS - whole),
        PoolKey(collection, Trait("eyes", "sleepy")): (3, per_trait, BIDDING_FUNDS - per_trait),
        PoolKey(collection, Trait("hat", "red")): (3, per_trait, BIDDING_FUNDS - per_trait),
    }
    assert all(p.over_by == 0 for p in view.pools)
    assert view.inscription_bids == ()
    assert {b.listed_under for b in view.bids} == {keyed_address(bidder, bids_keyed_by)}


@BOTH_KEYINGS
async def test_bids_are_found_whichever_address_lists_them(
    bidder: ServiceContext, collection: str, bids_keyed_by: BidsKeyedBy
) -> None:
    """The service lists the bids under one address only; the other list is empty. Asking
    the ordinals address alone (as the app did) finds nothing when the payment address keys
    them: both are read and merged, each bid keeping the address it came from."""
    await place_bid(bidder, BidSpec.collection(collection, 20_000, 2, hour_from_now(bidder)))
    await place_bid(
        bidder, BidSpec.trait(collection, [Trait("hat", "blue")], 10_000, 1, hour_from_now(bidder))
    )
    market = bidder.clients.marketplace
    assert bid_addresses(bidder) == (bidder.ordinals_address, bidder.payment_address)
    keyed = await market.get_bids(keyed_address(bidder, bids_keyed_by))
    assert len(keyed) == 3
    assert await market.get_bids(other_address(bidder, bids_keyed_by)) == []
    ordinals_only = await market.get_bids(bidder.ordinals_address)
    assert len(ordinals_only) == (0 if bids_keyed_by == "payment" else 3)

    found = await fetch_open_bids(bidder)
    assert sorted(b.bid_id for b in found) == sorted(b.bid_id for b in keyed)
    assert {b.listed_under for b in found} == {keyed_address(bidder, bids_keyed_by)}


async def test_unconfirmed_funds_count_toward_the_balance(
    bidder: ServiceContext, sandbox: SandboxControl
) -> None:
    assert bidder.bidding_wallet_address is not None
    await sandbox.faucet(bidder.bidding_wallet_address, 50_000, mine=False)
    view = await load_open_bids(bidder)
    assert view.balance.unconfirmed == 50_000
    assert view.balance.total == BIDDING_FUNDS + 50_000
    assert view.pools == ()
