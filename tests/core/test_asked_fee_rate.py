"""The rate a service's transaction pays against the rate asked: as asked within rounding only
(1 sat of fee, 5% of size), otherwise lower or higher with both figures; unknown without a fee."""

from __future__ import annotations

from fractions import Fraction

import pytest

from app.core.asked_fee_rate import RateOutcome, compare_fee_rate, fee_rate_wire
from app.core.bid_fee_rate import InvalidBidFeeRate

VSIZE = 200


@pytest.mark.parametrize(
    ("asked", "fee", "outcome"),
    [
        (Fraction(12), 2_400, RateOutcome.AS_ASKED),  # exactly
        (Fraction(12), 2_401, RateOutcome.AS_ASKED),  # the fee rounded up
        (Fraction(12), 2_521, RateOutcome.AS_ASKED),  # 5% more, and a rounded sat
        (Fraction(12), 2_279, RateOutcome.AS_ASKED),  # 5% less, less a rounded sat
        (Fraction(12), 2_278, RateOutcome.LOWER),
        (Fraction(12), 2_522, RateOutcome.HIGHER),
        (Fraction(12), 400, RateOutcome.LOWER),  # the request's rate ignored: 2 sat/vB
        (Fraction(2), 2_400, RateOutcome.HIGHER),
        (Fraction(1), 200, RateOutcome.AS_ASKED),
        (Fraction(1), 190, RateOutcome.AS_ASKED),  # 10 sats below: 1 + 5% of 200 = 11
        (Fraction(1), 188, RateOutcome.LOWER),
        (Fraction("12.5"), 2_500, RateOutcome.AS_ASKED),
    ],
)
def test_as_asked_within_rounding_only(asked: Fraction, fee: int, outcome: RateOutcome) -> None:
    check = compare_fee_rate(asked, fee, VSIZE)
    assert check.outcome is outcome
    assert check.as_asked == (outcome is RateOutcome.AS_ASKED)
    assert check.asked == asked and check.paid == Fraction(fee, VSIZE)


@pytest.mark.parametrize(("fee", "vsize"), [(None, VSIZE), (-5, VSIZE), (100, 0)])
def test_an_unknown_fee_is_never_as_asked(fee: int | None, vsize: int) -> None:
    check = compare_fee_rate(Fraction(12), fee, vsize)
    assert check.outcome is RateOutcome.UNKNOWN and check.paid is None and not check.as_asked


def test_the_wire_value_is_a_number_in_feerate_range() -> None:
    assert fee_rate_wire(Fraction(12)) == 12 and isinstance(fee_rate_wire(Fraction(12)), int)
    assert fee_rate_wire(Fraction("12.5")) == 12.5
    for bad in (Fraction(1, 2), Fraction(10_001)):
        with pytest.raises(InvalidBidFeeRate, match="from 1 to 10,000 sat/vB can be asked"):
            fee_rate_wire(bad)
