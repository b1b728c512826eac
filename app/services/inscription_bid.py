"""A bid on one inscription, paid from the payment address (spec 4.3, 4.4, 5.2):

    plan = await prepare_inscription_bid(ctx, inscription_id, 50_000)   # intent -> review
    # the GUI shows plan.psbt.review (you give price + postage + fee, you receive the
    # inscription on your ordinals address); the user confirms
    placed = await execute_inscription_bid(ctx, plan)                    # sign -> place

A fee rate the user chose goes as `feeRate` (sat/vB); `plan.fee_rate` says whether the PSBT the
service built pays it (within rounding) or another rate, from the review, not the request.

The policy checks input 0 is the inscription's current output (and not ours), that its sat
lands on our ordinals address, and that we pay exactly price + postage + fee; only the other
inputs are signed, SIGHASH_ALL. When placing fails in a way that may have reached the service
(a timeout, a 5xx), the open bids are read before anything else is said or done.

`my_inscription_bids(ctx)` lists our single-inscription bids with their state (open, accepted,
cancelled, ended) where the service offers `GET /address/inscription-bids` (the sandbox does);
without it, the spec's open bids are listed and the result says so (`with_states` False).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from app.core.asked_fee_rate import AskedFeeRate, fee_rate_wire, review_fee_rate
from app.core.bid_fee_rate import InvalidBidFeeRate
from app.core.bid_validation import validate_single_inscription_price
from app.core.psbt_review_summary import sats
from app.core.signing_policy import InscriptionBidIntent
from app.net.errors import MarketplaceError, NetError, ServerError, TransportError
from app.net.marketplace_requests import InscriptionBidIntentRequest, InscriptionBidPlacement
from app.net.marketplace_states import InscriptionBidState
from app.services.context import ServiceContext
from app.services.errors import BidNotPlacedError, BidRejectedError
from app.services.open_bids import fetch_open_bids, listed_bids, pool_key_of
from app.services.psbt_flow import PsbtPlan, review_online, sign_plan
from app.wallet.addresses import KeyRole

__all__ = [
    "InscriptionBidPlaced",
    "InscriptionBidPlan",
    "InscriptionBidState",
    "InscriptionBids",
    "execute_inscription_bid",
    "my_inscription_bids",
    "prepare_inscription_bid",
    "submit_signed_bid",
]


@dataclass(frozen=True)
class InscriptionBidPlan:
    """`fee_rate`: the rate asked and the one the PSBT pays (None: no rate was asked)."""

    psbt: PsbtPlan
    inscription_id: str
    price: int
    fee_rate: AskedFeeRate | None = None


@dataclass(frozen=True)
class InscriptionBidPlaced:
    """`bid_id` as the service reports it (None when it does not say)."""

    inscription_id: str
    price: int
    bid_id: str | None
    message: str | None


@dataclass(frozen=True)
class InscriptionBids:
    """Our single-inscription bids; `with_states` False: the service lists open ones only."""

    rows: tuple[InscriptionBidState, ...]
    with_states: bool


async def prepare_inscription_bid(
    ctx: ServiceContext, inscription_id: str, price: int, fee_rate: Fraction | None = None
) -> InscriptionBidPlan:
    """Ask the service for the bid PSBT (at `fee_rate` sat/vB when given, else the service's
    rate) and review it against what the user asked."""
    violations = validate_single_inscription_price(price)
    if violations:
        raise BidRejectedError(violations)
    try:
        wire_rate = None if fee_rate is None else fee_rate_wire(fee_rate)
    except InvalidBidFeeRate as exc:
        raise BidNotPlacedError(str(exc)) from None
    request = InscriptionBidIntentRequest(
        price=price,
        inscription_id=inscription_id,
        bidder_address=ctx.payment_address,
        bidder_token_receive_address=ctx.ordinals_address,
        bidder_public_key=ctx.payment_public_key_hex,
        fee_rate=wire_rate,
    )
    try:
        served = await ctx.clients.marketplace.create_inscription_bid_intent(request)
    except MarketplaceError as exc:
        raise BidNotPlacedError(
            f"The service would not prepare a bid on {inscription_id}: {exc.message}",
            exc.error_code,
        ) from exc
    intent = InscriptionBidIntent(inscription_id, price, ctx.fee_bounds)
    label = f"Bid {sats(price)} on inscription {inscription_id}"
    plan = await review_online(ctx, served.psbt_base64, intent, KeyRole.PAYMENT, label)
    paid = review_fee_rate(fee_rate, plan.review)
    return InscriptionBidPlan(plan, inscription_id, price, paid)


async def execute_inscription_bid(
    ctx: ServiceContext, plan: InscriptionBidPlan
) -> InscriptionBidPlaced:
    """Sign every approved input (all but input 0) and place the bid."""
    signed = await ctx.run_cpu(sign_plan, plan.psbt, ctx.signing_keys())
    return await submit_signed_bid(ctx, plan.inscription_id, plan.price, signed.base64)


async def submit_signed_bid(
    ctx: ServiceContext, inscription_id: str, price: int, signed_base64: str
) -> InscriptionBidPlaced:
    """`POST /bid/place` (single-inscription form) with a PSBT signed where approved."""
    placement = InscriptionBidPlacement(
        price=price,
        inscription_id=inscription_id,
        bidder_address=ctx.payment_address,
        bidder_token_receive_address=ctx.ordinals_address,
        signed_bidding_psbt=signed_base64,
    )
    try:
        placed = await ctx.clients.marketplace.place_inscription_bid(placement)
    except MarketplaceError as exc:
        raise BidNotPlacedError(
            f"The service refused the bid on {inscription_id}: {exc.message}", exc.error_code
        ) from exc
    except (TransportError, ServerError) as exc:
        return await _after_uncertain_failure(ctx, inscription_id, price, exc)
    raw_id = placed.raw.get("bidId") or placed.raw.get("bid_id")
    bid_id = raw_id if isinstance(raw_id, str) else None
    return InscriptionBidPlaced(inscription_id, price, bid_id, placed.message)


async def _after_uncertain_failure(
    ctx: ServiceContext, inscription_id: str, price: int, failure: NetError
) -> InscriptionBidPlaced:
    """The request may have been applied: read the open bids before saying anything."""
    if isinstance(failure, TransportError) and not failure.may_have_been_applied:
        raise BidNotPlacedError(
            f"The bid on {inscription_id} did not reach the service ({failure.reason}); "
            "nothing was placed. Try again."
        ) from failure
    try:
        bids = await listed_bids(ctx)
    except NetError as exc:
        raise BidNotPlacedError(
            f"Placing the bid on {inscription_id} failed ({type(failure).__name__}) and "
            "the open bids cannot be read to see whether it was placed; check them before "
            "bidding again."
        ) from exc
    for bid in bids:
        if bid.inscription_id == inscription_id and bid.price == price:
            return InscriptionBidPlaced(inscription_id, price, bid.bid_id, None)
    raise BidNotPlacedError(
        f"Placing the bid on {inscription_id} failed ({type(failure).__name__}) and it is "
        "not among your open bids: it was not placed. Try again."
    ) from failure


async def my_inscription_bids(ctx: ServiceContext) -> InscriptionBids:
    """Every bid of our ordinals address with its state, or the open ones when the service
    does not offer the list with states."""
    market = ctx.clients.marketplace
    states = await market.get_inscription_bid_states(ctx.ordinals_address)
    if states is not None:
        return InscriptionBids(tuple(states), with_states=True)
    open_only = (
        InscriptionBidState(b.bid_id, b.inscription_id or "", b.price, "open")
        for b in await fetch_open_bids(ctx)
        if pool_key_of(b) is None and b.inscription_id
    )
    return InscriptionBids(tuple(open_only), with_states=False)
