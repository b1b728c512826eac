"""Building a strategy engine over a sandbox context in tests (and the SIGKILL test's child)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.core.pools import PoolKey
from app.core.strategy_policy import AllowedPool, StrategyPolicy
from app.core.strategy_rules import PoolStrategy, StrategyRule
from app.core.strategy_settings import LifecycleSettings, StrategyLimits
from app.services.context import ServiceContext
from app.services.strategy_bid_log import StrategyBidLog
from app.services.strategy_engine import StrategyConfig, StrategyEngine
from app.services.strategy_journal import StrategyJournal
from app.services.strategy_policies import StrategyPolicyStore, identity_of
from app.services.strategy_signer import StrategySigner

HOUR_MS = 3_600_000


def approve_policy(
    ctx: ServiceContext,
    profile: Path,
    pools: list[PoolKey],
    cap: int,
    exposure: int,
    valid_ms: int = 12 * HOUR_MS,
) -> str:
    keys = ctx.signing_keys()
    now = ctx.clock.now_ms()
    policy_id = f"pol-{secrets.token_hex(4)}"
    allowed = tuple(
        AllowedPool.trait(p.collection_slug, p.trait, cap)
        if p.trait is not None
        else AllowedPool.collection(p.collection_slug, cap)
        for p in pools
    )
    policy = StrategyPolicy(
        policy_id=policy_id,
        bidder=identity_of(keys),
        pools=allowed,
        max_exposure=exposure,
        maker_fee=ctx.maker_fee,
        valid_from_ms=now - HOUR_MS,
        valid_until_ms=now + valid_ms,
    )
    StrategyPolicyStore(profile).approve(keys, policy)
    return policy_id


def engine_for(
    ctx: ServiceContext,
    profile: Path,
    policy_id: str,
    pools: list[tuple[PoolKey, StrategyRule, int]],
    *,
    total: int,
    max_bids: int = 1_000,
    on_event: Callable[[str, dict[str, object]], None] | None = None,
    **config: Any,
) -> StrategyEngine:
    journal = StrategyJournal.in_profile(profile)
    signer = StrategySigner(
        ctx.signing_keys(), StrategyPolicyStore(profile), policy_id, journal, ctx.clock
    )
    strategy = StrategyConfig(
        policy_id,
        tuple(PoolStrategy(pool, rule, budget) for pool, rule, budget in pools),
        StrategyLimits(total, max_bids),
        config.pop("lifecycle", LifecycleSettings()),
        **config,
    )
    return StrategyEngine(
        ctx, signer, journal, StrategyBidLog.in_profile(profile), strategy, on_event=on_event
    )
