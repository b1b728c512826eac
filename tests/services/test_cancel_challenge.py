"""A lying service serves, as a cancel "challenge", the colon-joined message of a bid the user
never asked for: signing it would hand over a valid `signedBiddingMessage` (the same BIP-322
signature by the same key). The challenge is checked before any key signs it or any window
shows it for signing elsewhere (`app/core/cancel_challenge.py`); nothing is sent.
(Attack found in review; the reproduction placed a 900,000-sat bid on the sandbox.)"""

from __future__ import annotations

from urllib.parse import parse_qs

import pytest

from app.core.bid_message import bid_message
from app.net.sandbox_requests import ReceivedRequest
from app.services.bids import BidderIdentity, BidSpec, bid_request, place_bid
from app.services.cancel import cancel_bid
from app.services.context import ServiceContext
from app.services.errors import ChallengeError
from app.services.open_bids import fetch_open_bids
from app.services.signed_elsewhere import prepare_cancel
from tests.services.conftest import (
    BOTH_KEYINGS,
    ContextFactory,
    SandboxControl,
    SandboxFaults,
    hour_from_now,
)
from tests.support.journal import naming

pytestmark = pytest.mark.asyncio(loop_scope="session")


CHALLENGE_LIFETIME_MS = 10 * 60_000  # the sandbox's (docs/sandbox-marketplace.md)


async def serve_as_challenge(faults: SandboxFaults, ctx: ServiceContext, text: str) -> None:
    """Every address's challenge becomes `text`, live as long as the sandbox's."""
    answer = {"challenge": text, "expiresAt": ctx.clock.now_ms() + CHALLENGE_LIFETIME_MS}
    body = {"success": True, "data": answer}
    await faults.arm("reply", "/v1/challenge", method="GET", status=200, body=body, times=None)


async def cancels_by(faults: SandboxFaults, ctx: ServiceContext) -> list[ReceivedRequest]:
    """The cancels the sandbox received from ctx's addresses."""
    sent = await faults.requests("POST", "/v1/cancel")
    return naming(sent, ctx.ordinals_address, ctx.payment_address)


async def forged_bid_message(ctx: ServiceContext, sandbox: SandboxControl, slug: str) -> str:
    now = int((await sandbox.info())["clockMs"])
    spec = BidSpec.collection(slug, 900_000, 1, now + 3_600_000)
    return bid_message(bid_request(spec, BidderIdentity.of(ctx), now))


@BOTH_KEYINGS
async def test_a_bid_message_served_as_the_challenge_is_never_signed(
    make_context: ContextFactory,
    bidder: ServiceContext,
    sandbox_faults: SandboxFaults,
    sandbox: SandboxControl,
    collection: str,
) -> None:
    victim = make_context(bidder.keys)
    await place_bid(victim, BidSpec.collection(collection, 2_000, 1, hour_from_now(victim)))
    (mine,) = [e.bid_id for e in await fetch_open_bids(victim)]
    forged = await forged_bid_message(victim, sandbox, collection)
    await serve_as_challenge(sandbox_faults, victim, forged)

    with pytest.raises(ChallengeError, match="shaped like a bid message"):
        await cancel_bid(victim, mine)

    assert await cancels_by(sandbox_faults, victim) == []  # no signature left the app
    assert [e.bid_id for e in await fetch_open_bids(victim)] == [mine]


async def test_a_challenge_naming_our_key_is_not_shown_for_signing_elsewhere(
    make_context: ContextFactory, bidder: ServiceContext, sandbox_faults: SandboxFaults
) -> None:
    victim = make_context(bidder.keys)
    naming_our_key = f"Sign to confirm\nkey {victim.payment_public_key_hex.upper()}"
    await serve_as_challenge(sandbox_faults, victim, naming_our_key)
    with pytest.raises(ChallengeError, match="names one of this wallet's public keys"):
        await prepare_cancel(victim, ["b" * 24])
    assert await cancels_by(sandbox_faults, victim) == []


async def test_the_sandbox_challenge_passes(
    make_context: ContextFactory, bidder: ServiceContext, sandbox_faults: SandboxFaults
) -> None:
    victim = make_context(bidder.keys)
    wanted = await prepare_cancel(victim, ["c" * 24])
    assert wanted.challenges and all("Nonce:" in c.challenge for c in wanted.challenges)
    asked = await sandbox_faults.requests(path="/v1/challenge")
    queried = [parse_qs(r.query)["address"][0] for r in asked]
    assert queried  # the challenges came from the service
    assert set(queried) <= {victim.ordinals_address, victim.payment_address}
