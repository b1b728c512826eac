"""A strategy's bid placed by the spec's retry rules against the real sandbox, faults armed on
the sandbox itself: each attempt is a new signature by the strategy signer, and each journal
entry is completed with what the service said (placed, rejected, not placed, unknown)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from app.core.bid_request import CollectionBidRequest, Trait
from app.core.strategy_policy import AllowedPool, StrategyPolicy, StrategyRefusalCode
from app.services.bids import BidSpec
from app.services.context import ServiceContext
from app.services.errors import BidNotPlacedError, BidRequestRefusedError
from app.services.open_bids import fetch_open_bids
from app.services.strategy_journal import EntryState, StrategyJournal
from app.services.strategy_placement import place_strategy_bid
from app.services.strategy_policies import StrategyPolicyStore, identity_of
from app.services.strategy_signer import SignedBid, StrategyRefusedError, StrategySigner
from tests.services.conftest import SandboxFaults, hour_from_now

pytestmark = pytest.mark.asyncio(loop_scope="session")
S = EntryState
PLACE = "/v1/bid/place"
HOUR_MS = 3_600_000
PRICE = 10_000
RED = Trait("hat", "red")
OVERLOADED = {"message": "overloaded"}


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


class ArmingOnceSigned:
    """The strategy's signer, arming faults once it has signed (on the test's event loop,
    from the executor thread the placement signs in): the open bids read before the
    placement stay readable, those read after it do not."""

    def __init__(
        self, inner: StrategySigner, arm: Callable[[], Coroutine[Any, Any, object]]
    ) -> None:
        self.inner = inner
        self.arm = arm
        self.loop = asyncio.get_running_loop()

    @property
    def policy(self) -> StrategyPolicy:
        return self.inner.policy

    def sign_bid(self, unsigned: CollectionBidRequest, reason: str) -> SignedBid:
        signed = self.inner.sign_bid(unsigned, reason)
        asyncio.run_coroutine_threadsafe(self.arm(), self.loop).result()
        return signed


@pytest.fixture
async def ready_bidder(bidder: ServiceContext, sandbox_faults: SandboxFaults) -> ServiceContext:
    """`bidder`, its bidding wallet known before the test's faults are armed."""
    await fetch_open_bids(bidder)
    return bidder


async def test_placed_at_once_with_its_bid_ids(
    ready_bidder: ServiceContext, collection: str, tmp_path: Path
) -> None:
    strategy = Strategy(ready_bidder, collection, tmp_path, bids=2)
    spec = BidSpec.trait(collection, [RED], PRICE, 2, hour_from_now(ready_bidder))
    outcome = await place_strategy_bid(ready_bidder, strategy.signer, strategy.journal, spec, "two")
    (entry_id,) = outcome.entry_ids
    entry = strategy.journal.entry(entry_id)
    assert entry.state is S.PLACED and entry.outcome == "placed"
    assert len(entry.bid_ids) == 2 and set(entry.bid_ids) == set(outcome.bid_ids)


async def test_a_429_is_rejected_and_its_exposure_freed_for_the_retry(
    ready_bidder: ServiceContext, collection: str, sandbox_faults: SandboxFaults, tmp_path: Path
) -> None:
    strategy = Strategy(ready_bidder, collection, tmp_path, bids=1)  # no room for a second one
    limited = {"errorCode": "SUBMIT_BID_RATE_LIMITED", "message": "slow", "retryAfterMs": 500}
    await sandbox_faults.arm("reply", PLACE, method="POST", status=429, body=limited)
    await strategy.place()
    assert strategy.states() == [S.REJECTED, S.PLACED]
    assert len(await sandbox_faults.placements(collection)) == 2


async def test_stored_then_502_is_one_placed_entry(
    ready_bidder: ServiceContext, collection: str, sandbox_faults: SandboxFaults, tmp_path: Path
) -> None:
    strategy = Strategy(ready_bidder, collection, tmp_path, bids=1)
    await sandbox_faults.arm("error", PLACE, method="POST", status=502, applied=True)
    await strategy.place()
    assert strategy.states() == [S.PLACED]
    (entry,) = strategy.journal.entries("place")
    assert entry.outcome is not None and entry.outcome.startswith("found among open bids")
    assert len(entry.bid_ids) == 1


async def test_not_stored_503_counts_until_its_message_is_too_old(
    ready_bidder: ServiceContext, collection: str, sandbox_faults: SandboxFaults, tmp_path: Path
) -> None:
    """The message of a 5xx not found among the open bids could still land: it keeps its
    share of the exposure, so with room for one bid the retry is refused by the policy."""
    strategy = Strategy(ready_bidder, collection, tmp_path, bids=1)
    await sandbox_faults.arm("reply", PLACE, method="POST", status=503, body=OVERLOADED)
    with pytest.raises(StrategyRefusedError) as refused:
        await strategy.place()
    assert refused.value.verdict.codes == (StrategyRefusalCode.EXPOSURE_ABOVE_CAP,)
    assert strategy.states() == [S.NOT_PLACED, S.REFUSED]
    assert len(await sandbox_faults.placements(collection)) == 1

    roomy = Strategy(ready_bidder, collection, tmp_path / "roomy", bids=2)
    await sandbox_faults.arm("reply", PLACE, method="POST", status=503, body=OVERLOADED)
    await roomy.place()
    assert roomy.states() == [S.NOT_PLACED, S.PLACED]


async def test_a_refusal_is_rejected(
    ready_bidder: ServiceContext, collection: str, sandbox_faults: SandboxFaults, tmp_path: Path
) -> None:
    strategy = Strategy(ready_bidder, collection, tmp_path, bids=1)
    refusal = {"errorCode": "UNKNOWN_COLLECTION", "message": "no such collection"}
    await sandbox_faults.arm("reply", PLACE, method="POST", status=400, body=refusal)
    with pytest.raises(BidRequestRefusedError):
        await strategy.place()
    (entry,) = strategy.journal.entries("place")
    assert entry.state is S.REJECTED and entry.outcome == "refused: UNKNOWN_COLLECTION"
    assert strategy.journal.open_exposure("place", ready_bidder.clock.now_ms()).sats == 0


async def test_unreadable_open_bids_after_a_504_leave_it_unknown(
    ready_bidder: ServiceContext, collection: str, sandbox_faults: SandboxFaults, tmp_path: Path
) -> None:
    strategy = Strategy(ready_bidder, collection, tmp_path, bids=1)
    await sandbox_faults.arm("error", PLACE, method="POST", status=504, applied=True)
    down = {"message": "down"}
    signer = ArmingOnceSigned(
        strategy.signer,
        lambda: sandbox_faults.arm(
            "reply", "/v1/address/bids", method="GET", status=503, body=down, times=None
        ),
    )
    with pytest.raises(BidNotPlacedError, match="unknown whether"):
        await place_strategy_bid(
            ready_bidder, signer, strategy.journal, strategy.spec, "keep one bid"
        )
    (entry,) = strategy.journal.unsettled("place")
    assert entry.state is S.UNKNOWN
    assert strategy.journal.open_exposure("place", ready_bidder.clock.now_ms()).bids == 1
