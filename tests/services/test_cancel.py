"""Cancelling bids against a real sandbox: the challenge signed by the ordinals key, reused
until it expires, re-fetched once after a 403 for an expired one, and a result per bid."""

from __future__ import annotations

import pytest

from app.services.bids import BidSpec, place_bid
from app.services.cancel import ChallengeCache, cancel_bid, cancel_bids
from app.services.context import ServiceContext
from app.services.errors import CredentialRefusedError, ServiceError
from app.services.open_bids import fetch_open_bids
from app.wallet.message import verify_message
from tests.services.conftest import (
    ContextFactory,
    KeysFactory,
    SandboxControl,
    SandboxSleeper,
    hour_from_now,
)
from tests.support.proxy import Fault, FaultProxy

pytestmark = pytest.mark.asyncio(loop_scope="session")
CANCEL, CHALLENGE = "/v1/cancel", "/v1/challenge"
CHALLENGE_LIFETIME_MS = 10 * 60_000  # the sandbox's (docs/sandbox-marketplace.md)


async def _bid_ids(ctx: ServiceContext, slug: str, count: int, price: int = 2_000) -> list[str]:
    await place_bid(ctx, BidSpec.collection(slug, price, count, hour_from_now(ctx)))
    return [e.bid_id for e in await fetch_open_bids(ctx) if e.collection_slug == slug]


@pytest.fixture
async def proxied(
    make_context: ContextFactory, bidder: ServiceContext, proxy: FaultProxy
) -> ServiceContext:
    return make_context(bidder.keys, proxy.url)


async def test_cancel_one_bid_with_the_ordinals_key_credential(
    proxied: ServiceContext, collection: str, proxy: FaultProxy
) -> None:
    first, second = await _bid_ids(proxied, collection, 2)
    item = await cancel_bid(proxied, first)
    assert item.cancelled and item.bid_id == first and item.reason is None
    assert [e.bid_id for e in await fetch_open_bids(proxied)] == [second]
    body = proxy.requests("POST", CANCEL)[0].json()
    assert (body["makerAddress"], body["orderType"], body["_id"]) == (
        proxied.ordinals_address,
        "bid",
        first,
    )
    challenge = proxy.requests("GET", CHALLENGE)[0].response_json()["data"]["challenge"]
    # BIP-322 by the ordinals address (the bip322 package is one of the verifiers).
    checked = verify_message(proxied.ordinals_address, challenge, body["signature"])
    assert "bip322-rust" in checked.detail


async def test_multi_cancel_reports_each_bid(proxied: ServiceContext, collection: str) -> None:
    ids = await _bid_ids(proxied, collection, 3)
    unknown = "f" * 24
    report = await cancel_bids(proxied, [ids[0], unknown, ids[1]])
    assert [(i.bid_id, i.cancelled) for i in report.items] == [
        (ids[0], True),
        (unknown, False),
        (ids[1], True),
    ]
    assert report.failed[0].reason == "no such bid"
    assert not report.all_cancelled and report.cancelled_ids == (ids[0], ids[1])
    again = await cancel_bids(proxied, [ids[0], ids[2]])
    assert [(i.cancelled, i.reason) for i in again.items] == [
        (False, "not an open bid (expired, filled or cancelled)"),
        (True, None),
    ]
    assert [e for e in await fetch_open_bids(proxied) if e.collection_slug == collection] == []


async def test_the_signed_challenge_is_reused(
    proxied: ServiceContext, collection: str, proxy: FaultProxy
) -> None:
    ids = await _bid_ids(proxied, collection, 3)
    cache = ChallengeCache()
    for bid_id in ids:
        assert (await cancel_bid(proxied, bid_id, cache=cache)).cancelled
    assert cache.fetches == 1
    assert len(proxy.requests("GET", CHALLENGE)) == 1
    signatures = {s.json()["signature"] for s in proxy.requests("POST", CANCEL)}
    assert len(signatures) == 1


async def test_a_challenge_known_to_be_expired_is_replaced_before_use(
    proxied: ServiceContext,
    collection: str,
    proxy: FaultProxy,
    sandbox_sleeper: SandboxSleeper,
) -> None:
    first, second = await _bid_ids(proxied, collection, 2)
    cache = ChallengeCache()
    await cancel_bid(proxied, first, cache=cache)
    await sandbox_sleeper.sleep_ms(CHALLENGE_LIFETIME_MS)  # both clocks move
    assert (await cancel_bid(proxied, second, cache=cache)).cancelled
    assert cache.fetches == 2
    assert [s.status for s in proxy.requests("POST", CANCEL)] == [200, 200]


async def test_expired_challenge_answered_403_is_refetched_once(
    proxied: ServiceContext, collection: str, proxy: FaultProxy, sandbox: SandboxControl
) -> None:
    first, second = await _bid_ids(proxied, collection, 2)
    cache = ChallengeCache()
    await cancel_bid(proxied, first, cache=cache)
    # Only the service's clock moves: we still believe the challenge is live.
    await sandbox.advance_clock(CHALLENGE_LIFETIME_MS)
    assert (await cancel_bid(proxied, second, cache=cache)).cancelled
    assert [s.status for s in proxy.requests("POST", CANCEL)] == [200, 403, 200]
    assert len(proxy.requests("GET", CHALLENGE)) == 2 and cache.fetches == 2


async def test_a_fresh_challenge_refused_again_stops(
    proxied: ServiceContext, collection: str, proxy: FaultProxy
) -> None:
    (bid_id,) = await _bid_ids(proxied, collection, 1)
    refused = {"errorCode": "CANCEL_CREDENTIAL_INVALID", "message": "bad credential."}
    proxy.add_fault(Fault.reply("POST", CANCEL, 403, refused, times=2))
    with pytest.raises(CredentialRefusedError) as refusal:
        await cancel_bid(proxied, bid_id, cache=ChallengeCache())
    # A refused credential is said as such, never as an expired challenge.
    assert refusal.value.address == proxied.ordinals_address
    assert "not an expired challenge" in refusal.value.user_message
    assert refusal.value.user_message.endswith("nothing was cancelled.")
    assert len(proxy.requests("POST", CANCEL)) == 2
    assert [e.bid_id for e in await fetch_open_bids(proxied)] == [bid_id]


async def test_bids_of_another_maker_are_refused(
    bidder: ServiceContext,
    collection: str,
    make_keys: KeysFactory,
    make_context: ContextFactory,
) -> None:
    (theirs,) = await _bid_ids(bidder, collection, 1)
    other = make_context(make_keys())
    with pytest.raises(ServiceError, match="not yours"):
        await cancel_bids(other, [theirs])
    assert [e.bid_id for e in await fetch_open_bids(bidder)] == [theirs]
