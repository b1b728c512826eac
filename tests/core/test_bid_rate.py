"""The 500 ms bid rate per bidderTokenReceiveAddress, counted once per trait."""

from __future__ import annotations

import pytest

from app.core.bid_rate import InvalidRateInput, RateDecision, check_bid_rate

T0 = 1_700_000_000_000


def test_first_bid_is_allowed_and_sets_the_next_time() -> None:
    assert check_bid_rate(None, T0, units=1) == RateDecision(True, 0, T0 + 500)


@pytest.mark.parametrize(
    ("after_ms", "allowed", "retry_after_ms"),
    [(0, False, 500), (499, False, 1), (500, True, 0), (501, True, 0)],
)
def test_one_bid_per_500_ms_boundary(after_ms: int, allowed: bool, retry_after_ms: int) -> None:
    decision = check_bid_rate(T0 + 500, T0 + after_ms, units=1)
    assert (decision.allowed, decision.retry_after_ms) == (allowed, retry_after_ms)


def test_a_refused_bid_does_not_move_the_next_time() -> None:
    assert check_bid_rate(T0 + 500, T0 + 100, units=3).next_allowed_at_ms == T0 + 500


def test_a_bid_on_three_traits_counts_three_times() -> None:
    first = check_bid_rate(None, T0, units=3)
    assert first.next_allowed_at_ms == T0 + 1_500
    assert check_bid_rate(first.next_allowed_at_ms, T0 + 1_499, units=1).retry_after_ms == 1
    assert check_bid_rate(first.next_allowed_at_ms, T0 + 1_500, units=1).allowed


def test_units_below_one_are_refused() -> None:
    with pytest.raises(InvalidRateInput):
        check_bid_rate(None, T0, units=0)
