"""The bid rate rule of spec section 8, as a pure step function the sandbox keeps state for.

"1 bid per 500 ms per bidderTokenReceiveAddress, across all collections; a bid on several
traits counts once per trait." A request of `units` bids (`CollectionBidRequest.rate_units()`)
accepted at `now` makes the next one wait until `now + units * 500 ms`. A request arriving
exactly at that time is accepted ("faster than one per 500 ms" is what is refused). A refused
request does not move the time, and its `retry_after_ms` is the `retryAfterMs` of
SUBMIT_BID_RATE_LIMITED.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.errors import CoreError
from app.core.limits import BID_RATE_INTERVAL_MS


class InvalidRateInput(CoreError, ValueError):
    """A request counted as fewer than one bid."""


@dataclass(frozen=True)
class RateDecision:
    allowed: bool
    retry_after_ms: int
    next_allowed_at_ms: int | None


def check_bid_rate(next_allowed_at_ms: int | None, now_ms: int, units: int) -> RateDecision:
    """Decide one request for one bidderTokenReceiveAddress; store `next_allowed_at_ms` back.

    `next_allowed_at_ms` is None when the address has not bid yet.
    """
    if units < 1:
        raise InvalidRateInput(f"a request counts as at least one bid, got {units}")
    if next_allowed_at_ms is not None and now_ms < next_allowed_at_ms:
        return RateDecision(False, next_allowed_at_ms - now_ms, next_allowed_at_ms)
    return RateDecision(True, 0, now_ms + units * BID_RATE_INTERVAL_MS)
