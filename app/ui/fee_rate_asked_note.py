"""The fee rate a tab asks of the service that builds its transaction (Withdraw, Inscription
bid), and what the review says of it: a note when the PSBT pays that rate within rounding, a
warning (above the review, before signing) when it pays another or its fee cannot be known.
The figures come from the plan's `AskedFeeRate` (the review's fee and size), never from what
was asked."""

from __future__ import annotations

from fractions import Fraction

from app.core.asked_fee_rate import AskedFeeRate, RateOutcome
from app.core.bid_fee_rate import MIN_BID_FEE_RATE
from app.ui import strings
from app.ui.widgets.fee_picker import FeePicker, rate_text

# The lowest rate `feeRate` takes: the pickers' custom rate starts there, and a preset whose
# estimate is below it asks for it.
MIN_ASKED_RATE = MIN_BID_FEE_RATE


def asked_rate(picker: FeePicker) -> Fraction:
    """The rate to ask for: the picker's, and at least what `feeRate` takes."""
    return max(Fraction(MIN_ASKED_RATE), picker.rate())


def _rate(value: Fraction) -> str:
    return rate_text(float(value))


def fee_rate_notes(check: AskedFeeRate | None) -> list[str]:
    """The note when the PSBT pays the rate asked (nothing when none was asked or it does not)."""
    if check is None or not check.as_asked or check.paid is None:
        return []
    return [strings.FEE_ASKED_AS_ASKED.format(paid=_rate(check.paid), asked=_rate(check.asked))]


def fee_rate_warnings(check: AskedFeeRate | None) -> list[str]:
    """The warning when the PSBT pays another rate than asked, or one that cannot be known."""
    if check is None or check.as_asked:
        return []
    asked = _rate(check.asked)
    if check.paid is None or check.outcome is RateOutcome.UNKNOWN:
        return [strings.FEE_ASKED_UNKNOWN.format(asked=asked)]
    template = (
        strings.FEE_ASKED_LOWER if check.outcome is RateOutcome.LOWER else strings.FEE_ASKED_HIGHER
    )
    return [template.format(asked=asked, paid=_rate(check.paid))]
