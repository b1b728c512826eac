"""The spec's retry rules (4.2) end to end, faults armed on the real sandbox and what it
received read from its request journal: a retry is a new signed request, never a resend; after
a 5xx, a timeout or a dropped connection the open bids are read first, and a bid already stored
is never placed twice, whichever address the service lists it under (`BOTH_KEYINGS`). A 429
whose retryAfterMs is Infinity (not JSON) is a reply fault's `bodyText`; a 429 naming a wait
after the bid was stored, an applied error fault's `retryAfterMs`."""

from __future__ import annotations

from typing import Any

import pytest

from app.core.bid_request import Trait
from app.net.errors import RateLimited
from app.net.http import Timeouts
from app.services.bid_retry import AttemptResult, count_matching, place_with_retries
from app.services.bids import BidSpec, build_request, place_bid, sign_bid
from app.services.context import ServiceContext
from app.services.errors import BidNotPlacedError
from app.services.open_bids import fetch_open_bids
from app.wallet.message import MessageScheme
from tests.services.conftest import (
    BOTH_KEYINGS,
    BidsKeyedBy,
    ContextFactory,
    SandboxFaults,
    SandboxSleeper,
    hour_from_now,
    keyed_address,
)
from tests.support.journal import lines

pytestmark = pytest.mark.asyncio(loop_scope="session")
PLACE = "/v1/bid/place"


async def _posts(faults: SandboxFaults, slug: str) -> list[dict[str, Any]]:
    return [r.body for r in await faults.placements(slug)]


def _all_new(bodies: list[dict[str, Any]]) -> bool:
    """Every attempt carried its own timestamp and its own signature."""
    stamps = [b["timestamp"] for b in bodies]
    signatures = [b["signedBiddingMessage"] for b in bodies]
    return len(set(stamps)) == len(stamps) and len(set(signatures)) == len(signatures)


async def _count(ctx: ServiceContext, slug: str) -> int:
    return sum(1 for e in await fetch_open_bids(ctx) if e.collection_slug == slug)


async def test_rate_limited_then_placed_after_waiting_retry_after(
    bidder: ServiceContext,
    make_context: ContextFactory,
    collection: str,
    sandbox_faults: SandboxFaults,
    sandbox_sleeper: SandboxSleeper,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Another session of the same wallet just placed a 2-trait bid: our pacer cannot know,
    # so the service answers 429 with retryAfterMs.
    traits = [Trait("hat", "red"), Trait("hat", "blue")]
    await place_bid(bidder, BidSpec.trait(collection, traits, 2_000, 1, hour_from_now(bidder)))
    sandbox_sleeper.waits.clear()
    await sandbox_faults.forget_requests()
    session = make_context(bidder.keys)
    said = _retry_afters_heard(session, monkeypatch)
    outcome = await place_bid(
        session, BidSpec.collection(collection, 3_000, 1, hour_from_now(session))
    )
    statuses = [r.status for r in await sandbox_faults.placements(collection)]
    assert statuses == [429, 200]
    (retry_after,) = said  # the service's retryAfterMs, as the client read it
    assert retry_after is not None and 0 < retry_after <= 1_000
    assert sandbox_sleeper.waits == [retry_after]  # waited exactly what the service said
    results = [a.result for a in outcome.placement.attempts]
    assert results == [AttemptResult.RATE_LIMITED, AttemptResult.PLACED]
    assert _all_new(await _posts(sandbox_faults, collection))
    assert await _count(session, collection) == 3


def _retry_afters_heard(ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """The retryAfterMs of each 429 ctx's marketplace client reads from a bid placement
    (the journal keeps requests, not answers)."""
    said: list[int | None] = []
    market = ctx.clients.marketplace
    place = market.place_collection_bid

    async def heard(*args: Any, **kwargs: Any) -> Any:
        try:
            return await place(*args, **kwargs)
        except RateLimited as limited:
            said.append(limited.retry_after_ms)
            raise

    monkeypatch.setattr(market, "place_collection_bid", heard)
    return said


@BOTH_KEYINGS
async def test_signature_used_answer_leads_to_a_new_signature_not_a_resend(
    bidder: ServiceContext, collection: str, sandbox_faults: SandboxFaults
) -> None:
    used = {"errorCode": "COLLECTION_BID_SIGNATURE_USED", "message": "already used"}
    await sandbox_faults.arm("reply", PLACE, method="POST", status=400, body=used)
    outcome = await place_bid(
        bidder, BidSpec.collection(collection, 4_000, 2, hour_from_now(bidder))
    )
    bodies = await _posts(sandbox_faults, collection)
    assert len(bodies) == 2 and _all_new(bodies)
    # Between the two: the open bids were read to see whether that message placed the bid.
    paths = lines(await sandbox_faults.requests())
    first, second = [i for i, p in enumerate(paths) if p == f"POST {PLACE}"]
    assert "GET /v1/address/bids" in paths[first + 1 : second]
    assert [a.result for a in outcome.placement.attempts] == [
        AttemptResult.NOT_FOUND_AFTER_ERROR,
        AttemptResult.PLACED,
    ]
    assert await _count(bidder, collection) == 2


@BOTH_KEYINGS
@pytest.mark.parametrize(
    "fault",
    [
        {"kind": "error", "status": 502},
        {"kind": "error", "status": 500},
        {"kind": "drop"},
    ],
    ids=["502", "500", "dropped"],
)
async def test_stored_then_server_error_is_not_placed_twice(
    bidder: ServiceContext,
    collection: str,
    sandbox_faults: SandboxFaults,
    fault: dict[str, Any],
    bids_keyed_by: BidsKeyedBy,
) -> None:
    await sandbox_faults.arm(path=PLACE, method="POST", applied=True, **fault)
    outcome = await place_bid(
        bidder, BidSpec.collection(collection, 6_000, 2, hour_from_now(bidder))
    )
    assert len(await sandbox_faults.placements(collection)) == 1
    assert outcome.placement.confirmed_by_listing
    assert await _count(bidder, collection) == 2
    # Found under the address the service keys bids by; the ordinals address's list alone
    # (the old check) shows none of them with a payment-keyed service: it would have
    # placed the bid again.
    market, request = bidder.clients.marketplace, outcome.placement.request
    keyed = await market.get_bids(keyed_address(bidder, bids_keyed_by))
    assert count_matching(keyed, request) == 2
    ordinals_only = await market.get_bids(bidder.ordinals_address)
    assert count_matching(ordinals_only, request) == (0 if bids_keyed_by == "payment" else 2)


@BOTH_KEYINGS
async def test_stored_then_timeout_is_not_placed_twice(
    make_context: ContextFactory,
    bidder: ServiceContext,
    collection: str,
    sandbox_faults: SandboxFaults,
) -> None:
    # The sandbox stores the bid and never answers; the client's read timeout (kept short
    # here) fires.
    ctx = make_context(bidder.keys, timeouts=Timeouts(read=0.5))
    await sandbox_faults.arm("timeout", PLACE, method="POST", applied=True, hold_ms=10_000)
    traits = [Trait("eyes", "laser")]
    outcome = await place_bid(ctx, BidSpec.trait(collection, traits, 7_000, 3, hour_from_now(ctx)))
    assert len(await sandbox_faults.placements(collection)) == 1
    assert outcome.placement.attempts[0].error == "RequestTimeout"
    assert outcome.placement.confirmed_by_listing
    assert await _count(ctx, collection) == 3


@BOTH_KEYINGS
async def test_not_stored_server_error_is_retried_with_a_new_request(
    bidder: ServiceContext, collection: str, sandbox_faults: SandboxFaults
) -> None:
    overloaded = {"message": "overloaded"}
    await sandbox_faults.arm("reply", PLACE, method="POST", status=503, body=overloaded)
    await place_bid(bidder, BidSpec.collection(collection, 8_000, 1, hour_from_now(bidder)))
    bodies = await _posts(sandbox_faults, collection)
    assert len(bodies) == 2 and _all_new(bodies)
    assert await _count(bidder, collection) == 1


async def test_unreadable_bids_after_an_ambiguous_error_stop_without_retrying(
    bidder: ServiceContext, collection: str, sandbox_faults: SandboxFaults
) -> None:
    keys = bidder.signing_keys()
    spec = BidSpec.collection(collection, 9_000, 1, hour_from_now(bidder))
    await fetch_open_bids(bidder)  # the bidding wallet is known before the faults

    async def sign(timestamp: int) -> Any:
        unsigned = build_request(bidder, spec, timestamp, "-")
        return sign_bid(unsigned, keys.payment, MessageScheme.BIP322_SIMPLE, bidder.network)

    await sandbox_faults.arm("error", PLACE, method="POST", status=504, applied=True)
    down = {"message": "down"}
    await sandbox_faults.arm(
        "reply", "/v1/address/bids", method="GET", status=503, body=down, times=None
    )
    with pytest.raises(BidNotPlacedError, match="unknown whether the bid was placed"):
        await place_with_retries(bidder, sign, baseline=0)
    assert len(await sandbox_faults.placements(collection)) == 1


async def test_a_refusal_is_final(
    bidder: ServiceContext, collection: str, sandbox_faults: SandboxFaults
) -> None:
    refusal = {"errorCode": "COLLECTION_BID_TRAIT_NOT_FOUND", "message": "no such trait"}
    await sandbox_faults.arm("reply", PLACE, method="POST", status=400, body=refusal)
    with pytest.raises(BidNotPlacedError) as caught:
        await place_bid(bidder, BidSpec.collection(collection, 5_000, 1, hour_from_now(bidder)))
    assert caught.value.error_code == "COLLECTION_BID_TRAIT_NOT_FOUND"
    assert "no such trait" in caught.value.user_message
    assert len(await sandbox_faults.placements(collection)) == 1


async def test_a_429_after_the_bid_was_placed_gets_no_second_signature(
    bidder: ServiceContext, collection: str, sandbox_faults: SandboxFaults
) -> None:
    """Found in review: a service that placed the bid and answered 429 got a new signed bid
    on each attempt (six bids for one). The open bids are read before signing again."""
    await sandbox_faults.arm("error", PLACE, method="POST", status=429, applied=True, times=5)
    outcome = await place_bid(
        bidder, BidSpec.collection(collection, 2_000, 1, hour_from_now(bidder))
    )
    assert len(await sandbox_faults.placements(collection)) == 1
    assert outcome.placement.attempts[-1].result is AttemptResult.FOUND_AFTER_ERROR
    assert await _count(bidder, collection) == 1


async def test_a_429_wait_beyond_a_minute_is_not_waited(
    bidder: ServiceContext, collection: str, sandbox_faults: SandboxFaults
) -> None:
    """Found in review: the bid path waited any retryAfterMs (10**15 ms: 31,700 years, and
    every later bid of the profile with it). Now it gives up at once and says why."""
    body = {"errorCode": "RATE_LIMITED", "message": "slow down", "retryAfterMs": 10**15}
    await sandbox_faults.arm("reply", PLACE, method="POST", status=429, body=body)
    spec = BidSpec.collection(collection, 2_000, 1, hour_from_now(bidder))
    with pytest.raises(BidNotPlacedError, match="not waited out"):
        await place_bid(bidder, spec)
    assert len(await sandbox_faults.placements(collection)) == 1
    assert all(w <= 60_000 for w in bidder.sleeper.waits)  # type: ignore[attr-defined]


async def test_an_infinite_429_wait_is_no_wait_named(
    bidder: ServiceContext, collection: str, sandbox_faults: SandboxFaults
) -> None:
    """`retryAfterMs: Infinity` (Python's json reads it) had crashed the placement; it now
    counts as no wait named: the spec's pace, then a new attempt."""
    text = '{"errorCode": "RATE_LIMITED", "message": "slow down", "retryAfterMs": Infinity}'
    await sandbox_faults.arm("reply", PLACE, method="POST", status=429, body_text=text)
    outcome = await place_bid(
        bidder, BidSpec.collection(collection, 2_000, 1, hour_from_now(bidder))
    )
    assert [a.result for a in outcome.placement.attempts] == [
        AttemptResult.RATE_LIMITED,
        AttemptResult.PLACED,
    ]


async def test_a_long_429_wait_after_the_bid_was_placed_reports_it_placed(
    bidder: ServiceContext, collection: str, sandbox_faults: SandboxFaults
) -> None:
    """Stored, then 429 asking for years: the list is read first, so the user is told the
    truth (placed) instead of "try again later" (which would sign a second bid)."""
    years = 10**15
    await sandbox_faults.arm(
        "error", PLACE, method="POST", status=429, applied=True, retry_after_ms=years
    )
    outcome = await place_bid(
        bidder, BidSpec.collection(collection, 2_000, 1, hour_from_now(bidder))
    )
    assert outcome.placement.attempts[-1].result is AttemptResult.FOUND_AFTER_ERROR
    assert len(await sandbox_faults.placements(collection)) == 1
    assert await _count(bidder, collection) == 1
