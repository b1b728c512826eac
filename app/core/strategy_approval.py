"""The policy a strategy asks the user to approve (issue 17; docs/strategies.md).

Drawn from what the strategy itself says, so the approval is exactly as wide as the strategy
needs and no wider: each of its pools with the highest price any of its rules may bid there
(`PoolStrategy.cap`), its total budget (at most the pools' budgets together) as the maximum
exposure, the maker fee in force, and a validity the user chooses (short: a policy that ends
cannot be replayed after it). The user sees this policy, not the strategy's rules, when approving.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Final

from app.core.limits import MINUTE_MS
from app.core.pools import MakerFee
from app.core.strategy_policy import (
    AllowedPool,
    BidderIdentity,
    StrategyPolicy,
    StrategyPolicyError,
)
from app.core.strategy_rules import PoolStrategy
from app.core.strategy_settings import StrategyLimits

HOUR_MS: Final = 60 * MINUTE_MS
VALIDITY_CHOICES_H: Final = (1, 4, 12, 24, 72, 168)  # the window offers these
MAX_VALIDITY_MS: Final = 168 * HOUR_MS  # a week: approve again after it
# A policy starts a little before now: the signer's clock and a message's timestamp may be a
# few seconds apart, and a policy never covers anything signed before its approval anyway.
START_SLACK_MS: Final = 60_000


def allowed_pool(strategy: PoolStrategy) -> AllowedPool:
    """The pool as the policy names it, capped at the strategy's highest possible price."""
    pool, cap = strategy.pool, strategy.cap()
    if strategy.is_rune:
        return AllowedPool.rune(pool.collection_slug, cap)
    if pool.trait is not None:
        return AllowedPool.trait(pool.collection_slug, pool.trait, _whole(cap))
    return AllowedPool.collection(pool.collection_slug, _whole(cap))


def policy_for_strategy(
    policy_id: str,
    pools: Sequence[PoolStrategy],
    limits: StrategyLimits,
    *,
    bidder: BidderIdentity,
    maker_fee: MakerFee,
    now_ms: int,
    valid_for_ms: int,
) -> StrategyPolicy:
    """The policy that lets this strategy place every bid it may plan, and nothing more."""
    if not 0 < valid_for_ms <= MAX_VALIDITY_MS:
        raise StrategyPolicyError(
            f"a policy is valid for up to {MAX_VALIDITY_MS // HOUR_MS} hours; "
            f"got {valid_for_ms / HOUR_MS:g}"
        )
    if (
        limits.total_budget_sats <= 0
        or limits.max_active_bids <= 0
        or sum(s.budget_sats for s in pools) <= 0
    ):
        raise StrategyPolicyError(
            "the strategy's total budget and its maximum of bids must be above 0"
        )
    return StrategyPolicy(
        policy_id=policy_id,
        bidder=bidder,
        pools=tuple(allowed_pool(s) for s in pools),
        # Never more than the pools' budgets together: a total above them buys nothing.
        max_exposure=min(limits.total_budget_sats, sum(s.budget_sats for s in pools)),
        maker_fee=maker_fee,
        valid_from_ms=now_ms - START_SLACK_MS,
        valid_until_ms=now_ms + valid_for_ms,
        # No cap on the number of bids: the journal counts a request's bids until every one
        # is gone, so after one of two bids fills it still counts two, and a cap equal to the
        # strategy's maximum would refuse the re-placement the plan makes. The money every
        # open bid commits is what `max_exposure` bounds; the plan keeps the count.
        max_open_bids=None,
    )


def _whole(cap: Fraction) -> int:
    return math.floor(cap)  # whole already: `PoolStrategy` refuses a fractional item price
