"""A bid on one inscription end to end against a real sandbox process: intent -> review ->
sign -> place, then the sandbox's seller accepts and the inscription arrives; our bids listed
with their state (or the open ones, from a service without that list)."""

from __future__ import annotations

import pytest

from app.core.psbt_review_context import Role
from app.services.context import ServiceContext
from app.services.errors import BidNotPlacedError, BidRejectedError, OrdUnavailableError
from app.services.inscription_bid import (
    InscriptionBidState,
    execute_inscription_bid,
    my_inscription_bids,
    prepare_inscription_bid,
)
from app.services.psbt_flow import ChainUnavailableError
from tests.services.conftest import SandboxControl, SandboxFaults
from tests.services.test_listings import inscribe
from tests.support.journal import lines, naming

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def sandbox_held_inscription(sandbox: SandboxControl, label: str = "seller-b") -> str:
    address = await sandbox.call(lambda c: c.sandbox_address(label))
    inscription_id: str = (await inscribe(sandbox, address))["inscriptionId"]
    return inscription_id


async def test_a_bid_is_placed_then_accepted_and_the_inscription_arrives(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    inscription_id = await sandbox_held_inscription(sandbox)
    plan = await prepare_inscription_bid(ctx, inscription_id, 50_000)

    review = plan.psbt.review
    assert [p.input_index for p in plan.psbt.verdict.to_sign] == list(range(1, len(review.inputs)))
    assert not review.inputs[0].is_ours
    landing = review.landing_of(inscription_id)
    assert landing is not None and Role.ORDINALS in landing.roles
    payment = review.summary.flow(Role.PAYMENT)
    assert payment is not None and payment.net is not None and review.fee is not None
    postage = review.outputs[landing.output_index or 0].value
    assert -payment.net == 50_000 + postage + review.fee

    placed = await execute_inscription_bid(ctx, plan)
    assert placed.bid_id is not None
    open_bids = await ctx.clients.marketplace.get_bids(ctx.ordinals_address)
    assert [(b.bid_id, b.inscription_id) for b in open_bids] == [(placed.bid_id, inscription_id)]
    mine = await my_inscription_bids(ctx)
    assert mine.with_states
    assert mine.rows == (InscriptionBidState(placed.bid_id, inscription_id, 50_000, "open"),)

    accepted = await sandbox.call(lambda c: c.accept_inscription_bid(placed.bid_id))
    assert (accepted.bid_id, accepted.inscription_id, accepted.price) == (
        placed.bid_id,
        inscription_id,
        50_000,
    )
    await sandbox.mine()
    location = await ctx.clients.ord.inscription(inscription_id)
    assert location.address == ctx.ordinals_address
    assert await ctx.clients.marketplace.get_bids(ctx.ordinals_address) == []
    (ended,) = (await my_inscription_bids(ctx)).rows
    assert (ended.bid_id, ended.state) == (placed.bid_id, "accepted")
    assert ended.end_txid is not None


@pytest.mark.parametrize("status", [404, 405])
async def test_without_the_list_with_states_the_open_bids_are_listed(
    status: int,
    ctx: ServiceContext,
    sandbox: SandboxControl,
    sandbox_faults: SandboxFaults,
) -> None:
    inscription_id = await sandbox_held_inscription(sandbox)
    placed = await execute_inscription_bid(
        ctx, await prepare_inscription_bid(ctx, inscription_id, 40_000)
    )
    assert placed.bid_id is not None
    path = "/v1/address/inscription-bids"
    await sandbox_faults.arm(
        "reply", path, method="GET", status=status, body={"detail": "Not Found"}
    )
    await sandbox_faults.forget_requests()

    mine = await my_inscription_bids(ctx)

    assert not mine.with_states
    assert mine.rows == (InscriptionBidState(placed.bid_id, inscription_id, 40_000, "open"),)
    # The open bids are read under both our addresses (the service may key them by either).
    asked = naming(await sandbox_faults.requests(), ctx.ordinals_address, ctx.payment_address)
    assert lines(asked) == [f"GET {path}", "GET /v1/address/bids", "GET /v1/address/bids"]


async def test_a_price_below_the_minimum_is_refused_before_anything_is_sent(
    ctx: ServiceContext, sandbox: SandboxControl, sandbox_faults: SandboxFaults
) -> None:
    inscription_id = await sandbox_held_inscription(sandbox)
    await sandbox_faults.forget_requests()
    with pytest.raises(BidRejectedError, match="at least 10,000 sats"):
        await prepare_inscription_bid(ctx, inscription_id, 9_999)
    assert lines(await sandbox_faults.requests()) == []


async def test_a_bid_on_our_own_inscription_is_refused_with_the_services_reason(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    inscription_id = (await inscribe(sandbox, ctx.ordinals_address))["inscriptionId"]
    with pytest.raises(BidNotPlacedError) as refused:
        await prepare_inscription_bid(ctx, inscription_id, 20_000)
    assert refused.value.error_code is not None
    assert inscription_id in refused.value.user_message


async def test_a_5xx_after_the_bid_was_stored_is_not_placed_twice(
    ctx: ServiceContext,
    sandbox: SandboxControl,
    sandbox_faults: SandboxFaults,
) -> None:
    inscription_id = await sandbox_held_inscription(sandbox)
    plan = await prepare_inscription_bid(ctx, inscription_id, 30_000)
    await sandbox_faults.arm("error", "/v1/bid/place", method="POST", status=502, applied=True)
    await sandbox_faults.forget_requests()

    placed = await execute_inscription_bid(ctx, plan)

    ours = lines(
        naming(
            await sandbox_faults.requests(),
            inscription_id,
            ctx.ordinals_address,
            ctx.payment_address,
        )
    )
    assert ours.count("POST /v1/bid/place") == 1
    assert ours[-1] == "GET /v1/address/bids"
    assert [f.path for f in await sandbox_faults.fired()] == ["/v1/bid/place"]
    open_bids = await ctx.clients.marketplace.get_bids(ctx.ordinals_address)
    assert [b.bid_id for b in open_bids] == [placed.bid_id]


@pytest.mark.parametrize(
    ("down", "error"),
    [("/ord/*", OrdUnavailableError), ("/esplora/tx/*", ChainUnavailableError)],
)
async def test_unreachable_ord_or_chain_means_refuse_not_guess(
    down: str,
    error: type[Exception],
    ctx: ServiceContext,
    sandbox: SandboxControl,
    sandbox_faults: SandboxFaults,
) -> None:
    inscription_id = await sandbox_held_inscription(sandbox)
    await sandbox_faults.arm("reply", down, status=503, body={"message": "down"}, times=None)
    with pytest.raises(error, match="nothing"):
        await prepare_inscription_bid(ctx, inscription_id, 25_000)
    placed = await sandbox_faults.requests("POST", "/v1/bid/place")
    assert naming(placed, inscription_id) == []
