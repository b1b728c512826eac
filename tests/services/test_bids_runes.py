"""Rune names end to end on a real sandbox: a rune is typed however the user likes (without
spacers, in lower case, with '.' for '•') and bid on, listed, pooled and matched by the retry
check under its etched spelling, the one ord's rune entry gives; a name that is no rune name
by ord's rules, or that no etched rune has, is refused before anything is signed."""

from __future__ import annotations

import secrets
import string
from typing import Any

import pytest

from app.core.pools import PoolKey
from app.core.rune_names import rune_letters
from app.services import bids as bids_module
from app.services.bids import BidSpec, place_bid
from app.services.context import ServiceContext
from app.services.errors import OrdUnavailableError, PoolDoesNotFitError, UnknownRuneError
from app.services.open_bids import fetch_open_bids, load_open_bids
from tests.services.conftest import (
    BIDDING_FUNDS,
    BOTH_KEYINGS,
    BidsKeyedBy,
    ContextFactory,
    SandboxControl,
    SandboxFaults,
    hour_from_now,
    keyed_address,
)
from tests.support.journal import lines

pytestmark = pytest.mark.asyncio(loop_scope="session")
PLACE = "/v1/bid/place"
DOWN = {"message": "down"}


def _letters(n: int) -> str:
    return "".join(secrets.choice(string.ascii_uppercase) for _ in range(n))


@pytest.fixture
async def rune(bidder: ServiceContext, sandbox: SandboxControl) -> str:
    """A freshly etched rune with several spacers, e.g. `QXJW•GO•TO•THE•MZKA`."""
    etched = f"{_letters(4)}•GO•TO•THE•{_letters(4)}"
    await sandbox.etch_runes(bidder.payment_address, etched, 1_000_000)
    return etched


@pytest.fixture
def signed(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every bid request the use case signs."""
    calls: list[Any] = []
    real = bids_module.sign_bid

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(bids_module, "sign_bid", spy)
    return calls


@pytest.mark.parametrize(
    "typed",
    [
        pytest.param(lambda e: e.replace("•", ""), id="no-spacers"),
        pytest.param(lambda e: e.replace("•", "").lower(), id="lower-case"),
        pytest.param(lambda e: e.replace("•", "."), id="dot-spacers"),
        pytest.param(lambda e: f"  {e.lower().replace('•', '.')} ", id="blanks-lower-dots"),
    ],
)
async def test_a_rune_typed_loosely_is_bid_on_and_listed_under_its_etched_name(
    bidder: ServiceContext, rune: str, typed: Any, signed: list[Any]
) -> None:
    text = typed(rune)
    assert text != rune and rune_letters(text) == rune_letters(rune)
    outcome = await place_bid(bidder, BidSpec.rune(text, 25_000, 500, hour_from_now(bidder)))
    assert outcome.spec.collection_slug == rune
    assert outcome.placement.request.collection_slug == rune  # what was signed and sent
    assert len(signed) == 1
    listed = [e for e in await fetch_open_bids(bidder) if e.is_rune_bid]
    assert [(e.rune_name, e.price, e.quantity) for e in listed] == [(rune, 25_000, 500)]


async def test_bids_typed_with_and_without_spacers_share_one_pool(
    make_context: ContextFactory, bidder: ServiceContext, rune: str, sandbox_faults: SandboxFaults
) -> None:
    ctx = make_context(bidder.keys)
    fee = ctx.maker_fee
    price = 400_000
    await place_bid(ctx, BidSpec.rune(rune.replace("•", ""), price, 100, hour_from_now(ctx)))
    await place_bid(ctx, BidSpec.rune(rune, price, 200, hour_from_now(ctx)))
    view = await load_open_bids(ctx)
    committed = 2 * (price + fee.on(price))
    assert [(p.pool, p.bids, p.committed) for p in view.pools] == [(PoolKey(rune), 2, committed)]
    # A third, typed another way, is counted in that same pool: it does not fit.
    with pytest.raises(PoolDoesNotFitError) as caught:
        await place_bid(
            ctx, BidSpec.rune(rune.lower().replace("•", "."), price, 300, hour_from_now(ctx))
        )
    (short,) = caught.value.shortfalls
    assert short.pool == rune
    assert short.needed == committed + price + fee.on(price)
    assert short.available == BIDDING_FUNDS
    assert len(await sandbox_faults.placements(rune)) == 2


@BOTH_KEYINGS
async def test_the_retry_check_finds_a_rune_bid_typed_without_spacers(
    make_context: ContextFactory,
    bidder: ServiceContext,
    rune: str,
    sandbox_faults: SandboxFaults,
    bids_keyed_by: BidsKeyedBy,
) -> None:
    """Stored, then a 502: the open bids list the bid under the etched name, the request
    was made under it too, so the check finds it and the bid is not placed twice."""
    ctx = make_context(bidder.keys)
    await sandbox_faults.arm("error", PLACE, method="POST", status=502, applied=True)
    typed = rune.replace("•", "").lower()
    outcome = await place_bid(ctx, BidSpec.rune(typed, 30_000, 700, hour_from_now(ctx)))
    assert len(await sandbox_faults.placements(rune)) == 1
    assert outcome.placement.confirmed_by_listing
    listed = [e for e in await fetch_open_bids(ctx) if e.is_rune_bid]
    assert [(e.rune_name, e.quantity, e.listed_under) for e in listed] == [
        (rune, 700, keyed_address(ctx, bids_keyed_by))
    ]


async def test_an_unknown_rune_is_refused_before_anything_is_signed(
    make_context: ContextFactory,
    bidder: ServiceContext,
    sandbox_faults: SandboxFaults,
    signed: list[Any],
) -> None:
    ctx = make_context(bidder.keys)
    name = f"NO•SUCH•{_letters(12)}"
    await sandbox_faults.forget_requests()
    with pytest.raises(UnknownRuneError) as caught:
        await place_bid(ctx, BidSpec.rune(name.replace("•", ""), 25_000, 500, hour_from_now(ctx)))
    message = caught.value.user_message
    assert message.startswith(f"No rune named {name.replace('•', '')} is etched")
    assert message.endswith("check the name.")
    assert signed == []
    # ord asked, nothing else
    assert lines(await sandbox_faults.requests()) == [f"GET /ord/rune/{rune_letters(name)}"]


@pytest.mark.parametrize(
    ("typed", "rule"),
    [
        ("A•", "a rune name cannot end with a spacer"),
        ("•ABC", "a rune name cannot start with a spacer"),
        ("ABC••D", "a rune name cannot have two spacers in a row"),
        ("abc..d", "a rune name cannot have two spacers in a row"),
        ("DOG-GO", "'-' cannot be in a rune name: only letters A-Z, with '•' between them"),
        ("DOG1", "'1' cannot be in a rune name"),
        ("   ", "a rune name needs at least one letter"),
        ("A" * 29, "is past the last rune name (28 letters at most"),
        ("BCGDENLQRQWDSLRUGSNLBTMFIJAW", "is past the last rune name (28 letters at most"),
    ],
    ids=[
        "trailing-spacer",
        "leading-spacer",
        "double-spacer",
        "double-dot",
        "hyphen",
        "digit",
        "blank",
        "29-letters",
        "past-the-last",
    ],
)
async def test_a_malformed_rune_name_is_refused_before_anything_is_sent(
    make_context: ContextFactory,
    bidder: ServiceContext,
    sandbox_faults: SandboxFaults,
    signed: list[Any],
    typed: str,
    rule: str,
) -> None:
    ctx = make_context(bidder.keys)
    await sandbox_faults.forget_requests()
    with pytest.raises(UnknownRuneError) as caught:
        await place_bid(ctx, BidSpec.rune(typed, 25_000, 500, hour_from_now(ctx)))
    message = caught.value.user_message
    assert message.startswith(f"{typed.strip()!r} is not a rune name: ")
    assert rule in message
    assert signed == [] and lines(await sandbox_faults.requests()) == []


async def test_a_rune_ord_cannot_be_asked_about_is_not_bid_on(
    make_context: ContextFactory,
    bidder: ServiceContext,
    rune: str,
    sandbox_faults: SandboxFaults,
    signed: list[Any],
) -> None:
    ctx = make_context(bidder.keys)
    await sandbox_faults.arm("reply", "/ord/rune/*", method="GET", status=503, body=DOWN)
    with pytest.raises(OrdUnavailableError, match="so no bid was placed"):
        await place_bid(ctx, BidSpec.rune(rune.replace("•", ""), 25_000, 500, hour_from_now(ctx)))
    assert signed == [] and await sandbox_faults.requests("POST", PLACE) == ()
