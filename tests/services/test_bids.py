"""Collection, trait and rune bids against a real sandbox: placed as asked, signed as the spec
says (checked by the service's verifier and ours), pre-flight refusals before any signing; the
pool check counts our open bids whichever address the service lists them under
(`BOTH_KEYINGS`). Rune names: tests/services/test_bids_runes.py."""

from __future__ import annotations

import secrets
import string

import pytest

from app.core.bid_message import bid_message
from app.core.bid_request import CollectionBidRequest, Trait
from app.core.errors import ErrorCode
from app.net.marketplace_bids import BidListEntry
from app.services.bidding_wallet import get_bidding_wallet
from app.services.bids import BidSpec, place_bid
from app.services.context import ServiceContext
from app.services.errors import BidRejectedError, PoolDoesNotFitError
from app.services.open_bids import fetch_open_bids
from app.wallet.message import MessageScheme, verify_message
from tests.services.conftest import (
    BIDDING_FUNDS,
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


def _of(entries: list[BidListEntry], slug: str) -> list[BidListEntry]:
    return [e for e in entries if e.collection_slug == slug]


@BOTH_KEYINGS
async def test_collection_bid_places_quantity_bids(
    bidder: ServiceContext, collection: str, bids_keyed_by: BidsKeyedBy
) -> None:
    expiry = hour_from_now(bidder)
    outcome = await place_bid(bidder, BidSpec.collection(collection, 20_000, 3, expiry))
    placement = outcome.placement
    assert [a.result.value for a in placement.attempts] == ["placed"]
    listed = _of(await fetch_open_bids(bidder), collection)
    assert len(listed) == 3
    assert {(e.price, e.expiration_ms, e.attribute) for e in listed} == {(20_000, expiry, None)}
    assert {e.listed_under for e in listed} == {keyed_address(bidder, bids_keyed_by)}
    # The signature sent signs exactly the spec's message, by the payment address.
    request = placement.request
    assert request.bidder_address == bidder.payment_address
    assert request.bidder_token_receive_address == bidder.ordinals_address
    checked = verify_message(
        bidder.payment_address, bid_message(request), request.signed_bidding_message
    )
    assert checked.scheme is MessageScheme.BIP322_SIMPLE


async def test_trait_bid_with_three_traits_and_the_pace_after_it(
    make_context: ContextFactory,
    bidder: ServiceContext,
    collection: str,
    sandbox_faults: SandboxFaults,
    sandbox_sleeper: SandboxSleeper,
) -> None:
    ctx = make_context(bidder.keys)
    traits = [Trait("hat", "red"), Trait("eyes", "laser"), Trait("background", "sky")]
    spec = BidSpec.trait(collection, traits, 10_000, 2, hour_from_now(ctx))
    await place_bid(ctx, spec)
    listed = _of(await fetch_open_bids(ctx), collection)
    assert len(listed) == 6  # 2 per trait, each trait its own pool
    assert {(e.attribute.trait_type, e.attribute.value) for e in listed if e.attribute} == {
        ("hat", "red"),
        ("eyes", "laser"),
        ("background", "sky"),
    }
    sent = (await sandbox_faults.placements(collection))[0].body
    assert "Type: ordinals\nAttributes: " in bid_message_of(sent)
    # The next request waits 3 x 500 ms first (the sleeper advances the service clock): the
    # service never has to rate-limit us.
    await place_bid(ctx, BidSpec.collection(collection, 5_000, 1, hour_from_now(ctx)))
    assert sandbox_sleeper.waits == [1_500]
    assert [r.status for r in await sandbox_faults.placements(collection)] == [200, 200]


def bid_message_of(body: dict[str, object]) -> str:
    return bid_message(CollectionBidRequest.from_json(body))


async def test_rune_bid(bidder: ServiceContext, sandbox: SandboxControl) -> None:
    rune = "BIDWALLET•" + "".join(secrets.choice(string.ascii_uppercase) for _ in range(8))
    await sandbox.etch_runes(bidder.payment_address, rune, 1_000_000)
    expiry = hour_from_now(bidder)
    await place_bid(bidder, BidSpec.rune(rune, 25_000, 500, expiry))
    listed = [e for e in await fetch_open_bids(bidder) if e.is_rune_bid]
    assert len(listed) == 1
    assert (listed[0].rune_name, listed[0].price, listed[0].quantity) == (rune, 25_000, 500)


async def test_bip137_on_request_for_a_segwit_payment_address(
    bidder: ServiceContext, collection: str
) -> None:
    outcome = await place_bid(
        bidder,
        BidSpec.collection(collection, 3_000, 1, hour_from_now(bidder)),
        scheme=MessageScheme.BIP137,
    )
    request = outcome.placement.request
    checked = verify_message(
        bidder.payment_address, bid_message(request), request.signed_bidding_message
    )
    assert checked.scheme is MessageScheme.BIP137
    assert len(_of(await fetch_open_bids(bidder), collection)) == 1


async def test_taproot_payment_address_bids_with_bip322(
    make_keys: KeysFactory,
    make_context: ContextFactory,
    sandbox: SandboxControl,
    collection: str,
) -> None:
    ctx = make_context(make_keys("unisat-p2tr"))
    await sandbox.faucet((await get_bidding_wallet(ctx)).address, 100_000)
    await place_bid(ctx, BidSpec.collection(collection, 2_000, 1, hour_from_now(ctx)))
    assert len(_of(await fetch_open_bids(ctx), collection)) == 1


@BOTH_KEYINGS
async def test_pool_that_does_not_fit_names_the_pool_and_the_shortfall(
    make_context: ContextFactory,
    bidder: ServiceContext,
    collection: str,
    sandbox_faults: SandboxFaults,
) -> None:
    """The second request would over-commit the pool: refused before signing, wherever the
    service lists the first one (read under the ordinals address alone, a payment-keyed
    service's list is empty and the pool would look free)."""
    ctx = make_context(bidder.keys)
    fee = ctx.maker_fee
    price = 300_000
    await place_bid(ctx, BidSpec.collection(collection, price, 2, hour_from_now(ctx)))
    committed = 2 * (price + fee.on(price))
    with pytest.raises(PoolDoesNotFitError) as caught:
        await place_bid(ctx, BidSpec.collection(collection, price, 2, hour_from_now(ctx)))
    (short,) = caught.value.shortfalls
    assert short.pool == collection
    assert short.needed == 2 * committed and short.available == BIDDING_FUNDS
    assert short.shortfall == 2 * committed - BIDDING_FUNDS
    assert f"{short.shortfall:,} sats short" in caught.value.user_message
    # Another pool (a trait of the same collection) still has the whole balance.
    await place_bid(
        ctx, BidSpec.trait(collection, [Trait("hat", "red")], price, 3, hour_from_now(ctx))
    )
    assert len(await sandbox_faults.placements(collection)) == 2


async def test_rule_violations_stop_before_signing(
    bidder: ServiceContext,
    collection: str,
    sandbox_faults: SandboxFaults,
    make_context: ContextFactory,
) -> None:
    ctx = make_context(bidder.keys)
    bad = BidSpec.collection(collection, 1_500, 1, ctx.clock.now_ms() + 60_000)
    with pytest.raises(BidRejectedError) as caught:
        await place_bid(ctx, bad)
    codes = {v.code for v in caught.value.violations}
    assert codes == {ErrorCode.COLLECTION_BID_PRICE_STEP, ErrorCode.COLLECTION_BID_EXPIRY_TOO_SOON}
    assert await sandbox_faults.placements(collection) == []
