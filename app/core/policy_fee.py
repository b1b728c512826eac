"""The fee check every flow that pays a fee shares: known, not negative, and within the user's
bounds (absolute, relative to the market, relative to the amount moved) unless the user
consented to this very fee on this very PSBT (docs/guard.md has the numbers and why).
"""

from __future__ import annotations

from fractions import Fraction

from app.core.policy_verdict import FeeAssessment, FeeBounds, FeeConsent, Refusal, RefusalCode
from app.core.psbt_review import Review
from app.core.psbt_review_summary import sats


def rate_text(rate: Fraction) -> str:
    return f"{float(rate):,.1f} sat/vB"


def check_fee(
    review: Review, bounds: FeeBounds, moved: int | None, consent: FeeConsent | None
) -> tuple[list[Refusal], FeeAssessment | None]:
    """The fee must be known and not negative (always), and within the user's bounds unless
    the user consented to this very fee on this very PSBT. `moved` is the amount the
    transaction moves for the user (what the fee's share is measured against)."""
    if review.fee is None:
        unknown = review.unknown_amount_inputs
        which = ", ".join(str(i) for i in unknown)
        has = f"input {which}'s amount is" if len(unknown) == 1 else f"inputs {which}' amounts are"
        return [
            Refusal(
                RefusalCode.FEE_UNKNOWN,
                f"The fee cannot be known: {has} not confirmed by the chain.",
                input_index=review.unknown_amount_inputs[0],
            )
        ], None
    if review.fee < 0:
        return [
            Refusal(
                RefusalCode.OUTPUTS_EXCEED_INPUTS,
                f"The outputs exceed the inputs by {sats(-review.fee)}: the transaction is "
                "invalid.",
            )
        ], None
    rate = Fraction(review.fee, review.vsize.vsize)
    fee = FeeAssessment(review.fee, rate, moved)
    found = _fee_bounds(review, bounds, fee)
    if found and consent is not None and consent.covers(review):
        return [], FeeAssessment(review.fee, rate, moved, consented=True)
    return found, fee


def _fee_bounds(review: Review, bounds: FeeBounds, fee: FeeAssessment) -> list[Refusal]:
    rate, found = fee.rate, []
    if fee.fee > bounds.max_fee:
        found.append(
            Refusal(
                RefusalCode.FEE_TOO_HIGH,
                f"The network fee is {sats(fee.fee)}, above your limit of {sats(bounds.max_fee)}.",
            )
        )
    if rate > bounds.max_rate:
        found.append(
            Refusal(
                RefusalCode.FEE_RATE_TOO_HIGH,
                f"The fee rate is {rate_text(rate)}, above your limit of "
                f"{rate_text(bounds.max_rate)}.",
            )
        )
    if rate < bounds.min_rate:
        found.append(
            Refusal(
                RefusalCode.FEE_RATE_TOO_LOW,
                f"The fee rate is {rate_text(rate)}, below {rate_text(bounds.min_rate)}: the "
                "transaction might never confirm.",
            )
        )
    fastest = review.context.fastest_fee_rate
    if fastest is None:
        found.append(
            Refusal(
                RefusalCode.FEE_MARKET_UNKNOWN,
                f"No fee estimate is available, so whether {rate_text(rate)} is a usual rate "
                "cannot be told.",
            )
        )
    elif rate > bounds.market_cap(fastest):
        found.append(
            Refusal(
                RefusalCode.FEE_RATE_ABOVE_MARKET,
                f"The fee rate is {rate_text(rate)}, more than {float(bounds.market_multiple):g}"
                f" times the estimate for the next block ({rate_text(fastest)}).",
            )
        )
    share = fee.share
    if share is not None and share > bounds.max_share:
        found.append(
            Refusal(
                RefusalCode.FEE_SHARE_TOO_HIGH,
                f"The fee, {sats(fee.fee)}, is {float(share) * 100:,.1f}% of the "
                f"{sats(fee.moved or 0)} this transaction moves (more than "
                f"{float(bounds.max_share) * 100:g}%).",
            )
        )
    return found
