"""Cancelling bids against a real sandbox: the challenge signed by the key of the address the
bids are listed under (the ordinals or the payment address: `BOTH_KEYINGS` runs a test
against a sandbox of each kind), reused until it expires, re-fetched once after a 403 for an
expired one, and a result per bid whose reason is true."""

from __future__ import annotations

from urllib.parse import parse_qs

import pytest

from app.services.bidding_wallet import get_bidding_wallet
from app.services.bids import BidSpec, place_bid
from app.services.cancel import ChallengeCache, cancel_bid, cancel_bids
from app.services.context import ServiceContext
from app.services.errors import CredentialRefusedError, ServiceError
from app.services.open_bids import fetch_open_bids
from app.wallet.message import verify_message
from tests.services.conftest import (
    BOTH_KEYINGS,
    BidsKeyedBy,
    ContextFactory,
    KeysFactory,
    SandboxControl,
    SandboxSleeper,
    hour_from_now,
    keyed_address,
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


@BOTH_KEYINGS
async def test_cancel_one_bid_with_the_credential_of_the_address_it_is_listed_under(
    proxied: ServiceContext, collection: str, proxy: FaultProxy, bids_keyed_by: BidsKeyedBy
) -> None:
    first, second = await _bid_ids(proxied, collection, 2)
    item = await cancel_bid(proxied, first)
    assert item.cancelled and item.bid_id == first and item.reason is None
    assert [e.bid_id for e in await fetch_open_bids(proxied)] == [second]
    maker = keyed_address(proxied, bids_keyed_by)
    (request,) = proxy.requests("POST", CANCEL)  # straight to the right maker
    body = request.json()
    assert (body["makerAddress"], body["orderType"], body["_id"]) == (maker, "bid", first)
    (asked,) = proxy.requests("GET", CHALLENGE)
    assert parse_qs(asked.query)["address"] == [maker]
    challenge = asked.response_json()["data"]["challenge"]
    # BIP-322 by that address's own key (the bip322 package is one of the verifiers).
    checked = verify_message(maker, challenge, body["signature"])
    assert "bip322-rust" in checked.detail


@BOTH_KEYINGS
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


@BOTH_KEYINGS
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


@BOTH_KEYINGS
async def test_a_fresh_challenge_refused_again_stops(
    proxied: ServiceContext, collection: str, proxy: FaultProxy, bids_keyed_by: BidsKeyedBy
) -> None:
    (bid_id,) = await _bid_ids(proxied, collection, 1)
    refused = {"errorCode": "CANCEL_CREDENTIAL_INVALID", "message": "bad credential."}
    proxy.add_fault(Fault.reply("POST", CANCEL, 403, refused, times=2))
    with pytest.raises(CredentialRefusedError) as refusal:
        await cancel_bid(proxied, bid_id, cache=ChallengeCache())
    # A refused credential is said as such, never as an expired challenge.
    assert refusal.value.address == keyed_address(proxied, bids_keyed_by)
    assert "not an expired challenge" in refusal.value.user_message
    assert refusal.value.user_message.endswith("nothing was cancelled.")
    assert len(proxy.requests("POST", CANCEL)) == 2
    assert [e.bid_id for e in await fetch_open_bids(proxied)] == [bid_id]


@BOTH_KEYINGS
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


@BOTH_KEYINGS
async def test_mixed_cancel_says_what_became_of_each_bid(
    proxied: ServiceContext,
    collection: str,
    make_keys: KeysFactory,
    make_context: ContextFactory,
    sandbox: SandboxControl,
) -> None:
    """Ours (open and already cancelled), another maker's and an unknown id in one cancel:
    each reason is true, and no reason claims that nothing was cancelled."""
    ours = await _bid_ids(proxied, collection, 3)
    assert (await cancel_bid(proxied, ours[2])).cancelled
    other = make_context(make_keys())
    await sandbox.faucet((await get_bidding_wallet(other)).address, 100_000)
    (theirs,) = await _bid_ids(other, collection, 1, price=3_000)
    unknown = "e" * 24

    report = await cancel_bids(proxied, [ours[0], unknown, theirs, ours[2], ours[1]])

    assert [(i.bid_id, i.cancelled) for i in report.items] == [
        (ours[0], True),
        (unknown, False),
        (theirs, False),
        (ours[2], False),
        (ours[1], True),
    ]
    reasons = {i.bid_id: i.reason for i in report.failed}
    assert reasons[unknown] == "no such bid"
    assert reasons[ours[2]] == "not an open bid (expired, filled or cancelled)"
    assert "another maker" in (reasons[theirs] or "")
    assert not any("nothing was cancelled" in (r or "") for r in reasons.values())
    assert [e for e in await fetch_open_bids(proxied) if e.collection_slug == collection] == []
    assert [e.bid_id for e in await fetch_open_bids(other)] == [theirs]


@BOTH_KEYINGS
async def test_unlisted_bids_are_cancelled_by_whichever_address_the_service_accepts(
    proxied: ServiceContext, collection: str, proxy: FaultProxy, bids_keyed_by: BidsKeyedBy
) -> None:
    """When the open bids cannot be read, the owner of each bid is unknown: the ordinals
    address is asked first and, when the service says the bids are another maker's
    (CANCEL_NOT_MAKER: they are keyed by the payment address), the payment address."""
    ids = await _bid_ids(proxied, collection, 2)
    proxy.add_fault(Fault.reply("GET", "/v1/address/bids", 503, {"message": "down"}, times=None))

    report = await cancel_bids(proxied, ids)

    assert report.all_cancelled and report.cancelled_ids == tuple(ids)
    answers = proxy.requests("POST", CANCEL)
    makers = [a.json()["makerAddress"] for a in answers]
    if bids_keyed_by == "payment":
        assert makers == [proxied.ordinals_address, proxied.payment_address]
        assert [a.status for a in answers] == [403, 200]
        assert answers[0].response_json()["errorCode"] == "CANCEL_NOT_MAKER"
    else:
        assert makers == [proxied.ordinals_address]
    proxy.faults.clear()
    assert await fetch_open_bids(proxied) == []


@pytest.mark.parametrize("bids_keyed_by", ["payment"])
async def test_ordinals_credential_not_the_maker_then_payment_credential_refused(
    proxied: ServiceContext, collection: str, proxy: FaultProxy
) -> None:
    """Payment-keyed service, open bids unreadable: the ordinals credential is refused for
    our bid (CANCEL_NOT_MAKER, the real answer) and so is a fresh payment credential (the
    proxy, twice): the user hears that the payment address's credential was refused, not
    that the bid is another maker's, nor that a challenge expired."""
    (bid_id,) = await _bid_ids(proxied, collection, 1)
    proxy.add_fault(Fault.reply("GET", "/v1/address/bids", 503, {"message": "down"}, times=None))
    refused = {"errorCode": "CANCEL_CREDENTIAL_INVALID", "message": "bad credential."}
    by_payment = Fault.reply("POST", CANCEL, 403, refused, times=2).only_when(
        lambda seen: seen.json()["makerAddress"] == proxied.payment_address
    )
    proxy.add_fault(by_payment)

    with pytest.raises(CredentialRefusedError) as refusal:
        await cancel_bids(proxied, [bid_id], cache=ChallengeCache())

    answers = [(a.json()["makerAddress"], a.status) for a in proxy.requests("POST", CANCEL)]
    assert answers == [
        (proxied.ordinals_address, 403),
        (proxied.payment_address, 403),
        (proxied.payment_address, 403),  # once more with a fresh challenge
    ]
    assert refusal.value.address == proxied.payment_address
    assert "not an expired challenge" in refusal.value.user_message
    assert "another maker" not in refusal.value.user_message
    proxy.faults.clear()
    assert [e.bid_id for e in await fetch_open_bids(proxied)] == [bid_id]
