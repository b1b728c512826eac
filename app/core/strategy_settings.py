"""A bid strategy's settings: its budgets and how its bids live (issue 17; docs/strategies.md).

`StrategyLimits` bound the whole strategy (every pool); `LifecycleSettings` say how long a bid
lives, when it is renewed, how far the target may move before a bid is replaced, and how old a
market read may be before a relative rule stops acting on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from app.core import limits
from app.core.strategy_rules import InvalidStrategy

# Between a plan and its request reaching the service: a new bid's expiry must still be at least
# `MIN_BID_EXPIRY_MS` ahead then.
EXPIRY_SLACK_MS: Final = 60_000


@dataclass(frozen=True)
class LifecycleSettings:
    bid_lifetime_ms: int = 30 * limits.MINUTE_MS  # a new bid's expiry, from now
    renew_before_ms: int = 3 * limits.MINUTE_MS  # renew a bid this close to its expiry
    update_threshold: Fraction = Fraction(1, 100)  # satflow-mm's UPDATE_THRESHOLD
    max_market_age_ms: int = 2 * limits.MINUTE_MS  # an older snapshot is stale

    def __post_init__(self) -> None:
        shortest = limits.MIN_BID_EXPIRY_MS + EXPIRY_SLACK_MS
        if self.bid_lifetime_ms < shortest:
            raise InvalidStrategy(
                f"a bid's lifetime must be at least {shortest // 1000} s (the service's 15 "
                f"minutes and a minute to reach it), got {self.bid_lifetime_ms // 1000} s"
            )
        if not 0 < self.renew_before_ms < self.bid_lifetime_ms - EXPIRY_SLACK_MS:
            raise InvalidStrategy(
                "bids must be renewed some time before they lapse, and well after they are "
                f"placed: renew_before_ms {self.renew_before_ms} is out of range"
            )
        if not 0 <= self.update_threshold < 1:
            raise InvalidStrategy(
                f"the update threshold must be in [0, 1), got {self.update_threshold}"
            )
        if self.max_market_age_ms < 0:
            raise InvalidStrategy("the market's maximum age must not be negative")


@dataclass(frozen=True)
class StrategyLimits:
    total_budget_sats: int  # all pools' fills plus open bids never cost more
    max_active_bids: int  # open bids of the strategy, all pools (a rune bid is one)

    def __post_init__(self) -> None:
        if self.total_budget_sats < 0 or self.max_active_bids < 0:
            raise InvalidStrategy("the total budget and the maximum of bids must not be negative")
