"""Speed of a bid strategy's plan (`app.core.strategy_plan.plan_strategy`): 50 pools (40
collection and trait pools, 10 rune pools), each a market snapshot of 2,000 competing bids and
200 listings, 20 open bids of the strategy (some due for renewal, some off target) and a manual
bid; rules mixed (fixed, below the floor, above the top bid, three-step ladders). Two ticks:
"first" (the open bids are mostly off target: cancels and placements) and "steady" (the first
plan's actions applied: every bid checked, nothing to do). Inputs are built before the clock
starts; each figure is the median of the rounds.

Run: ./dev bench strategy_plan [--rounds 30] [--pools 50]
Target: a tick's plan for 50 pools in <= 50 ms (the engine plans every few seconds).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import statistics
import time
from fractions import Fraction

from app.core.bid_request import Trait
from app.core.market_snapshot import (
    BidKindName,
    MarketBid,
    MarketListing,
    MarketSnapshot,
    build_snapshot,
)
from app.core.pools import MakerFee, PoolKey
from app.core.strategy_dry_run import dry_run_text
from app.core.strategy_plan import PoolState, StrategyPlan, plan_strategy
from app.core.strategy_rules import (
    AboveTopBid,
    BelowFloor,
    FixedPrice,
    Ladder,
    LadderStep,
    PoolStrategy,
    StrategyRule,
)
from app.core.strategy_settings import LifecycleSettings, StrategyLimits
from app.core.strategy_targets import HeldBid

NOW = 1_000_000_000
TARGET_MS = 50.0
OWN = frozenset({"bc1qours"})


def make_pool(index: int, rng: random.Random) -> PoolKey:
    if index % 5 == 4:
        return PoolKey("".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(12)))
    if index % 2:
        return PoolKey(f"coll{index}", Trait("Background", f"v{index}"))
    return PoolKey(f"coll{index}")


def make_snapshot(pool: PoolKey, rune: bool, rng: random.Random) -> MarketSnapshot:
    kind: BidKindName = "rune" if rune else ("trait" if pool.trait else "collection")
    scale = 0.001 if rune else 1.0
    bids = [
        MarketBid(
            f"b{i}",
            rng.randint(5, 300) * 1_000 * scale,
            rng.randint(1, 3),
            f"r{i % 90}",
            kind,
            pool.trait,
            None,
        )
        for i in range(2_000)
    ]
    listings = [
        MarketListing(f"l{i}", f"{i:064x}i0", rng.randint(310, 900) * 1_000 * scale, f"s{i}")
        for i in range(200)
    ]
    return build_snapshot(
        pool,
        bids,
        listings,
        own_addresses=OWN,
        own_bid_ids=frozenset(),
        fetched_at_ms=NOW - 5_000,
        rune=rune,
    )


def make_rule(index: int, rune: bool) -> StrategyRule:
    unit = Fraction(1, 1000) if rune else Fraction(1)
    rules: list[StrategyRule] = [
        FixedPrice(250_000 * unit),
        BelowFloor(15, 400_000 * unit),
        AboveTopBid(350_000 * unit, 95),
        Ladder(
            (
                LadderStep(BelowFloor(10, 500_000 * unit), 30),
                LadderStep(BelowFloor(20, 500_000 * unit), 30),
                LadderStep(AboveTopBid(500_000 * unit, 90), 40),
            )
        ),
    ]
    return rules[index % len(rules)]


def make_open_bids(index: int, rune: bool, rng: random.Random) -> tuple[HeldBid, ...]:
    bids = []
    for i in range(20):
        expires = NOW + rng.choice([60_000, 20 * 60_000, 29 * 60_000])
        if rune:
            units = rng.randint(10_000, 200_000)
            bids.append(
                HeldBid(
                    f"p{index}-{i}",
                    units * rng.randint(200, 320) // 1_000 + 10_000,
                    units,
                    expires,
                    i,
                )
            )
        else:
            bids.append(HeldBid(f"p{index}-{i}", rng.randint(200, 320) * 1_000, 1, expires, i))
    return tuple(bids)


Pools = list[tuple[PoolStrategy, PoolState]]


def applied(plan: StrategyPlan, pools: Pools) -> Pools:
    """The pools once the plan's actions went through (new bids with new ids)."""
    out = []
    for k, ((strategy, state), pool_plan) in enumerate(zip(pools, plan.pools, strict=True)):
        gone = {a.bid_id for a in pool_plan.actions if a.kind != "place"}
        bids = [b for b in state.open_bids if b.bid_id not in gone]
        for n, action in enumerate(a for a in pool_plan.actions if a.kind != "cancel"):
            pieces = [action.quantity] if strategy.is_rune else [1] * action.quantity
            expiry = action.bid_expiry_ms or 0
            bids += [
                HeldBid(f"n{k}-{n}-{i}", action.price, q, expiry, NOW) for i, q in enumerate(pieces)
            ]
        out.append((strategy, dataclasses.replace(state, open_bids=tuple(bids))))
    return out


def timed(pools: Pools, rounds: int) -> tuple[StrategyPlan, list[float], list[float]]:
    budgets = StrategyLimits(total_budget_sats=200_000_000, max_active_bids=1_500)
    fee, settings = MakerFee(50, 0), LifecycleSettings()
    plans, texts = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        plan = plan_strategy(
            pools, balance_sats=20_000_000, budgets=budgets, fee=fee, settings=settings, now_ms=NOW
        )
        middle = time.perf_counter()
        dry_run_text(plan, NOW)
        end = time.perf_counter()
        plans.append((middle - start) * 1000)
        texts.append((end - start) * 1000)
    return plan, plans, texts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--pools", type=int, default=50)
    args = parser.parse_args()
    rng = random.Random(17)
    pools: Pools = []
    for index in range(args.pools):
        pool = make_pool(index, rng)
        rune = index % 5 == 4
        strategy = PoolStrategy(pool, make_rule(index, rune), 5_000_000, rune=rune)
        hand = (
            HeldBid(f"hand{index}", 50_000, 100_000, NOW + 10**7, 0)
            if rune
            else (HeldBid(f"hand{index}", 400_000, 1, NOW + 10**7, 0))
        )
        state = PoolState(
            make_snapshot(pool, rune, rng),
            make_open_bids(index, rune, rng),
            (hand,),
            spent_sats=rng.choice([0, 0, 300_000]),
        )
        pools.append((strategy, state))
    pools.sort(key=lambda p: p[0].pool.sort_key())  # the plan's order, for `applied`
    load_before = os.getloadavg()
    first, first_ms, first_text_ms = timed(pools, args.rounds)
    steady_pools = applied(first, pools)
    steady, steady_ms, steady_text_ms = timed(steady_pools, args.rounds)
    load_after = os.getloadavg()
    print(f"{'measure':<52} {'median':>10} {'target':>10}")
    for name, plan, ms, text_ms, tick_pools in (
        ("first", first, first_ms, first_text_ms, pools),
        ("steady", steady, steady_ms, steady_text_ms, steady_pools),
    ):
        median = statistics.median(ms)
        verdict = "within" if median <= TARGET_MS else "OVER"
        label = f"{name} tick, {args.pools} pools: plan"
        print(f"{label:<52} {median:7.2f} ms {'<= 50 ms':>10}  ({verdict})")
        print(f"{f'{name} tick: plan + dry-run text':<52} {statistics.median(text_ms):7.2f} ms")
        kinds = {k: sum(a.kind == k for a in plan.actions) for k in ("cancel", "renew", "place")}
        print(
            f"  ({sum(len(s.open_bids) for _, s in tick_pools):,} open bids in; actions "
            f"{kinds['cancel']} cancel, {kinds['renew']} renew, {kinds['place']} place; "
            f"{plan.active_bids:,} bids after; min/max {min(ms):.2f}/{max(ms):.2f} ms)"
        )
    print(
        f"(rounds {args.rounds}; {sum(p.status == 'bid' for p in first.pools)} pools bidding; "
        f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after)"
    )


if __name__ == "__main__":
    main()
