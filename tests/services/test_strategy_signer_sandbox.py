"""The strategy signer against the real sandbox: a bid it signs inside the policy is accepted
by the service's own verifier and placed, its journal entry completed with the bid ids; a bid
outside is refused before anything is signed or sent."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.bid_request import Trait
from app.core.strategy_policy import AllowedPool, StrategyPolicy, StrategyRefusalCode
from app.services.bid_retry import matches
from app.services.bids import UNSIGNED, BidSpec, build_request
from app.services.context import ServiceContext
from app.services.open_bids import fetch_open_bids
from app.services.strategy_journal import EntryState, StrategyJournal
from app.services.strategy_policies import StrategyPolicyStore, identity_of
from app.services.strategy_signer import StrategyRefusedError, StrategySigner
from tests.services.conftest import hour_from_now

pytestmark = pytest.mark.asyncio(loop_scope="session")

HOUR_MS = 3_600_000


async def test_a_strategy_bid_is_placed_and_journaled(
    bidder: ServiceContext, collection: str, tmp_path: Path
) -> None:
    keys = bidder.signing_keys()
    now = bidder.clock.now_ms()
    policy = StrategyPolicy(
        policy_id="e2e",
        bidder=identity_of(keys),
        pools=(
            AllowedPool.collection(collection, 20_000),
            AllowedPool.trait(collection, Trait("hat", "red"), 30_000),
        ),
        max_exposure=200_000,
        maker_fee=bidder.maker_fee,
        valid_from_ms=now - HOUR_MS,
        valid_until_ms=now + 6 * HOUR_MS,
    )
    store = StrategyPolicyStore(tmp_path)
    store.approve(keys, policy)
    journal = StrategyJournal.in_profile(tmp_path)
    signer = StrategySigner(keys, store, "e2e", journal, bidder.clock)

    spec = BidSpec.trait(collection, [Trait("hat", "red")], 30_000, 2, hour_from_now(bidder))
    unsigned = build_request(bidder, spec, bidder.clock.now_ms(), UNSIGNED)
    signed = await bidder.run_cpu(signer.sign_bid, unsigned, "keep two bids on red hats")
    await bidder.clients.marketplace.place_collection_bid(signed.request)
    journal.mark_placed(signed.entry_id, bidder.clock.now_ms())

    listed = [e for e in await fetch_open_bids(bidder) if matches(e, signed.request)]
    assert len(listed) == 2
    journal.record_bid_ids(signed.entry_id, [e.bid_id for e in listed], bidder.clock.now_ms())
    entry = journal.entry(signed.entry_id)
    assert entry.state is EntryState.PLACED and len(entry.bid_ids) == 2
    assert entry.reason == "keep two bids on red hats"

    # Above the trait pool's cap: refused before signing; nothing reaches the service.
    dearer = build_request(
        bidder,
        BidSpec.trait(collection, [Trait("hat", "red")], 31_000, 1, hour_from_now(bidder)),
        bidder.clock.now_ms(),
        UNSIGNED,
    )
    with pytest.raises(StrategyRefusedError) as refused:
        await bidder.run_cpu(signer.sign_bid, dearer, "chase the top bid")
    assert refused.value.verdict.codes == (StrategyRefusalCode.PRICE_ABOVE_CAP,)
    after = [e for e in await fetch_open_bids(bidder) if e.collection_slug == collection]
    assert len(after) == 2
