"""Withdraw from the bidding wallet to the payment address (spec 4.7, 4.8), in two steps:

    plan = await prepare_withdraw(ctx, 100_000)       # intent -> review -> verdict
    # the GUI shows plan.psbt.review, plan.bids_at_risk; the user confirms
    done = await execute_withdraw(ctx, plan)          # sign the approved inputs -> submit

A fee rate the user chose goes as `feeRate` (sat/vB), which the public service does not
document: `plan.fee_rate` says whether the PSBT it built pays that rate (within rounding) or
another, from the review's fee and size, never from the request.

The policy wants exactly `amount` at the payment address with the fee on top, paid by the
bidding wallet; withdrawing the whole balance (`WITHDRAW_ALL`) is a sweep whose fee comes out
of the amount (the service's documented rule). Bids the lower balance no longer covers are
cancelled by the service: `bids_at_risk` warns before signing, `cancelled_bid_ids` reports
what actually went.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from app.core.asked_fee_rate import AskedFeeRate, fee_rate_wire, review_fee_rate
from app.core.bid_fee_rate import InvalidBidFeeRate
from app.core.pools import MakerFee, OpenBid, bids_to_cancel
from app.core.psbt_review_context import Role
from app.core.psbt_review_summary import sats
from app.core.psbt_view import address_networks
from app.core.signing_policy import WithdrawIntent
from app.net.errors import MarketplaceError
from app.net.marketplace_requests import WithdrawIntentRequest, WithdrawSubmission
from app.services.bidding_wallet import bidding_wallet_address
from app.services.context import ServiceContext
from app.services.errors import ServiceError
from app.services.open_bids import BidListEntry, fetch_open_bids, pooled_bids
from app.services.psbt_flow import PsbtPlan, review_online, sign_plan
from app.wallet.addresses import KeyRole

WITHDRAW_ALL: Final = -1  # the whole balance: a sweep, the fee taken from it


class WithdrawError(ServiceError):
    """The service would not build or accept the withdrawal; its reason is quoted."""

    def __init__(self, user_message: str, error_code: str | None = None) -> None:
        self.error_code = error_code
        super().__init__(user_message)


@dataclass(frozen=True)
class WithdrawPlan:
    """A reviewed withdrawal, ready to sign. `bids_at_risk` are the open bids the balance
    after it would no longer cover (the service cancels them); `fee_rate` the rate asked and
    the one the PSBT pays (None: no rate was asked)."""

    psbt: PsbtPlan
    amount: int
    sweep: bool
    balance_before: int
    bids_at_risk: tuple[str, ...]
    fee_rate: AskedFeeRate | None = None


@dataclass(frozen=True)
class WithdrawDone:
    txid: str
    amount: int
    cancelled_bid_ids: tuple[str, ...]


async def prepare_withdraw(
    ctx: ServiceContext, amount: int, fee_rate: Fraction | None = None
) -> WithdrawPlan:
    """Ask the service for the withdrawal PSBT of `amount` sats (or `WITHDRAW_ALL`), at
    `fee_rate` sat/vB when given (else the service's rate), and review it: every input the
    bidding wallet, outputs only to the payment address or back."""
    try:
        wire_rate = None if fee_rate is None else fee_rate_wire(fee_rate)
    except InvalidBidFeeRate as exc:
        raise WithdrawError(str(exc)) from None
    wallet = await bidding_wallet_address(ctx)  # the review needs to know which it is
    if ctx.network.value not in address_networks(wallet):
        # A service serving a wallet of another network is refused by the review below; its
        # address never goes to Esplora, and only a plain amount can be asked for.
        balance, sweep, wanted = amount, False, amount
    else:
        balance = (await ctx.clients.esplora.address_balance(wallet)).total
        sweep = amount in (WITHDRAW_ALL, balance)
        wanted = balance if sweep else amount
    if wanted <= 0:
        raise WithdrawError("The bidding wallet is empty: there is nothing to withdraw.")
    if wanted > balance:
        raise WithdrawError(
            f"The bidding wallet holds {sats(balance)}; {sats(wanted)} cannot be withdrawn."
        )
    try:
        served = await ctx.clients.marketplace.create_withdraw_intent(
            WithdrawIntentRequest(ctx.payment_address, wanted, wire_rate)
        )
    except MarketplaceError as exc:
        raise WithdrawError(
            f"The service would not prepare the withdrawal: {exc.message}", exc.error_code
        ) from exc
    intent = WithdrawIntent(wanted, ctx.fee_bounds, fee_from_amount=sweep)
    label = f"Withdraw {sats(wanted)} to {ctx.payment_address}"
    plan = await review_online(ctx, served.psbt_base64, intent, KeyRole.PAYMENT, label)
    wallet_flow = plan.review.summary.flow(Role.BIDDING_WALLET)
    taken = wanted if wallet_flow is None or wallet_flow.net is None else -wallet_flow.net
    at_risk = await _bids_at_risk(ctx, balance - taken)
    paid = review_fee_rate(fee_rate, plan.review)
    return WithdrawPlan(plan, wanted, sweep, balance, at_risk, paid)


async def execute_withdraw(ctx: ServiceContext, plan: WithdrawPlan) -> WithdrawDone:
    """Sign exactly what the review approved and submit it; report the bids it cancelled."""
    signed = await ctx.run_cpu(sign_plan, plan.psbt, ctx.signing_keys())
    return await submit_signed_withdraw(ctx, plan.amount, signed.base64)


async def submit_signed_withdraw(
    ctx: ServiceContext, amount: int, signed_base64: str
) -> WithdrawDone:
    """`POST /withdraw` with a PSBT signed where its review approved (here or offline)."""
    before = {b.bid_id for b in await fetch_open_bids(ctx)}
    try:
        result = await ctx.clients.marketplace.withdraw(WithdrawSubmission(signed_base64))
    except MarketplaceError as exc:
        raise WithdrawError(
            f"The service refused the signed withdrawal: {exc.message}", exc.error_code
        ) from exc
    after = {b.bid_id for b in await fetch_open_bids(ctx)}
    return WithdrawDone(result.txid, amount, tuple(sorted(before - after)))


async def _bids_at_risk(ctx: ServiceContext, balance_after: int) -> tuple[str, ...]:
    doomed = bids_at_risk(await fetch_open_bids(ctx), balance_after, ctx.maker_fee)
    return tuple(b.bid_id for b in doomed)


def bids_at_risk(
    bids: Sequence[BidListEntry], balance_after: int, maker_fee: MakerFee
) -> list[OpenBid]:
    """The collection/trait/rune bids a bidding-wallet balance of `balance_after` no longer
    covers (the service cancels them), by the core pool rule, with the pools the bid pre-flight
    uses (bidding-wallet bids only). The Withdraw tab's preview and the review both use it."""
    pooled, _ = pooled_bids(bids)
    return bids_to_cancel(max(0, balance_after), pooled, maker_fee)
