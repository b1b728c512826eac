"""The per-address bid pace (spec section 8) and the clocks behind it (pure)."""

from __future__ import annotations

import asyncio

import pytest

from app.services.pacing import BidPacer, OffsetClock, SystemClock


class FixedClock:
    def __init__(self, ms: int) -> None:
        self.ms = ms

    def now_ms(self) -> int:
        return self.ms


class RecordingSleeper:
    def __init__(self, clock: FixedClock) -> None:
        self.clock = clock
        self.waits: list[int] = []

    async def sleep_ms(self, ms: int) -> None:
        self.waits.append(ms)
        self.clock.ms += ms


def test_k_traits_make_the_next_request_wait_k_times_500_ms() -> None:
    clock = FixedClock(1_000_000)
    pacer = BidPacer(clock)
    assert pacer.wait_needed_ms("bcrt1pa") == 0
    pacer.sent("bcrt1pa", 3)
    assert pacer.wait_needed_ms("bcrt1pa") == 1_500
    assert pacer.wait_needed_ms("bcrt1pother") == 0  # the pace is per address
    clock.ms += 600
    assert pacer.wait_needed_ms("bcrt1pa") == 900
    sleeper = RecordingSleeper(clock)
    asyncio.run(pacer.before_send("bcrt1pa", sleeper))
    assert sleeper.waits == [900] and pacer.wait_needed_ms("bcrt1pa") == 0


def test_a_429_never_shortens_the_wait() -> None:
    clock = FixedClock(0)
    pacer = BidPacer(clock)
    pacer.sent("a", 4)  # 2,000 ms
    pacer.service_said_wait("a", 300)
    assert pacer.wait_needed_ms("a") == 2_000
    pacer.service_said_wait("a", 2_500)
    assert pacer.wait_needed_ms("a") == 2_500


def test_offset_clock_runs_ahead_and_only_forward() -> None:
    clock = OffsetClock(60_000)
    assert clock.now_ms() - SystemClock().now_ms() >= 59_000
    clock.advance(1_000)
    assert clock.offset_ms == 61_000
    with pytest.raises(ValueError):
        clock.advance(-1)
