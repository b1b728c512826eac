"""Withdraw end to end against a real sandbox process: intent -> review -> sign -> submit."""

from __future__ import annotations

import pytest

from app.core.psbt_review_context import Role
from app.services.bidding_wallet import bidding_wallet_balance, get_bidding_wallet
from app.services.bids import BidSpec, place_bid
from app.services.context import ServiceContext
from app.services.open_bids import fetch_open_bids
from app.services.withdraw import (
    WITHDRAW_ALL,
    WithdrawError,
    execute_withdraw,
    prepare_withdraw,
)
from tests.services.conftest import (
    BIDDING_FUNDS,
    BOTH_KEYINGS,
    BidsKeyedBy,
    SandboxControl,
    SandboxFaults,
    hour_from_now,
    keyed_address,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def fund_bidding_wallet(ctx: ServiceContext, sandbox: SandboxControl, *coins: int) -> str:
    address = (await get_bidding_wallet(ctx)).address
    for i, sats in enumerate(coins):
        await sandbox.faucet(address, sats, mine=i == len(coins) - 1)
    return address


async def test_withdraw_pays_exactly_the_amount_to_the_payment_address(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    await fund_bidding_wallet(ctx, sandbox, 60_000, 70_000)
    before = await ctx.clients.esplora.address_balance(ctx.payment_address)

    plan = await prepare_withdraw(ctx, 100_000)

    review = plan.psbt.review
    assert plan.psbt.verdict.approved and len(plan.psbt.verdict.to_sign) == 2
    assert all(Role.BIDDING_WALLET in i.roles for i in review.inputs)
    paid = [o for o in review.outputs if Role.PAYMENT in o.roles]
    assert [o.value for o in paid] == [100_000]
    assert plan.balance_before == 130_000 and not plan.sweep
    done = await execute_withdraw(ctx, plan)

    after = await ctx.clients.esplora.address_balance(ctx.payment_address)
    assert after.confirmed + after.unconfirmed - before.confirmed - before.unconfirmed == 100_000
    assert (await ctx.clients.esplora.tx_status(done.txid)).confirmed is False
    left = (await bidding_wallet_balance(ctx)).total
    assert left == 130_000 - 100_000 - review.fee  # type: ignore[operator]


async def test_withdraw_all_is_a_sweep_with_the_fee_taken_from_it(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    await fund_bidding_wallet(ctx, sandbox, 40_000)
    plan = await prepare_withdraw(ctx, WITHDRAW_ALL)
    assert plan.sweep and plan.amount == 40_000
    fee = plan.psbt.review.fee
    assert fee is not None and 0 < fee < 2_000
    await execute_withdraw(ctx, plan)
    assert (await bidding_wallet_balance(ctx)).total == 0


async def test_nothing_is_sent_when_the_amount_exceeds_the_balance(
    ctx: ServiceContext, sandbox: SandboxControl, sandbox_faults: SandboxFaults
) -> None:
    await fund_bidding_wallet(ctx, sandbox, 20_000)
    await sandbox_faults.forget_requests()  # what follows is this withdrawal's alone
    with pytest.raises(WithdrawError, match="holds 20,000 sats"):
        await prepare_withdraw(ctx, 50_000)
    assert not [r.path for r in await sandbox_faults.requests() if "withdraw" in r.path]


@BOTH_KEYINGS
async def test_a_withdrawal_that_leaves_too_little_cancels_bids_and_says_so(
    bidder: ServiceContext, collection: str, bids_keyed_by: BidsKeyedBy
) -> None:
    """1,000,000 sats back 3 bids of 300,000 (plus maker fees); withdrawing 500,000 leaves
    room for one: the plan warns about two, and the service cancels exactly those two,
    whichever address it lists them under."""
    spec = BidSpec.collection(collection, 300_000, 3, hour_from_now(bidder))
    await place_bid(bidder, spec)
    keyed = keyed_address(bidder, bids_keyed_by)
    open_before = await bidder.clients.marketplace.get_bids(keyed)
    assert len(open_before) == 3

    plan = await prepare_withdraw(bidder, 500_000)
    assert plan.balance_before == BIDDING_FUNDS and len(plan.bids_at_risk) == 2
    assert set(plan.bids_at_risk) <= {b.bid_id for b in open_before}
    done = await execute_withdraw(bidder, plan)

    open_after = await bidder.clients.marketplace.get_bids(keyed)
    assert len(open_after) == 1
    assert [b.bid_id for b in await fetch_open_bids(bidder)] == [open_after[0].bid_id]
    assert sorted(done.cancelled_bid_ids) == sorted(plan.bids_at_risk)
    assert {b.bid_id for b in open_before} - {b.bid_id for b in open_after} == set(
        done.cancelled_bid_ids
    )
