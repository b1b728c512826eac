"""What the review says of the fee rate asked: a note only when the PSBT pays it, a warning with
both figures when it pays another (lower or higher) or its fee is unknown; and the rate a picker
asks for is never below what `feeRate` takes."""

from __future__ import annotations

from fractions import Fraction

from pytestqt.qtbot import QtBot

from app.core.asked_fee_rate import compare_fee_rate
from app.ui.fee_rate_asked_note import (
    MIN_ASKED_RATE,
    asked_rate,
    fee_rate_notes,
    fee_rate_warnings,
)
from app.ui.widgets.fee_picker import FeePicker


def test_as_asked_is_a_note_and_no_warning() -> None:
    check = compare_fee_rate(Fraction(12), 2_400, 200)
    assert fee_rate_notes(check) == [
        "Fee rate: pays 12 sat/vB, the rate you asked for (12 sat/vB)."
    ]
    assert fee_rate_warnings(check) == []


def test_another_rate_is_a_warning_with_both_figures_and_no_note() -> None:
    lower = compare_fee_rate(Fraction(12), 400, 200)
    assert fee_rate_notes(lower) == []
    (warning,) = fee_rate_warnings(lower)
    assert "you asked for 12 sat/vB; the service's transaction pays 2 sat/vB" in warning
    assert "longer to confirm" in warning
    (higher,) = fee_rate_warnings(compare_fee_rate(Fraction(2), 2_400, 200))
    assert "you asked for 2 sat/vB; the service's transaction pays 12 sat/vB" in higher
    assert "more than you chose" in higher


def test_an_unknown_fee_is_said_and_never_claimed_as_asked() -> None:
    check = compare_fee_rate(Fraction("12.5"), None, 200)
    assert fee_rate_notes(check) == []
    (warning,) = fee_rate_warnings(check)
    assert warning.startswith("You asked for 12.5 sat/vB; the fee of the service's transaction")


def test_nothing_asked_nothing_said() -> None:
    assert fee_rate_notes(None) == fee_rate_warnings(None) == []


def test_a_preset_below_the_floor_asks_for_the_floor(qtbot: QtBot) -> None:
    picker = FeePicker(min_rate=MIN_ASKED_RATE)
    qtbot.addWidget(picker)
    assert picker.custom.minimum() == MIN_ASKED_RATE
    picker.set_estimates({1: 3.0, 3: 0.5, 6: 0.25})  # "normal" chosen: 0.5 sat/vB
    assert picker.rate() == Fraction(1, 2) and asked_rate(picker) == MIN_ASKED_RATE
    picker.choice.setCurrentIndex(0)
    assert asked_rate(picker) == 3
