"""PollSchedule: fast after an action, slower while idle, exponential backoff on errors,
never under the rate limit's floor."""

from __future__ import annotations

import pytest

from app.core.poll_schedule import PollSchedule, PollTiming, floor_for_rate

T = PollTiming(start_ms=5_000, fast_ms=3_000, fast_polls=2, base_ms=10_000, idle_max_ms=40_000)


def test_idle_readings_stretch_the_wait_up_to_the_maximum_and_a_change_resets_it() -> None:
    s = PollSchedule(T)
    assert s.first_delay_ms() == 5_000
    waits = [s.after_reading(changed=False) for _ in range(6)]
    assert waits == [10_000, 15_000, 22_500, 33_750, 40_000, 40_000]
    assert s.after_reading(changed=True) == 10_000
    assert s.after_reading(changed=False) == 10_000


def test_an_action_reads_fast_for_a_while() -> None:
    s = PollSchedule(T)
    for _ in range(4):
        s.after_reading(changed=False)
    assert s.after_action() == 3_000
    assert [s.after_reading(changed=False) for _ in range(3)] == [3_000, 3_000, 10_000]


def test_errors_back_off_exponentially_to_the_cap_and_a_reading_ends_it() -> None:
    s = PollSchedule(T, jitter=lambda: 1.0)
    waits = [s.after_error() for _ in range(7)]
    assert waits == [10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000]
    assert s.after_reading(changed=False) == 10_000
    assert s.after_error() == 10_000


def test_error_jitter_keeps_at_least_half_the_wait() -> None:
    s = PollSchedule(T, jitter=lambda: 0.0)
    assert [s.after_error() for _ in range(3)] == [5_000, 10_000, 20_000]


def test_the_rate_limit_floor_bounds_every_wait() -> None:
    floor = floor_for_rate(5.0, 6)  # 6 requests within a quarter of 5/s
    assert floor == 4_800
    s = PollSchedule(T, floor_ms=floor)
    assert s.after_action() == 4_800
    assert s.first_delay_ms() == 5_000
    assert floor_for_rate(None, 6) == 0


def test_timing_must_be_ordered() -> None:
    with pytest.raises(ValueError, match="poll timing"):
        PollTiming(fast_ms=20_000, base_ms=10_000)
