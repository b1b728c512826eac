"""The pace per host (client) and per key (server), and the wait after a 429."""

from __future__ import annotations

import pytest

from app.core.rate_limit import (
    BACKOFF_CAP_S,
    DEFAULT_RATE_LIMIT,
    MAX_RATE_LIMITED_RETRIES,
    MAX_SERVICE_WAIT_S,
    RateLimit,
    RateLimitError,
    TokenBucket,
    rate_limited_wait_s,
)


def test_the_default_is_five_per_second_with_a_burst_of_ten() -> None:
    assert (DEFAULT_RATE_LIMIT.per_second, DEFAULT_RATE_LIMIT.burst) == (5.0, 10)


def test_a_burst_goes_at_once_then_one_per_interval() -> None:
    bucket = TokenBucket(RateLimit(5, 10))
    waits = [bucket.reserve(100.0) for _ in range(13)]
    assert waits[:10] == [0.0] * 10
    assert waits[10:] == pytest.approx([0.2, 0.4, 0.6])


def test_an_idle_bucket_refills_up_to_its_burst_only() -> None:
    bucket = TokenBucket(RateLimit(5, 3))
    for _ in range(3):
        bucket.reserve(0.0)
    # An hour idle gives back the burst, never more.
    waits = [bucket.reserve(3600.0) for _ in range(4)]
    assert waits == pytest.approx([0.0, 0.0, 0.0, 0.2])


def test_concurrent_reservations_queue_in_order() -> None:
    bucket = TokenBucket(RateLimit(10, 1))
    assert [bucket.reserve(0.0) for _ in range(4)] == pytest.approx([0.0, 0.1, 0.2, 0.3])


def test_a_server_refusal_does_not_use_up_the_rate() -> None:
    bucket = TokenBucket(RateLimit(2, 1))
    assert bucket.try_take(0.0) == 0.0
    assert bucket.try_take(0.1) == pytest.approx(0.4)
    assert bucket.try_take(0.2) == pytest.approx(0.3)  # the refusals took nothing
    assert bucket.try_take(0.5) == 0.0


def test_a_hold_delays_every_slot_until_it_ends() -> None:
    bucket = TokenBucket(RateLimit(5, 10))
    bucket.hold(12.0)
    assert bucket.reserve(10.0) == pytest.approx(2.0)
    assert bucket.try_take(11.0) == pytest.approx(1.0)
    assert bucket.reserve(12.5) == 0.0


@pytest.mark.parametrize(
    ("text", "limit"),
    [("5", RateLimit(5, 10)), ("5/3", RateLimit(5, 3)), (" 0.5 ", RateLimit(0.5, 1))],
)
def test_a_rate_is_parsed_from_text(text: str, limit: RateLimit) -> None:
    assert RateLimit.parse(text) == limit


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("fast", "not a rate"),
        ("5/x", "not a rate"),
        ("0", "above 0"),
        ("-1/2", "above 0"),
        ("5000", "at most 1,000"),
        ("nan", "not a rate"),
        ("inf/3", "number of requests"),
        ("5/0", "from 1 to 1,000"),
        ("5/5000", "from 1 to 1,000"),
    ],
)
def test_a_bad_rate_says_which_bound(text: str, says: str) -> None:
    with pytest.raises(RateLimitError, match=says):
        RateLimit.parse(text)


def test_the_wait_the_service_names_is_never_shortened() -> None:
    assert rate_limited_wait_s(0, 2.0, 0.0) == 2.0
    assert rate_limited_wait_s(0, 2.0, 0.999) == pytest.approx(2.2, abs=0.01)
    assert rate_limited_wait_s(3, 0.0, 0.5) == 0.0


def test_without_a_named_wait_the_backoff_doubles_with_jitter_up_to_a_cap() -> None:
    lows = [rate_limited_wait_s(n, None, 0.0) for n in range(MAX_RATE_LIMITED_RETRIES)]
    highs = [rate_limited_wait_s(n, None, 1.0) for n in range(MAX_RATE_LIMITED_RETRIES)]
    assert lows == [0.25, 0.5, 1.0, 2.0, 4.0]
    assert highs == [0.5, 1.0, 2.0, 4.0, BACKOFF_CAP_S]


def test_it_gives_up_after_the_last_retry_or_beyond_the_longest_wait() -> None:
    assert rate_limited_wait_s(MAX_RATE_LIMITED_RETRIES, None, 0.5) is None
    assert rate_limited_wait_s(MAX_RATE_LIMITED_RETRIES, 1.0, 0.5) is None
    assert rate_limited_wait_s(0, MAX_SERVICE_WAIT_S + 1, 0.5) is None
    assert rate_limited_wait_s(0, MAX_SERVICE_WAIT_S, 0.0) == MAX_SERVICE_WAIT_S
