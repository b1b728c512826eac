"""A lying service serves, as a cancel "challenge", the colon-joined message of a bid the user
never asked for: signing it would hand over a valid `signedBiddingMessage` (the same BIP-322
signature by the same key). The challenge is checked before any key signs it or any window
shows it for signing elsewhere (`app/core/cancel_challenge.py`); nothing is sent.
(Attack found in review; the reproduction placed a 900,000-sat bid on the sandbox.)"""

from __future__ import annotations

import json
from urllib.parse import parse_qs

import pytest

from app.core.bid_message import bid_message
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
    hour_from_now,
)
from tests.support.proxy import FaultProxy

pytestmark = pytest.mark.asyncio(loop_scope="session")


def serve_as_challenge(proxy: FaultProxy, text: str) -> None:
    """Every address's challenge becomes `text`."""

    def rewrite(method: str, path: str, status: int, body: bytes) -> bytes | None:
        if method == "GET" and path == "/v1/challenge" and status == 200:
            answer = json.loads(body)
            answer["data"]["challenge"] = text
            return json.dumps(answer).encode()
        return None

    proxy.rewrite(rewrite)


async def forged_bid_message(ctx: ServiceContext, sandbox: SandboxControl, slug: str) -> str:
    now = int((await sandbox.info())["clockMs"])
    spec = BidSpec.collection(slug, 900_000, 1, now + 3_600_000)
    return bid_message(bid_request(spec, BidderIdentity.of(ctx), now))


@BOTH_KEYINGS
async def test_a_bid_message_served_as_the_challenge_is_never_signed(
    make_context: ContextFactory,
    bidder: ServiceContext,
    proxy: FaultProxy,
    sandbox: SandboxControl,
    collection: str,
) -> None:
    victim = make_context(bidder.keys, proxy.url)
    await place_bid(victim, BidSpec.collection(collection, 2_000, 1, hour_from_now(victim)))
    (mine,) = [e.bid_id for e in await fetch_open_bids(victim)]
    serve_as_challenge(proxy, await forged_bid_message(victim, sandbox, collection))

    with pytest.raises(ChallengeError, match="shaped like a bid message"):
        await cancel_bid(victim, mine)

    assert proxy.requests("POST", "/v1/cancel") == []  # no signature left the app
    assert [e.bid_id for e in await fetch_open_bids(victim)] == [mine]


async def test_a_challenge_naming_our_key_is_not_shown_for_signing_elsewhere(
    make_context: ContextFactory, bidder: ServiceContext, proxy: FaultProxy
) -> None:
    victim = make_context(bidder.keys, proxy.url)
    serve_as_challenge(proxy, f"Sign to confirm\nkey {victim.payment_public_key_hex.upper()}")
    with pytest.raises(ChallengeError, match="names one of this wallet's public keys"):
        await prepare_cancel(victim, ["b" * 24])
    assert [s for s in proxy.seen if s.path == "/v1/cancel"] == []


async def test_the_sandbox_challenge_passes(
    make_context: ContextFactory, bidder: ServiceContext, proxy: FaultProxy
) -> None:
    victim = make_context(bidder.keys, proxy.url)
    wanted = await prepare_cancel(victim, ["c" * 24])
    assert wanted.challenges and all("Nonce:" in c.challenge for c in wanted.challenges)
    queried = [parse_qs(s.query)["address"][0] for s in proxy.seen if s.path == "/v1/challenge"]
    assert set(queried) <= {victim.ordinals_address, victim.payment_address}
