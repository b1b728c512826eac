"""A fee rate the user chose, where the user pays the fee and the service builds the transaction
(withdraw, inscription bid), end to end against a real sandbox process: the sandbox honours
`feeRate` and the transaction confirms at that rate (measured from the chain's transaction);
answered as by a service that ignores the field (the sandbox's `reply` fault serving its own
answer to the same request without `feeRate`) the plan says the PSBT pays another rate, with
both figures."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from app.core.asked_fee_rate import RateOutcome
from app.net.marketplace_requests import InscriptionBidIntentRequest, WithdrawIntentRequest
from app.services.context import ServiceContext
from app.services.errors import BidNotPlacedError
from app.services.inscription_bid import (
    execute_inscription_bid,
    my_inscription_bids,
    prepare_inscription_bid,
)
from app.services.psbt_flow import PsbtRefusedError, accept_fee
from app.services.withdraw import WithdrawError, execute_withdraw, prepare_withdraw
from tests.services.conftest import SandboxControl, SandboxFaults
from tests.services.test_inscription_bid import sandbox_held_inscription
from tests.services.test_withdraw import fund_bidding_wallet

pytestmark = pytest.mark.asyncio(loop_scope="session")

RATE = Fraction(12)
SANDBOX_DEFAULT_RATE = 2  # what the sandbox pays without feeRate


async def serve_ignoring_the_rate(
    sandbox: SandboxControl, faults: SandboxFaults, path: str, request: dict[str, Any]
) -> None:
    """The next POST to `path` is answered as a service ignoring feeRate would: the sandbox's
    own answer to `request` (the app's, without feeRate; asked here, nothing submitted). The
    journal is forgotten after it, so what the app sends is all it holds."""
    honest = await sandbox.http.post(path, json=request)
    assert honest.status_code == 200, honest.text
    await faults.arm("reply", path, method="POST", status=200, body=honest.json())
    await faults.forget_requests()


async def answered_ignoring(faults: SandboxFaults, path: str) -> Any:
    """The feeRate the app asked in its one POST to `path`, that fault's reply answering it."""
    (sent,) = await faults.requests("POST", path)
    (ignored,) = await faults.fired()
    assert (ignored.kind, ignored.path) == ("reply", path)
    return sent.body["feeRate"]


async def chain_rate(sandbox: SandboxControl, txid: str) -> float:
    """sat/vB of a transaction as the chain has it (fee over its vsize)."""
    response = await sandbox.http.get(f"/esplora/tx/{txid}")
    assert response.status_code == 200, response.text
    tx = response.json()
    assert tx["status"]["confirmed"], "mined before it is measured"
    fee: int = tx["fee"]
    vsize: int = -(-tx["weight"] // 4)
    return fee / vsize


async def test_a_withdrawal_confirms_at_the_rate_asked(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    await fund_bidding_wallet(ctx, sandbox, 200_000)
    plan = await prepare_withdraw(ctx, 100_000, RATE)
    assert plan.fee_rate is not None and plan.fee_rate.outcome is RateOutcome.AS_ASKED
    assert plan.fee_rate.asked == RATE and plan.fee_rate.paid is not None
    # 12 sat/vB is many times the sandbox's next-block estimate: the user accepts that fee.
    assert plan.psbt.verdict.needs_fee_consent
    done = await execute_withdraw(ctx, replace(plan, psbt=accept_fee(plan.psbt)))
    await sandbox.mine()
    rate = await chain_rate(sandbox, done.txid)
    assert float(RATE) * 0.95 <= rate <= float(RATE) * 1.05, rate


async def test_the_rate_asked_is_no_consent_to_its_fee(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    # Security review: a PSBT paying exactly the (high) rate asked still needs the user's
    # consent to that fee on that PSBT; "as asked" is a note, never an approval.
    await fund_bidding_wallet(ctx, sandbox, 200_000)
    plan = await prepare_withdraw(ctx, 100_000, Fraction(400))
    assert plan.fee_rate is not None and plan.fee_rate.as_asked
    assert plan.psbt.verdict.needs_fee_consent and not plan.psbt.verdict.approved
    with pytest.raises(PsbtRefusedError):
        await execute_withdraw(ctx, plan)


async def test_a_service_ignoring_the_withdrawal_rate_is_said_before_signing(
    ctx: ServiceContext, sandbox: SandboxControl, sandbox_faults: SandboxFaults
) -> None:
    await fund_bidding_wallet(ctx, sandbox, 200_000)
    ignoring = WithdrawIntentRequest(ctx.payment_address, 100_000).to_wire()
    await serve_ignoring_the_rate(sandbox, sandbox_faults, "/v1/intent/withdraw", ignoring)
    plan = await prepare_withdraw(ctx, 100_000, RATE)
    # Asked, and answered as if it had not been.
    assert await answered_ignoring(sandbox_faults, "/v1/intent/withdraw") == 12
    check = plan.fee_rate
    assert check is not None and check.outcome is RateOutcome.LOWER and not check.as_asked
    assert check.paid is not None and abs(float(check.paid) - SANDBOX_DEFAULT_RATE) < 0.2
    # Still a valid withdrawal: it is the user's choice to sign it at the rate it pays.
    done = await execute_withdraw(ctx, plan)
    await sandbox.mine()
    assert abs(await chain_rate(sandbox, done.txid) - SANDBOX_DEFAULT_RATE) < 0.2


async def test_no_rate_asked_nothing_compared(ctx: ServiceContext, sandbox: SandboxControl) -> None:
    await fund_bidding_wallet(ctx, sandbox, 50_000)
    assert (await prepare_withdraw(ctx, 20_000)).fee_rate is None
    with pytest.raises(WithdrawError, match="from 1 to 10,000 sat/vB"):
        await prepare_withdraw(ctx, 20_000, Fraction(1, 2))


async def test_an_inscription_bid_pays_the_rate_asked(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    inscription_id = await sandbox_held_inscription(sandbox)
    plan = await prepare_inscription_bid(ctx, inscription_id, 30_000, RATE)
    assert plan.fee_rate is not None and plan.fee_rate.outcome is RateOutcome.AS_ASKED
    placed = await execute_inscription_bid(ctx, replace(plan, psbt=accept_fee(plan.psbt)))
    accepted = await sandbox.http.post(
        "/sandbox/inscription-bids/accept", json={"bidId": placed.bid_id}
    )
    assert accepted.status_code == 200, accepted.text
    await sandbox.mine()
    (ended,) = (await my_inscription_bids(ctx)).rows
    assert ended.state == "accepted" and ended.end_txid is not None
    rate = await chain_rate(sandbox, ended.end_txid)
    assert float(RATE) * 0.95 <= rate <= float(RATE) * 1.05, rate


async def test_a_service_ignoring_the_bid_rate_is_said_before_signing(
    ctx: ServiceContext, sandbox: SandboxControl, sandbox_faults: SandboxFaults
) -> None:
    inscription_id = await sandbox_held_inscription(sandbox)
    ignoring = InscriptionBidIntentRequest(
        price=30_000,
        inscription_id=inscription_id,
        bidder_address=ctx.payment_address,
        bidder_token_receive_address=ctx.ordinals_address,
        bidder_public_key=ctx.payment_public_key_hex,
    ).to_wire()
    await serve_ignoring_the_rate(sandbox, sandbox_faults, "/v1/intent/bid", ignoring)
    plan = await prepare_inscription_bid(ctx, inscription_id, 30_000, RATE)
    assert await answered_ignoring(sandbox_faults, "/v1/intent/bid") == 12
    check = plan.fee_rate
    assert check is not None and check.outcome is RateOutcome.LOWER
    assert check.paid is not None and abs(float(check.paid) - SANDBOX_DEFAULT_RATE) < 0.3
    with pytest.raises(BidNotPlacedError, match="not 20000 sat/vB"):
        await prepare_inscription_bid(ctx, inscription_id, 30_000, Fraction(20_000))
