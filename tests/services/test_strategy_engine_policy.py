"""A strategy is checked against its approved policy before it runs: pools outside it and
rules priced above its caps are refused with a clear message; a total budget above its
exposure cap is lowered to it."""

from __future__ import annotations

from fractions import Fraction

import pytest

from app.core.pools import PoolKey
from app.core.strategy_rules import AboveTopBid, FixedPrice, PoolStrategy
from app.core.strategy_settings import StrategyLimits
from app.services.errors import ServiceError
from app.services.strategy_engine import StrategyConfig, within_policy
from app.wallet.keys import WalletKeys
from tests.support.strategies import GOLD, policy_for


def config(*pools: PoolStrategy, total: int = 100_000) -> StrategyConfig:
    return StrategyConfig("pol-1", pools, StrategyLimits(total, 10))


def test_pools_within_the_policy_run_as_written(keys: WalletKeys) -> None:
    wanted = config(
        PoolStrategy(PoolKey("puppets"), AboveTopBid(50_000, 90), 100_000),
        PoolStrategy(PoolKey("pals", GOLD), FixedPrice(30_000), 50_000),
        PoolStrategy(PoolKey("DOGGOTOTHEMOON"), FixedPrice(Fraction(1, 2)), 50_000),
    )
    assert within_policy(wanted, policy_for(keys)) == wanted


@pytest.mark.parametrize(
    ("strategy", "says"),
    [
        (PoolStrategy(PoolKey("other"), FixedPrice(1_000), 10_000), "not in the approved"),
        (PoolStrategy(PoolKey("pals"), FixedPrice(1_000), 10_000), "not in the approved"),
        (PoolStrategy(PoolKey("puppets"), AboveTopBid(51_000, 90), 10_000), "above the policy"),
        (PoolStrategy(PoolKey("DOG•GO•TO•THE•MOON"), FixedPrice(1), 10_000), "above the policy"),
    ],
)
def test_a_pool_outside_the_policy_is_refused(
    keys: WalletKeys, strategy: PoolStrategy, says: str
) -> None:
    with pytest.raises(ServiceError, match=says):
        within_policy(config(strategy), policy_for(keys))


def test_a_total_budget_above_the_exposure_cap_is_lowered_to_it(keys: WalletKeys) -> None:
    pool = PoolStrategy(PoolKey("puppets"), FixedPrice(10_000), 10**9)
    checked = within_policy(config(pool, total=10**9), policy_for(keys))
    assert checked.limits.total_budget_sats == 200_000  # policy_for's max_exposure
