"""A strategy's bid placed by the spec's retry rules against the real sandbox, faults injected
by a proxy: each attempt is a new signature by the strategy signer, and each journal entry is
completed with what the service said (placed, rejected, not placed, unknown)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.bid_request import Trait
from app.core.strategy_policy import AllowedPool, StrategyPolicy, StrategyRefusalCode
from app.services.bids import BidSpec
from app.services.context import ServiceContext
from app.services.errors import BidNotPlacedError, BidRequestRefusedError
from app.services.open_bids import fetch_open_bids
from app.services.strategy_journal import EntryState, StrategyJournal
from app.services.strategy_placement import place_strategy_bid
from app.services.strategy_policies import StrategyPolicyStore, identity_of
from app.services.strategy_signer import StrategyRefusedError, StrategySigner
from tests.services.conftest import ContextFactory, hour_from_now
from tests.support.proxy import Fault, FaultProxy

pytestmark = pytest.mark.asyncio(loop_scope="session")
S = EntryState
PLACE = "/v1/bid/place"
HOUR_MS = 3_600_000
PRICE = 10_000
RED = Trait("hat", "red")


class Strategy:
    def __init__(self, ctx: ServiceContext, collection: str, tmp_path: Path, bids: int) -> None:
        keys = ctx.signing_keys()
        now = ctx.clock.now_ms()
        cost = PRICE + ctx.maker_fee.on(PRICE)
        policy = StrategyPolicy(
            policy_id="place",
            bidder=identity_of(keys),
            pools=(
                AllowedPool.collection(collection, PRICE),
                AllowedPool.trait(collection, RED, PRICE),
            ),
            max_exposure=bids * cost,  # room for exactly `bids` bids
            maker_fee=ctx.maker_fee,
            valid_from_ms=now - HOUR_MS,
            valid_until_ms=now + 6 * HOUR_MS,
        )
        store = StrategyPolicyStore(tmp_path)
        store.approve(keys, policy)
        self.ctx = ctx
        self.journal = StrategyJournal.in_profile(tmp_path)
        self.signer = StrategySigner(keys, store, "place", self.journal, ctx.clock)
        self.spec = BidSpec.collection(collection, PRICE, 1, hour_from_now(ctx))

    async def place(self, reason: str = "keep one bid") -> list[int]:
        outcome = await place_strategy_bid(self.ctx, self.signer, self.journal, self.spec, reason)
        return list(outcome.entry_ids)

    def states(self) -> list[EntryState]:
        return [e.state for e in reversed(self.journal.entries("place"))]


@pytest.fixture
async def proxied(
    make_context: ContextFactory, bidder: ServiceContext, proxy: FaultProxy
) -> ServiceContext:
    ctx = make_context(bidder.keys, proxy.url)
    await fetch_open_bids(ctx)  # the bidding wallet is known before the faults
    return ctx


async def test_placed_at_once_with_its_bid_ids(
    proxied: ServiceContext, collection: str, tmp_path: Path
) -> None:
    strategy = Strategy(proxied, collection, tmp_path, bids=2)
    spec = BidSpec.trait(collection, [RED], PRICE, 2, hour_from_now(proxied))
    outcome = await place_strategy_bid(proxied, strategy.signer, strategy.journal, spec, "two")
    (entry_id,) = outcome.entry_ids
    entry = strategy.journal.entry(entry_id)
    assert entry.state is S.PLACED and entry.outcome == "placed"
    assert len(entry.bid_ids) == 2 and set(entry.bid_ids) == set(outcome.bid_ids)


async def test_a_429_is_rejected_and_its_exposure_freed_for_the_retry(
    proxied: ServiceContext, collection: str, proxy: FaultProxy, tmp_path: Path
) -> None:
    strategy = Strategy(proxied, collection, tmp_path, bids=1)  # no room for a second one
    limited = {"errorCode": "SUBMIT_BID_RATE_LIMITED", "message": "slow", "retryAfterMs": 500}
    proxy.add_fault(Fault.reply("POST", PLACE, 429, limited))
    await strategy.place()
    assert strategy.states() == [S.REJECTED, S.PLACED]
    assert len(proxy.requests("POST", PLACE)) == 2


async def test_stored_then_502_is_one_placed_entry(
    proxied: ServiceContext, collection: str, proxy: FaultProxy, tmp_path: Path
) -> None:
    strategy = Strategy(proxied, collection, tmp_path, bids=1)
    proxy.add_fault(Fault.after_forward("POST", PLACE, 502))
    await strategy.place()
    assert strategy.states() == [S.PLACED]
    (entry,) = strategy.journal.entries("place")
    assert entry.outcome is not None and entry.outcome.startswith("found among open bids")
    assert len(entry.bid_ids) == 1


async def test_not_stored_503_counts_until_its_message_is_too_old(
    proxied: ServiceContext, collection: str, proxy: FaultProxy, tmp_path: Path
) -> None:
    """The message of a 5xx not found among the open bids could still land: it keeps its
    share of the exposure, so with room for one bid the retry is refused by the policy."""
    strategy = Strategy(proxied, collection, tmp_path, bids=1)
    proxy.add_fault(Fault.reply("POST", PLACE, 503, {"message": "overloaded"}))
    with pytest.raises(StrategyRefusedError) as refused:
        await strategy.place()
    assert refused.value.verdict.codes == (StrategyRefusalCode.EXPOSURE_ABOVE_CAP,)
    assert strategy.states() == [S.NOT_PLACED, S.REFUSED]
    assert len(proxy.requests("POST", PLACE)) == 1

    roomy = Strategy(proxied, collection, tmp_path / "roomy", bids=2)
    proxy.add_fault(Fault.reply("POST", PLACE, 503, {"message": "overloaded"}))
    await roomy.place()
    assert roomy.states() == [S.NOT_PLACED, S.PLACED]


async def test_a_refusal_is_rejected(
    proxied: ServiceContext, collection: str, proxy: FaultProxy, tmp_path: Path
) -> None:
    strategy = Strategy(proxied, collection, tmp_path, bids=1)
    refusal = {"errorCode": "UNKNOWN_COLLECTION", "message": "no such collection"}
    proxy.add_fault(Fault.reply("POST", PLACE, 400, refusal))
    with pytest.raises(BidRequestRefusedError):
        await strategy.place()
    (entry,) = strategy.journal.entries("place")
    assert entry.state is S.REJECTED and entry.outcome == "refused: UNKNOWN_COLLECTION"
    assert strategy.journal.open_exposure("place", proxied.clock.now_ms()).sats == 0


async def test_unreadable_open_bids_after_a_504_leave_it_unknown(
    proxied: ServiceContext, collection: str, proxy: FaultProxy, tmp_path: Path
) -> None:
    strategy = Strategy(proxied, collection, tmp_path, bids=1)
    proxy.add_fault(Fault.after_forward("POST", PLACE, 504))
    down = Fault.reply("GET", "/v1/address/bids", 503, {"message": "down"}, times=None)
    proxy.add_fault(down.only_when(lambda _: bool(proxy.requests("POST", PLACE))))
    with pytest.raises(BidNotPlacedError, match="unknown whether"):
        await place_strategy_bid(
            proxied, strategy.signer, strategy.journal, strategy.spec, "keep one bid"
        )
    (entry,) = strategy.journal.unsettled("place")
    assert entry.state is S.UNKNOWN
    assert strategy.journal.open_exposure("place", proxied.clock.now_ms()).bids == 1
