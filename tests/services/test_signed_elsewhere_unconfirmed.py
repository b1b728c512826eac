"""A bid signed elsewhere that the marketplace did not confirm (a 429, a 5xx): sent once, and
the user is told what the open bids, read under both addresses afterwards, show. Found in
review: after a 429 the app said the bid "is not among your open bids" without reading them
and asked for a new message to be signed; had the service applied the request, signing again
would have placed two bids.

- placed anyway (a 429 after the service stored it, even with a wait not waited out): placed;
- not placed (read, not there): not placed, sign a new message;
- the list cannot be read either: unknown, look before signing again.

The faults are the sandbox's own (docs/sandbox-faults.md; the long wait after the bid was stored
is an applied `error` fault with `retryAfterMs`) and what was sent is read on its request
journal."""

from __future__ import annotations

import pytest

from app.services.bidding_wallet import get_bidding_wallet
from app.services.bids import BidSpec
from app.services.context import ServiceContext
from app.services.errors import BidNotPlacedError
from app.services.open_bids import fetch_open_bids
from app.services.signed_elsewhere import BidToSign, place_signed_bid, prepare_bid_message
from app.wallet.message import sign_message
from tests.services.conftest import (
    BIDDING_FUNDS,
    BOTH_KEYINGS,
    COIN_SATS,
    ContextFactory,
    SandboxControl,
    SandboxFaults,
    hour_from_now,
)
from tests.services.test_signed_elsewhere import Collector
from tests.services.test_signed_elsewhere import collector as collector  # the fixture
from tests.support.journal import lines, naming

pytestmark = pytest.mark.asyncio(loop_scope="session")

PLACE = "/v1/bid/place"
LIST = "/v1/address/bids"


@pytest.fixture
async def watching(
    collector: Collector, make_context: ContextFactory, sandbox: SandboxControl
) -> ServiceContext:
    """The watch-only context, its bidding wallet funded."""
    await sandbox.faucet(collector.keys.payment.address, COIN_SATS)
    ctx = make_context(collector.public)
    await sandbox.faucet((await get_bidding_wallet(ctx)).address, BIDDING_FUNDS)
    return ctx


async def signed_bid(ctx: ServiceContext, collector: Collector, slug: str) -> tuple[BidToSign, str]:
    wanted = await prepare_bid_message(ctx, BidSpec.collection(slug, 10_000, 1, hour_from_now(ctx)))
    return wanted, sign_message(collector.keys.payment, wanted.message).signature


async def lists_read_after_the_send(faults: SandboxFaults, ctx: ServiceContext, slug: str) -> int:
    """How many times ctx's open bids were read after its bid on `slug` was sent."""
    received = await faults.requests()
    paths = lines(naming(received, slug, ctx.ordinals_address, ctx.payment_address))
    return paths[paths.index(f"POST {PLACE}") :].count(f"GET {LIST}")


@BOTH_KEYINGS
async def test_a_bid_the_service_stored_before_answering_429_is_said_placed(
    watching: ServiceContext, collector: Collector, sandbox_faults: SandboxFaults, collection: str
) -> None:
    wanted, signature = await signed_bid(watching, collector, collection)
    await sandbox_faults.arm("error", PLACE, method="POST", status=429, applied=True)

    outcome = await place_signed_bid(watching, wanted, signature)
    assert outcome.placement.confirmed_by_listing
    assert outcome.placement.request.signed_bidding_message == signature
    assert len(await sandbox_faults.placements(collection)) == 1
    assert len(await fetch_open_bids(watching)) == 1


async def test_a_stored_bid_whose_429_asks_for_a_long_wait_is_said_placed(
    watching: ServiceContext, collector: Collector, sandbox_faults: SandboxFaults, collection: str
) -> None:
    """A wait over a minute is not waited out; that is no reason to claim anything unread."""
    wanted, signature = await signed_bid(watching, collector, collection)
    await sandbox_faults.arm(
        "error", PLACE, method="POST", status=429, applied=True, retry_after_ms=10**9
    )

    outcome = await place_signed_bid(watching, wanted, signature)
    assert outcome.placement.confirmed_by_listing
    assert await lists_read_after_the_send(sandbox_faults, watching, collection) >= 1
    assert len(await sandbox_faults.placements(collection)) == 1
    assert len(await fetch_open_bids(watching)) == 1


async def test_a_429_that_stored_nothing_is_said_not_placed_after_reading_the_list(
    watching: ServiceContext, collector: Collector, sandbox_faults: SandboxFaults, collection: str
) -> None:
    wanted, signature = await signed_bid(watching, collector, collection)
    await sandbox_faults.arm("reply", PLACE, method="POST", status=429, body={"message": "busy"})

    with pytest.raises(BidNotPlacedError, match="not among them: it was not placed"):
        await place_signed_bid(watching, wanted, signature)
    assert await lists_read_after_the_send(sandbox_faults, watching, collection) >= 1
    assert len(await sandbox_faults.placements(collection)) == 1
    assert await fetch_open_bids(watching) == []


@pytest.mark.parametrize("applied", [True, False], ids=["stored", "not-stored"])
async def test_when_the_list_cannot_be_read_either_the_outcome_is_said_unknown(
    watching: ServiceContext,
    collector: Collector,
    sandbox_faults: SandboxFaults,
    collection: str,
    applied: bool,
) -> None:
    wanted, signature = await signed_bid(watching, collector, collection)
    if applied:
        await sandbox_faults.arm("error", PLACE, method="POST", status=429, applied=True)
    else:
        await sandbox_faults.arm(
            "reply", PLACE, method="POST", status=503, body={"message": "down"}
        )
    down = {"message": "down"}
    unreadable = await sandbox_faults.arm(
        "reply", LIST, method="GET", status=503, body=down, times=None
    )

    with pytest.raises(BidNotPlacedError, match="unknown whether the bid was placed") as said:
        await place_signed_bid(watching, wanted, signature)
    assert "not among" not in str(said.value)
    assert "Look at your open bids before signing a new message" in str(said.value)
    assert len(await sandbox_faults.placements(collection)) == 1
    await sandbox_faults.remove(unreadable)
    assert len(await fetch_open_bids(watching)) == (1 if applied else 0)
