"""Cancelling bids against a real sandbox: the challenge signed by the key of the address the
bids are listed under (the ordinals or the payment address: `BOTH_KEYINGS` runs a test
against a sandbox of each kind), reused until it expires, re-fetched once after a 403 for an
expired one, and a result per bid whose reason is true. Faults are armed on the sandbox and
what it received is read from its request journal."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

import pytest

from app.net.errors import HttpError, NetError
from app.net.marketplace_responses import Challenge
from app.net.sandbox_faults import FaultKind
from app.services.bidding_wallet import get_bidding_wallet
from app.services.bids import BidSpec, place_bid
from app.services.cancel import (
    LOST_AND_STILL_LISTED,
    ChallengeCache,
    cancel_bid,
    cancel_bids,
)
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
    SandboxFaults,
    SandboxSleeper,
    hour_from_now,
    keyed_address,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")
CANCEL, CHALLENGE = "/v1/cancel", "/v1/challenge"
CHALLENGE_LIFETIME_MS = 10 * 60_000  # the sandbox's (docs/sandbox-marketplace.md)
DOWN = {"message": "down"}


async def _bid_ids(ctx: ServiceContext, slug: str, count: int, price: int = 2_000) -> list[str]:
    await place_bid(ctx, BidSpec.collection(slug, price, count, hour_from_now(ctx)))
    return [e.bid_id for e in await fetch_open_bids(ctx) if e.collection_slug == slug]


class Answers:
    """What ctx's marketplace client read from the service's answers (the journal keeps the
    requests, not the answers): each challenge fetched, the errorCode of each cancel refused."""

    def __init__(self, ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch) -> None:
        self.challenges: list[Challenge] = []
        self.cancel_refusals: list[str | None] = []
        market = ctx.clients.marketplace
        get_challenge, cancel = market.get_challenge, market.cancel

        async def heard_challenge(address: str) -> Challenge:
            challenge = await get_challenge(address)
            self.challenges.append(challenge)
            return challenge

        async def heard_cancel(*args: Any, **kwargs: Any) -> Any:
            try:
                return await cancel(*args, **kwargs)
            except HttpError as refused:
                self.cancel_refusals.append(refused.error_code)
                raise

        monkeypatch.setattr(market, "get_challenge", heard_challenge)
        monkeypatch.setattr(market, "cancel", heard_cancel)


@BOTH_KEYINGS
async def test_cancel_one_bid_with_the_credential_of_the_address_it_is_listed_under(
    bidder: ServiceContext,
    collection: str,
    sandbox_faults: SandboxFaults,
    bids_keyed_by: BidsKeyedBy,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first, second = await _bid_ids(bidder, collection, 2)
    answers = Answers(bidder, monkeypatch)
    item = await cancel_bid(bidder, first)
    assert item.cancelled and item.bid_id == first and item.reason is None
    assert [e.bid_id for e in await fetch_open_bids(bidder)] == [second]
    maker = keyed_address(bidder, bids_keyed_by)
    (request,) = await sandbox_faults.requests("POST", CANCEL)  # straight to the right maker
    body = request.body
    assert (body["makerAddress"], body["orderType"], body["_id"]) == (maker, "bid", first)
    (asked,) = await sandbox_faults.requests("GET", CHALLENGE)
    assert parse_qs(asked.query)["address"] == [maker]
    (answered,) = answers.challenges
    challenge = answered.challenge
    # BIP-322 by that address's own key (the bip322 package is one of the verifiers).
    checked = verify_message(maker, challenge, body["signature"])
    assert "bip322-rust" in checked.detail


@BOTH_KEYINGS
async def test_multi_cancel_reports_each_bid(bidder: ServiceContext, collection: str) -> None:
    ids = await _bid_ids(bidder, collection, 3)
    unknown = "f" * 24
    report = await cancel_bids(bidder, [ids[0], unknown, ids[1]])
    assert [(i.bid_id, i.cancelled) for i in report.items] == [
        (ids[0], True),
        (unknown, False),
        (ids[1], True),
    ]
    assert report.failed[0].reason == "no such bid"
    assert not report.all_cancelled and report.cancelled_ids == (ids[0], ids[1])
    again = await cancel_bids(bidder, [ids[0], ids[2]])
    assert [(i.cancelled, i.reason) for i in again.items] == [
        (False, "not an open bid (expired, filled or cancelled)"),
        (True, None),
    ]
    assert [e for e in await fetch_open_bids(bidder) if e.collection_slug == collection] == []


@BOTH_KEYINGS
async def test_the_signed_challenge_is_reused(
    bidder: ServiceContext, collection: str, sandbox_faults: SandboxFaults
) -> None:
    ids = await _bid_ids(bidder, collection, 3)
    cache = ChallengeCache()
    for bid_id in ids:
        assert (await cancel_bid(bidder, bid_id, cache=cache)).cancelled
    assert cache.fetches == 1
    assert len(await sandbox_faults.requests("GET", CHALLENGE)) == 1
    signatures = {r.body["signature"] for r in await sandbox_faults.requests("POST", CANCEL)}
    assert len(signatures) == 1


async def test_a_challenge_known_to_be_expired_is_replaced_before_use(
    bidder: ServiceContext,
    collection: str,
    sandbox_faults: SandboxFaults,
    sandbox_sleeper: SandboxSleeper,
) -> None:
    first, second = await _bid_ids(bidder, collection, 2)
    cache = ChallengeCache()
    await cancel_bid(bidder, first, cache=cache)
    await sandbox_sleeper.sleep_ms(CHALLENGE_LIFETIME_MS)  # both clocks move
    assert (await cancel_bid(bidder, second, cache=cache)).cancelled
    assert cache.fetches == 2
    assert [r.status for r in await sandbox_faults.requests("POST", CANCEL)] == [200, 200]


async def test_expired_challenge_answered_403_is_refetched_once(
    bidder: ServiceContext, collection: str, sandbox_faults: SandboxFaults, sandbox: SandboxControl
) -> None:
    first, second = await _bid_ids(bidder, collection, 2)
    cache = ChallengeCache()
    await cancel_bid(bidder, first, cache=cache)
    # Only the service's clock moves: we still believe the challenge is live.
    await sandbox.advance_clock(CHALLENGE_LIFETIME_MS)
    assert (await cancel_bid(bidder, second, cache=cache)).cancelled
    assert [r.status for r in await sandbox_faults.requests("POST", CANCEL)] == [200, 403, 200]
    assert len(await sandbox_faults.requests("GET", CHALLENGE)) == 2 and cache.fetches == 2


@BOTH_KEYINGS
async def test_a_fresh_challenge_refused_again_stops(
    bidder: ServiceContext,
    collection: str,
    sandbox_faults: SandboxFaults,
    bids_keyed_by: BidsKeyedBy,
) -> None:
    (bid_id,) = await _bid_ids(bidder, collection, 1)
    refused = {"errorCode": "CANCEL_CREDENTIAL_INVALID", "message": "bad credential."}
    await sandbox_faults.arm("reply", CANCEL, method="POST", status=403, body=refused, times=2)
    with pytest.raises(CredentialRefusedError) as refusal:
        await cancel_bid(bidder, bid_id, cache=ChallengeCache())
    # A refused credential is said as such, never as an expired challenge.
    assert refusal.value.address == keyed_address(bidder, bids_keyed_by)
    assert "not an expired challenge" in refusal.value.user_message
    assert refusal.value.user_message.endswith("nothing was cancelled.")
    assert len(await sandbox_faults.requests("POST", CANCEL)) == 2
    assert [e.bid_id for e in await fetch_open_bids(bidder)] == [bid_id]


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
    bidder: ServiceContext,
    collection: str,
    make_keys: KeysFactory,
    make_context: ContextFactory,
    sandbox: SandboxControl,
) -> None:
    """Ours (open and already cancelled), another maker's and an unknown id in one cancel:
    each reason is true, and no reason claims that nothing was cancelled."""
    ours = await _bid_ids(bidder, collection, 3)
    assert (await cancel_bid(bidder, ours[2])).cancelled
    other = make_context(make_keys())
    await sandbox.faucet((await get_bidding_wallet(other)).address, 100_000)
    (theirs,) = await _bid_ids(other, collection, 1, price=3_000)
    unknown = "e" * 24

    report = await cancel_bids(bidder, [ours[0], unknown, theirs, ours[2], ours[1]])

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
    assert [e for e in await fetch_open_bids(bidder) if e.collection_slug == collection] == []
    assert [e.bid_id for e in await fetch_open_bids(other)] == [theirs]


@BOTH_KEYINGS
async def test_unlisted_bids_are_cancelled_by_whichever_address_the_service_accepts(
    bidder: ServiceContext,
    collection: str,
    sandbox_faults: SandboxFaults,
    bids_keyed_by: BidsKeyedBy,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When the open bids cannot be read, the owner of each bid is unknown: the ordinals
    address is asked first and, when the service says the bids are another maker's
    (CANCEL_NOT_MAKER: they are keyed by the payment address), the payment address."""
    ids = await _bid_ids(bidder, collection, 2)
    down = await sandbox_faults.arm(
        "reply", "/v1/address/bids", method="GET", status=503, body=DOWN, times=None
    )
    heard = Answers(bidder, monkeypatch)

    report = await cancel_bids(bidder, ids)

    assert report.all_cancelled and report.cancelled_ids == tuple(ids)
    answers = await sandbox_faults.requests("POST", CANCEL)
    makers = [a.body["makerAddress"] for a in answers]
    if bids_keyed_by == "payment":
        assert makers == [bidder.ordinals_address, bidder.payment_address]
        assert [a.status for a in answers] == [403, 200]
        assert heard.cancel_refusals == ["CANCEL_NOT_MAKER"]
    else:
        assert makers == [bidder.ordinals_address]
    await sandbox_faults.remove(down)
    assert await fetch_open_bids(bidder) == []


@pytest.mark.parametrize("bids_keyed_by", ["payment"])
async def test_ordinals_credential_not_the_maker_then_payment_credential_refused(
    bidder: ServiceContext, collection: str, sandbox_faults: SandboxFaults
) -> None:
    """Payment-keyed service, open bids unreadable: the ordinals credential is refused for
    our bid (CANCEL_NOT_MAKER, the real answer) and so is a fresh payment credential (a
    fault, twice): the user hears that the payment address's credential was refused, not
    that the bid is another maker's, nor that a challenge expired."""
    (bid_id,) = await _bid_ids(bidder, collection, 1)
    down = await sandbox_faults.arm(
        "reply", "/v1/address/bids", method="GET", status=503, body=DOWN, times=None
    )
    refused = {"errorCode": "CANCEL_CREDENTIAL_INVALID", "message": "bad credential."}
    by_payment = {"makerAddress": bidder.payment_address}
    await sandbox_faults.arm(
        "reply", CANCEL, method="POST", status=403, body=refused, times=2, when_body=by_payment
    )

    with pytest.raises(CredentialRefusedError) as refusal:
        await cancel_bids(bidder, [bid_id], cache=ChallengeCache())

    sent = await sandbox_faults.requests("POST", CANCEL)
    answers = [(a.body["makerAddress"], a.status) for a in sent]
    assert answers == [
        (bidder.ordinals_address, 403),
        (bidder.payment_address, 403),
        (bidder.payment_address, 403),  # once more with a fresh challenge
    ]
    assert refusal.value.address == bidder.payment_address
    assert "not an expired challenge" in refusal.value.user_message
    assert "another maker" not in refusal.value.user_message
    await sandbox_faults.remove(down)
    assert [e.bid_id for e in await fetch_open_bids(bidder)] == [bid_id]


@pytest.mark.parametrize(
    ("kind", "options"),
    [("drop", {}), ("error", {"status": 503})],
    ids=["connection-lost", "server-error"],
)
async def test_a_cancel_whose_answer_is_lost_is_read_back_from_the_open_bids(
    bidder: ServiceContext,
    collection: str,
    sandbox_faults: SandboxFaults,
    kind: FaultKind,
    options: dict[str, Any],
) -> None:
    """Spec 4.2: after a lost answer (a dropped connection, a 5xx) the request may have been
    carried out: the open bids say which. Applied: cancelled; not applied: still open, said."""
    carried_out, kept = await _bid_ids(bidder, collection, 2)
    await sandbox_faults.arm(kind, CANCEL, method="POST", applied=True, **options)
    report = await cancel_bids(bidder, [carried_out])
    assert [(i.bid_id, i.cancelled, i.reason) for i in report.items] == [(carried_out, True, None)]

    await sandbox_faults.arm(kind, CANCEL, method="POST", applied=False, **options)
    report = await cancel_bids(bidder, [kept])
    assert [(i.bid_id, i.cancelled, i.reason) for i in report.items] == [
        (kept, False, LOST_AND_STILL_LISTED)
    ]
    open_ids = [e.bid_id for e in await fetch_open_bids(bidder) if e.collection_slug == collection]
    assert open_ids == [kept]
    assert len(await sandbox_faults.fired()) == 2


async def test_a_lost_cancel_answer_and_an_unreadable_list_say_the_lost_answer(
    bidder: ServiceContext, collection: str, sandbox_faults: SandboxFaults
) -> None:
    (bid,) = await _bid_ids(bidder, collection, 1)
    await sandbox_faults.arm("drop", CANCEL, method="POST", applied=True)
    await sandbox_faults.arm(
        "reply", "/v1/address/bids", method="GET", status=503, body=DOWN, times=None
    )
    with pytest.raises(NetError):
        await cancel_bids(bidder, [bid])
