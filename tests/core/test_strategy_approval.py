"""The policy a strategy asks to be approved: exactly as wide as the strategy needs."""

from __future__ import annotations

from fractions import Fraction

import pytest

from app.core.bid_request import Trait
from app.core.pools import MakerFee, PoolKey
from app.core.strategy_approval import HOUR_MS, START_SLACK_MS, policy_for_strategy
from app.core.strategy_policy import (
    BidderIdentity,
    PoolKind,
    StrategyPolicy,
    StrategyPolicyError,
)
from app.core.strategy_rules import (
    AboveTopBid,
    BelowFloor,
    FixedPrice,
    InvalidStrategy,
    Ladder,
    LadderStep,
    PoolStrategy,
)
from app.core.strategy_settings import StrategyLimits

BIDDER = BidderIdentity("bcrt1qpayment", "02" + "11" * 32, "bcrt1preceive")
NOW = 1_800_000_000_000


def _policy(pools: list[PoolStrategy], limits: StrategyLimits, hours: float = 4) -> StrategyPolicy:
    return policy_for_strategy(
        "keep-1",
        pools,
        limits,
        bidder=BIDDER,
        maker_fee=MakerFee(0, 0),
        now_ms=NOW,
        valid_for_ms=int(hours * HOUR_MS),
    )


def test_each_pool_is_capped_at_the_highest_price_its_rules_may_bid() -> None:
    ladder = Ladder(
        (
            LadderStep(FixedPrice(20_000), 50),
            LadderStep(AboveTopBid(31_500, 80), 50),
        )
    )
    pools = [
        PoolStrategy(PoolKey("pixel-pals"), BelowFloor(10, 50_000), 200_000),
        PoolStrategy(PoolKey("pixel-pals", Trait("hat", "red")), ladder, 100_000),
        PoolStrategy(PoolKey("DOG•GO"), FixedPrice(Fraction(3, 2)), 50_000, rune=True),
    ]
    policy = _policy(pools, StrategyLimits(300_000, 12))
    collection, trait, rune = policy.pools
    assert (collection.kind, collection.max_price) == (PoolKind.ORDINALS, 50_000)
    assert (trait.pool.trait, trait.max_price) == (Trait("hat", "red"), 31_500)
    assert (rune.kind, rune.max_price) == (PoolKind.RUNES, Fraction(3, 2))
    assert policy.max_exposure == 300_000
    assert policy.max_open_bids is None  # the plan keeps the count; exposure bounds the money
    assert policy.valid_from_ms == NOW - START_SLACK_MS
    assert policy.valid_until_ms == NOW + 4 * HOUR_MS


@pytest.mark.parametrize(
    ("limits", "hours", "says"),
    [
        (StrategyLimits(0, 5), 4, "budget"),
        (StrategyLimits(10_000, 0), 4, "maximum of bids"),
        (StrategyLimits(10_000, 5), 0, "valid"),
        (StrategyLimits(10_000, 5), 169, "168 hours"),
    ],
)
def test_an_unbounded_or_endless_policy_is_refused(
    limits: StrategyLimits, hours: float, says: str
) -> None:
    pools = [PoolStrategy(PoolKey("pixel-pals"), FixedPrice(10_000), 10_000)]
    with pytest.raises(StrategyPolicyError, match=says):
        _policy(pools, limits, hours)


def test_the_exposure_is_never_more_than_the_pools_budgets_together() -> None:
    pools = [
        PoolStrategy(PoolKey("a"), FixedPrice(10_000), 10_000),
        PoolStrategy(PoolKey("b"), FixedPrice(10_000), 12_000),
    ]
    assert _policy(pools, StrategyLimits(1_000_000, 5)).max_exposure == 22_000
    assert _policy(pools, StrategyLimits(15_000, 5)).max_exposure == 15_000


def test_an_item_price_in_fractions_of_a_sat_is_refused_not_rounded() -> None:
    # Rounded down, the drawn-up cap would refuse the very strategy it was drawn from.
    with pytest.raises(InvalidStrategy, match="whole sats"):
        PoolStrategy(PoolKey("pixel-pals"), BelowFloor(10, Fraction(100_001, 2)), 10_000)
    with pytest.raises(InvalidStrategy, match="whole sats"):
        PoolStrategy(PoolKey("pixel-pals"), AboveTopBid(50_000, 90, Fraction(1, 3)), 10_000)
    rune = PoolStrategy(PoolKey("DOG•GO"), FixedPrice(Fraction(1, 3)), 10_000, rune=True)
    assert rune.cap() == Fraction(1, 3)  # a rune unit may cost a fraction of a sat
