"""Properties of a strategy's plan over random markets, rules, open bids and limits: it never
commits more than the budgets, the pool rule or the maximum of bids allow, never bids above a
cap (or the user's own bid, or an allowed share of the floor), stays on the price grid, and is
idempotent: once its actions are applied, a new plan for the same market does nothing."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from random import Random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core import limits
from app.core.bid_request import Trait
from app.core.market_snapshot import MarketSnapshot
from app.core.pools import MakerFee, PoolKey
from app.core.strategy_plan import PoolState, StrategyPlan, plan_strategy
from app.core.strategy_rules import (
    AboveTopBid,
    BelowFloor,
    FixedPrice,
    FloorBand,
    Ladder,
    LadderStep,
    PoolStrategy,
    PriceRule,
    StrategyRule,
)
from app.core.strategy_settings import LifecycleSettings, StrategyLimits
from app.core.strategy_targets import HeldBid, manual_ceiling

from .strategy_helpers import applied, market

NOW = 50_000_000
SETTINGS = LifecycleSettings()
ORDINAL_POOLS = (
    PoolKey("bitcoin-puppets"),
    PoolKey("bitcoin-puppets", Trait("Background", "Blue")),
    PoolKey("nodemonkes"),
)
RUNE_POOL = PoolKey("DOG•GO•TO•THE•MOON")

Pools = list[tuple[PoolStrategy, PoolState]]


def prices(rune: bool) -> st.SearchStrategy[Fraction]:
    if rune:
        return st.fractions(Fraction(1, 100), Fraction(5), max_denominator=100)
    on_grid = st.integers(1, 120).map(lambda steps: Fraction(steps * 1_000))
    return on_grid | st.integers(500, 120_000).map(Fraction)


def amounts(most: int) -> st.SearchStrategy[int]:
    """Sats in steps of 100,000 plus some change (plain integers crowd near the low end)."""
    return st.builds(
        lambda k, change: k * 100_000 + change, st.integers(0, most), st.integers(0, 99_999)
    )


@st.composite
def price_rules(draw: st.DrawFn, rune: bool) -> PriceRule:
    cap = draw(prices(rune))
    kind = draw(st.sampled_from(["fixed", "below", "above"]))
    if kind == "fixed":
        return FixedPrice(cap)
    if kind == "below":
        return BelowFloor(draw(st.integers(0, 60)), cap)
    opening = draw(st.none() | prices(rune))
    return AboveTopBid(cap, draw(st.integers(1, 100)), opening)


@st.composite
def rules(draw: st.DrawFn, rune: bool) -> StrategyRule:
    if draw(st.booleans()):
        return draw(price_rules(rune))
    steps = draw(st.lists(st.tuples(price_rules(rune), st.integers(1, 33)), min_size=1, max_size=3))
    return Ladder(tuple(LadderStep(rule, share) for rule, share in steps))


@st.composite
def snapshots(draw: st.DrawFn, pool: PoolKey, rune: bool) -> MarketSnapshot | None:
    if draw(st.integers(0, 9)) == 4:  # a middle value: hypothesis favours the ends
        return None
    floor = draw(prices(rune).map(float) | st.none())
    tops = draw(st.lists(prices(rune).map(float), max_size=3))
    age = draw(st.sampled_from([0, 0, 60_000, 120_000, 200_000]))
    return market(
        pool,
        floor=floor,
        bids=[(top, 1) for top in tops],
        fetched_at_ms=NOW - age,
        rune=rune,
    )


@st.composite
def held_bids(
    draw: st.DrawFn, prefix: str, rune: bool, most: int, near: Fraction
) -> tuple[HeldBid, ...]:
    """Up to `most` open bids; half of them priced within 6 % of `near` (the strategy's cap), so
    that bids just above or below a target, within the threshold or not, come up often."""
    bids = []
    for i in range(draw(st.integers(0, most))):
        unit = draw(prices(rune))
        if draw(st.booleans()):
            unit = near * (100 + draw(st.integers(-6, 6))) / 100
        if rune:
            quantity = draw(st.integers(1_000, 500_000))
            price = max(int(unit * quantity), limits.MIN_RUNE_PRICE_SATS)
        else:
            quantity = draw(st.integers(1, 3))
            price = max(1_000, int(unit) // 1_000 * 1_000)
        expires = NOW + draw(st.integers(-1_000, 40 * 60_000))
        bids.append(HeldBid(f"{prefix}{i}", price, quantity, expires, draw(st.integers(0, 99))))
    return tuple(bids)


@st.composite
def strategy_pools(draw: st.DrawFn) -> Pools:
    chosen = draw(st.lists(st.sampled_from([*ORDINAL_POOLS, RUNE_POOL]), min_size=1, unique=True))
    pools: Pools = []
    for n, pool in enumerate(chosen):
        rune = pool == RUNE_POOL
        band = None
        if draw(st.integers(0, 5)) == 3:
            band = FloorBand(draw(st.none() | prices(rune)), draw(st.none() | prices(rune)))
        budget = draw(amounts(15))
        strategy = PoolStrategy(pool, draw(rules(rune)), budget, floor_band=band)
        state = PoolState(
            draw(snapshots(pool, rune)),
            draw(held_bids(f"s{n}-", rune, 6, strategy.cap())),
            draw(held_bids(f"m{n}-", rune, 2, strategy.cap())),
            spent_sats=draw(st.integers(0, 3)) * 40_000,
        )
        pools.append((strategy, state))
    return pools


@st.composite
def cases(draw: st.DrawFn) -> tuple[Pools, int, StrategyLimits, MakerFee, LifecycleSettings]:
    pools = draw(strategy_pools())
    balance = draw(amounts(20))
    caps = StrategyLimits(draw(amounts(30)), draw(st.integers(1, 40)))
    fee = MakerFee(draw(st.integers(0, 300)), draw(st.integers(0, 500)))
    threshold = draw(st.sampled_from([Fraction(0), Fraction(1, 100), Fraction(5, 100)]))
    return pools, balance, caps, fee, LifecycleSettings(update_threshold=threshold)


def run(
    pools: Pools, balance: int, caps: StrategyLimits, fee: MakerFee, lifecycle: LifecycleSettings
) -> StrategyPlan:
    return plan_strategy(
        pools, balance_sats=balance, budgets=caps, fee=fee, settings=lifecycle, now_ms=NOW
    )


def after(plan: StrategyPlan, pools: Pools) -> Pools:
    states = {s.pool: st_ for s, st_ in pools}
    out: Pools = []
    for pool_plan in plan.pools:
        strategy = next(s for s, _ in pools if s.pool == pool_plan.pool)
        state = states[strategy.pool]
        bids = applied(pool_plan, state.open_bids, NOW)
        out.append((strategy, PoolState(state.snapshot, bids, state.manual_bids, state.spent_sats)))
    return out


PROPERTY = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_within_limits(
    plan: StrategyPlan, pools: Pools, balance: int, caps: StrategyLimits, fee: MakerFee
) -> None:
    total_cost = total_bids = 0
    for strategy, state in after(plan, pools):
        rune = strategy.is_rune
        cost = sum(b.cost(rune, fee) for b in state.open_bids)
        count = sum(b.bid_count(rune) for b in state.open_bids)
        manual = sum(b.cost(rune, fee) for b in state.manual_bids)
        assert cost <= max(0, strategy.budget_sats - state.spent_sats)
        assert cost <= max(0, balance - manual)
        pool_plan = next(p for p in plan.pools if p.pool == strategy.pool)
        assert (pool_plan.exposure_sats, pool_plan.active_bids) == (cost, count)
        total_cost += cost
        total_bids += count
    spent = sum(state.spent_sats for _, state in pools)
    assert total_cost <= max(0, caps.total_budget_sats - spent)
    assert total_bids <= caps.max_active_bids
    assert (plan.exposure_sats, plan.active_bids) == (total_cost, total_bids)


@PROPERTY
@given(cases())
def test_a_plan_never_exceeds_the_budgets_the_pool_rule_or_the_maximum_of_bids(
    case: tuple[Pools, int, StrategyLimits, MakerFee, LifecycleSettings],
) -> None:
    pools, balance, caps, fee, _ = case
    assert_within_limits(run(*case), pools, balance, caps, fee)


@PROPERTY
@given(cases())
def test_a_plan_never_bids_above_a_cap_and_stays_on_the_grid(
    case: tuple[Pools, int, StrategyLimits, MakerFee, LifecycleSettings],
) -> None:
    pools, *_ = case
    plan = run(*case)
    for strategy, state in pools:
        rune = strategy.is_rune
        ceiling = manual_ceiling(state.manual_bids, rune)
        pool_plan = next(p for p in plan.pools if p.pool == strategy.pool)
        new = [a for a in pool_plan.actions if a.kind != "cancel"]
        kept = [b for b in state.open_bids if b.bid_id in pool_plan.kept]
        units = [Fraction(a.price, a.quantity) if rune else Fraction(a.price) for a in new]
        units += [b.unit_price(rune) for b in kept]
        for unit in units:
            assert unit <= strategy.cap()
            assert ceiling is None or unit <= ceiling
        for action in new:
            if rune:
                assert action.price >= limits.MIN_RUNE_PRICE_SATS
            else:
                assert action.price >= limits.MIN_ORDINALS_PRICE_SATS
                assert action.price % limits.ORDINALS_PRICE_STEP_SATS == 0
                assert action.quantity <= limits.MAX_BIDS_PER_REQUEST
        snap = state.snapshot
        fresh = snap is not None and NOW - snap.fetched_at_ms <= SETTINGS.max_market_age_ms
        rule = strategy.rule
        if isinstance(rule, AboveTopBid) and fresh and snap is not None and snap.floor:
            share = Fraction(str(snap.floor)) * Fraction(rule.max_floor_percent) / 100
            assert all(u <= share for u in units[: len(new)])


@PROPERTY
@given(cases())
def test_a_plan_applied_leaves_nothing_to_do_in_an_unchanged_market(
    case: tuple[Pools, int, StrategyLimits, MakerFee, LifecycleSettings],
) -> None:
    pools, balance, caps, fee, lifecycle = case
    plan = run(*case)
    again = run(after(plan, pools), balance, caps, fee, lifecycle)
    assert again.actions == ()
    assert (again.exposure_sats, again.active_bids) == (plan.exposure_sats, plan.active_bids)


@PROPERTY
@given(cases())
def test_bids_due_for_renewal_are_renewed_or_cancelled_never_left_to_lapse(
    case: tuple[Pools, int, StrategyLimits, MakerFee, LifecycleSettings],
) -> None:
    pools, balance, caps, fee, lifecycle = case
    placed = after(run(*case), pools)
    # Later, when the bids just placed are due: the same market, read as recently as before.
    shift = lifecycle.bid_lifetime_ms - lifecycle.renew_before_ms
    later = [
        (s, dataclasses.replace(st_, snapshot=_shifted(st_.snapshot, shift))) for s, st_ in placed
    ]
    plan = plan_strategy(
        later, balance_sats=balance, budgets=caps, fee=fee, settings=lifecycle, now_ms=NOW + shift
    )
    for pool_plan in plan.pools:
        if pool_plan.status != "bid":
            continue
        state = next(st_ for s, st_ in later if s.pool == pool_plan.pool)
        due = {
            b.bid_id
            for b in state.open_bids
            if b.expires_at_ms - (NOW + shift) <= lifecycle.renew_before_ms
        }
        assert not due & set(pool_plan.kept)
        handled = {a.bid_id for a in pool_plan.actions}
        assert due <= handled


def _shifted(snapshot: MarketSnapshot | None, shift: int) -> MarketSnapshot | None:
    if snapshot is None:
        return None
    return dataclasses.replace(snapshot, fetched_at_ms=snapshot.fetched_at_ms + shift)


@PROPERTY
@given(cases(), st.randoms(use_true_random=False))
def test_a_plan_does_not_depend_on_the_order_of_its_input(
    case: tuple[Pools, int, StrategyLimits, MakerFee, LifecycleSettings], rng: Random
) -> None:
    pools, balance, caps, fee, lifecycle = case
    shuffled: Pools = []
    for strategy, state in pools:
        bids = list(state.open_bids)
        rng.shuffle(bids)
        shuffled.append((strategy, dataclasses.replace(state, open_bids=tuple(bids))))
    rng.shuffle(shuffled)
    assert run(shuffled, balance, caps, fee, lifecycle) == run(*case)
