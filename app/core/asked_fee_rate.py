"""Whether a transaction the service built pays the fee rate we asked it for.

The service builds the withdrawal's and the inscription bid's transactions; the user pays their
fee, so we ask for a rate (`feeRate`, a number of sat/vB). `POST /intent/bid` documents it; `POST
/intent/withdraw` does not, so the public service may ignore it, and any service may round or
cap it. Whatever it did, the review's fee over its vsize is what the transaction pays, and that
is what the user is told before signing: the rate asked is never taken as the rate paid.

"As asked" allows for rounding only: the fee is whole sats (up to 1 sat), and the service
sizes the signed transaction its own way (signature lengths, another party's input), which the
guard's estimate can differ from by a few vbytes: within `RATE_SLACK` (5%) of the rate asked.
Anything else is a different rate, lower or higher, said with both figures.

The value sent is a sat/vB number by the rule of `feeRate` (`app.core.bid_fee_rate`: from 1 to
10,000), the one the sandbox applies to every endpoint that takes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import TYPE_CHECKING, Final

from app.core.bid_fee_rate import (
    MAX_BID_FEE_RATE,
    MIN_BID_FEE_RATE,
    BidFeeRate,
    InvalidBidFeeRate,
)

if TYPE_CHECKING:
    from app.core.psbt_review import Review

RATE_SLACK: Final = Fraction(5, 100)
ROUNDING_SATS: Final = 1  # the fee is a whole number of sats


class RateOutcome(Enum):
    AS_ASKED = "as_asked"
    LOWER = "lower"  # pays less than asked: slower to confirm than the user chose
    HIGHER = "higher"  # pays more than asked
    UNKNOWN = "unknown"  # the fee cannot be known (an input's amount is not confirmed)


@dataclass(frozen=True)
class AskedFeeRate:
    """The rate asked (sat/vB) and the one the reviewed transaction pays (None: unknown)."""

    asked: Fraction
    paid: Fraction | None
    outcome: RateOutcome

    @property
    def as_asked(self) -> bool:
        return self.outcome is RateOutcome.AS_ASKED


def fee_rate_wire(rate: Fraction) -> int | float:
    """The JSON value of `feeRate` for `rate` sat/vB; `InvalidBidFeeRate`, in the user's words,
    outside 1..10,000."""
    try:
        choice = BidFeeRate.custom(float(rate))
    except InvalidBidFeeRate:
        raise InvalidBidFeeRate(
            f"A fee rate from {MIN_BID_FEE_RATE} to {MAX_BID_FEE_RATE:,} sat/vB can be asked "
            f"for, not {float(rate):g} sat/vB."
        ) from None
    wire = choice.to_wire()
    assert not isinstance(wire, str)  # a custom rate, never a name
    return wire


def compare_fee_rate(asked: Fraction, fee: int | None, vsize: int) -> AskedFeeRate:
    """What a transaction of `vsize` vB paying `fee` sats does with the rate `asked`."""
    if fee is None or fee < 0 or vsize <= 0:
        return AskedFeeRate(asked, None, RateOutcome.UNKNOWN)
    paid = Fraction(fee, vsize)
    wanted = asked * vsize  # the fee the rate asked stands for
    if abs(fee - wanted) <= ROUNDING_SATS + RATE_SLACK * wanted:
        outcome = RateOutcome.AS_ASKED
    else:
        outcome = RateOutcome.LOWER if fee < wanted else RateOutcome.HIGHER
    return AskedFeeRate(asked, paid, outcome)


def review_fee_rate(asked: Fraction | None, review: Review) -> AskedFeeRate | None:
    """`compare_fee_rate` on a reviewed PSBT's fee and estimated size; None when none asked."""
    return None if asked is None else compare_fee_rate(asked, review.fee, review.vsize.vsize)
