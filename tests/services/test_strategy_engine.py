"""The strategy engine against the real sandbox, its market moved by the scenario API: a
competitor outbids, a fill, a floor shift, an expiry. No sleeps: the sandbox clock moves only
through the context's sleeper, and the engine is driven tick by tick."""

from __future__ import annotations

import secrets
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.core.pools import PoolKey
from app.core.strategy_plan import PlanAction
from app.core.strategy_rules import AboveTopBid, BelowFloor, FixedPrice, FloorBand
from app.core.strategy_settings import LifecycleSettings
from app.services.bids import BidSpec, place_bid
from app.services.context import ServiceContext
from app.services.open_bids import fetch_open_bids, pool_key_of
from app.services.strategy_cancel import ActionResult
from app.services.strategy_engine import StrategyEngine
from app.services.strategy_journal import EntryState
from tests.services.conftest import SandboxControl, SandboxFaults, SandboxSleeper, hour_from_now
from tests.support.strategy_engine import approve_policy, engine_for

pytestmark = pytest.mark.asyncio(loop_scope="session")
MINUTE_MS = 60_000


async def scenario(sandbox: SandboxControl, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = await sandbox.http.post(f"/sandbox/market/{path}", json=body)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


async def rival_bid(sandbox: SandboxControl, slug: str, price: int) -> str:
    body = {"kind": "collection", "slug": slug, "price": price, "quantity": 1,
            "bidder": f"rival-{secrets.token_hex(6)}", "fundSats": 10_000_000}  # fmt: skip
    return str((await scenario(sandbox, "bids", body))["bidIds"][0])


async def our_prices(ctx: ServiceContext, pool: PoolKey) -> list[int]:
    return sorted(b.price or 0 for b in await fetch_open_bids(ctx) if pool_key_of(b) == pool)


def cost(ctx: ServiceContext, price: int, bids: int) -> int:
    return bids * (price + ctx.maker_fee.on(price))


async def three_fixed_price_pools(
    ctx: ServiceContext, sandbox: SandboxControl, profile: Path, prefix: str, **config: Any
) -> tuple[StrategyEngine, str]:
    """An engine bidding 4,000 sats, one bid each, in three new collections."""
    pools = [PoolKey(f"{prefix}-{secrets.token_hex(4)}") for _ in range(3)]
    for pool in pools:
        await sandbox.create_collection(pool.collection_slug)
    budget = cost(ctx, 4_000, 1)
    policy = approve_policy(ctx, profile, pools, 4_000, 3 * budget)
    engine = engine_for(
        ctx, profile, policy, [(p, FixedPrice(4_000), budget) for p in pools],
        total=3 * budget, **config,
    )  # fmt: skip
    return engine, policy


async def test_outbid_then_fill_then_replace_within_the_budget(
    bidder: ServiceContext, sandbox: SandboxControl, collection: str, tmp_path: Path
) -> None:
    pool = PoolKey(collection)
    await scenario(sandbox, "floor", {"slug": collection, "price": 40_000})
    for price in (41_000, 42_000):  # the seller filling our bid may sell its listed item
        await scenario(sandbox, "listings", {"slug": collection, "price": price})
    await rival_bid(sandbox, collection, 10_000)
    policy = approve_policy(bidder, tmp_path, [pool], 20_000, cost(bidder, 20_000, 4))
    rule = AboveTopBid(max_unit_price=20_000, max_floor_percent=100)
    engine = engine_for(
        bidder, tmp_path, policy, [(pool, rule, cost(bidder, 20_000, 4))],
        total=cost(bidder, 20_000, 4), max_bids=2,
    )  # fmt: skip
    await engine.start()
    report = await engine.tick()
    assert [r.done for r in report.results] == [True]
    assert await our_prices(bidder, pool) == [11_000, 11_000]

    await rival_bid(sandbox, collection, 12_000)  # outbid: one step above it, still capped
    report = await engine.tick()
    assert sorted(r.action.kind for r in report.results) == ["cancel", "cancel", "place"]
    assert await our_prices(bidder, pool) == [13_000, 13_000]
    assert (await engine.tick()).results == ()  # steady: nothing more to do

    ours = [b.bid_id for b in await fetch_open_bids(bidder) if pool_key_of(b) == pool]
    await scenario(sandbox, "sale", {"bidId": ours[0]})  # a fill
    report = await engine.tick()
    assert report.reconciled.filled == 1
    assert [(r.action.kind, r.action.quantity, r.done) for r in report.results] == [
        ("place", 1, True)
    ]
    assert "After fills costing" in report.results[0].action.reason
    assert await our_prices(bidder, pool) == [13_000, 13_000]
    assert engine.bid_log.spent_by_pool(policy) == {str(pool): cost(bidder, 13_000, 1)}


async def test_floor_shift_reprices_and_a_floor_out_of_band_stops_the_pool(
    bidder: ServiceContext, sandbox: SandboxControl, collection: str, tmp_path: Path
) -> None:
    pool = PoolKey(collection)
    await scenario(sandbox, "floor", {"slug": collection, "price": 30_000})
    budget = cost(bidder, 30_000, 2)
    policy = approve_policy(bidder, tmp_path, [pool], 30_000, budget)
    engine = engine_for(
        bidder, tmp_path, policy, [(pool, BelowFloor(10, 30_000), budget)], total=budget,
        max_bids=2,
    )  # fmt: skip
    await engine.start()
    await engine.tick()
    assert await our_prices(bidder, pool) == [27_000, 27_000]

    await scenario(sandbox, "floor", {"slug": collection, "price": 20_000})
    await engine.tick()
    assert await our_prices(bidder, pool) == [18_000, 18_000]

    from dataclasses import replace

    banded = replace(engine.config.pools[0], floor_band=FloorBand(min_floor=25_000))
    engine.config = replace(engine.config, pools=(banded,))
    report = await engine.tick()
    assert report.plan is not None and report.plan.pools[0].status == "stop"
    assert await our_prices(bidder, pool) == []
    cancelled = engine.bid_log.in_state(policy, "cancelled")
    assert len(cancelled) == 4  # the two at 27,000 replaced, then the two at 18,000


async def test_a_bid_near_its_expiry_is_renewed_with_a_new_signature(
    bidder: ServiceContext,
    sandbox: SandboxControl,
    sandbox_sleeper: SandboxSleeper,
    collection: str,
    tmp_path: Path,
) -> None:
    pool = PoolKey(collection)
    budget = cost(bidder, 5_000, 1)
    policy = approve_policy(bidder, tmp_path, [pool], 5_000, budget)
    lifecycle = LifecycleSettings(bid_lifetime_ms=20 * MINUTE_MS, renew_before_ms=3 * MINUTE_MS)
    engine = engine_for(
        bidder, tmp_path, policy, [(pool, FixedPrice(5_000), budget)], total=budget,
        max_bids=1, lifecycle=lifecycle,
    )  # fmt: skip
    await engine.start()
    await engine.tick()
    (first,) = [b for b in await fetch_open_bids(bidder) if pool_key_of(b) == pool]
    await sandbox_sleeper.sleep_ms(18 * MINUTE_MS)  # 2 minutes before it lapses
    report = await engine.tick()
    assert [r.action.kind for r in report.results] == ["renew"]
    (second,) = [b for b in await fetch_open_bids(bidder) if pool_key_of(b) == pool]
    assert second.bid_id != first.bid_id and second.expiration_ms is not None
    assert second.expiration_ms > (first.expiration_ms or 0)
    entries = engine.journal.entries(policy)
    assert [e.state for e in entries] == [EntryState.PLACED, EntryState.ENDED]
    assert entries[0].timestamp > entries[1].timestamp  # a new message, a new timestamp


async def test_dry_run_signs_nothing_and_says_why(
    bidder: ServiceContext, sandbox: SandboxControl, collection: str, tmp_path: Path
) -> None:
    pool, silent = PoolKey(collection), PoolKey(f"{collection}-none")
    await scenario(sandbox, "floor", {"slug": collection, "price": 30_000})
    budget = cost(bidder, 30_000, 2)
    policy = approve_policy(bidder, tmp_path, [pool, silent], 30_000, 2 * budget)
    engine = engine_for(
        bidder, tmp_path, policy,
        [(pool, BelowFloor(10, 30_000), budget), (silent, BelowFloor(10, 30_000), budget)],
        total=2 * budget,
    )  # fmt: skip
    await engine.start()
    text = await engine.dry_run()
    assert f"{collection}: Bidding:" in text and "Place 2 bids at 27,000 sats" in text
    assert f"{silent}: Holding:" in text  # no market: a relative rule never acts on nothing
    assert engine.journal.entries(policy) == []
    assert await our_prices(bidder, pool) == []


async def test_the_users_own_bid_is_never_cancelled_and_caps_the_price(
    bidder: ServiceContext, sandbox: SandboxControl, collection: str, tmp_path: Path
) -> None:
    pool = PoolKey(collection)
    spec = BidSpec.collection(collection, 8_000, 1, hour_from_now(bidder))
    await place_bid(bidder, spec)  # the user's, by hand
    budget = cost(bidder, 20_000, 1)
    policy = approve_policy(bidder, tmp_path, [pool], 20_000, budget)
    engine = engine_for(
        bidder, tmp_path, policy, [(pool, FixedPrice(20_000), budget)], total=budget, max_bids=1
    )
    await engine.start()
    report = await engine.tick()
    assert [(r.action.kind, r.action.price) for r in report.results] == [("place", 8_000)]
    assert await our_prices(bidder, pool) == [8_000, 8_000]  # never above the user's bid
    assert engine.bid_log.in_state(policy, "cancelled") == []


async def test_an_unreadable_market_holds_a_relative_rule(
    bidder: ServiceContext,
    sandbox_faults: SandboxFaults,
    sandbox: SandboxControl,
    collection: str,
    tmp_path: Path,
) -> None:
    pool = PoolKey(collection)
    await scenario(sandbox, "floor", {"slug": collection, "price": 30_000})
    budget = cost(bidder, 30_000, 1)
    policy = approve_policy(bidder, tmp_path, [pool], 30_000, budget)
    engine = engine_for(
        bidder, tmp_path, policy, [(pool, BelowFloor(10, 30_000), budget)], total=budget
    )
    await engine.start()
    await sandbox_faults.arm(
        "reply", "/v1/activity/listings*", method="GET", status=503, body={"m": "x"}, times=None
    )
    report = await engine.tick()
    assert report.plan is not None and report.plan.pools[0].status == "hold"
    assert report.results == () and engine.journal.entries(policy) == []


async def test_a_stop_ends_the_loop_after_the_step_in_progress(
    bidder: ServiceContext, sandbox: SandboxControl, tmp_path: Path
) -> None:
    engine, policy = await three_fixed_price_pools(bidder, sandbox, tmp_path, "stop")
    events: list[str] = []

    def on_event(event: str, fields: dict[str, object]) -> None:
        events.append(event)
        if event == "place":  # SIGTERM arrives: the first placement is done
            engine.request_stop()

    engine._on_event = on_event
    assert await engine.run() == 1
    assert events.count("place") == 1 and events[-1] == "stopped"
    (entry,) = engine.journal.entries(policy)
    assert entry.state is EntryState.PLACED  # the step in progress was completed, journaled


async def test_placements_left_for_the_next_tick_are_not_kept_waiting_a_tick_more(
    bidder: ServiceContext, sandbox: SandboxControl, sandbox_sleeper: SandboxSleeper, tmp_path: Path
) -> None:
    """The pace spaces the requests already; a wait of tick_ms on top would leave it idle."""
    engine, _ = await three_fixed_price_pools(bidder, sandbox, tmp_path, "burst", units_per_tick=1)
    slugs = [s.pool.collection_slug for s in engine.config.pools]
    await engine.start()
    sandbox_sleeper.waits.clear()
    assert await engine.run(max_ticks=4) == 4  # one placement a tick, then nothing left
    assert sorted(str(pool_key_of(b)) for b in await fetch_open_bids(bidder)) == sorted(slugs)
    tick_ms = engine.config.tick_ms
    assert sandbox_sleeper.waits[-1] == tick_ms  # after the third tick: nothing left over
    assert all(w <= 500 for w in sandbox_sleeper.waits[:-1])  # before it, only the pace
    report = await engine.tick()
    assert report.deferred == 0 and engine.wait_after(report) == tick_ms
    pool = engine.config.pools[0].pool
    refused = ActionResult(PlanAction("place", pool, 4_000, 1, "-"), False, "refused")
    failed = replace(report, results=(refused,), deferred=2)
    assert engine.wait_after(failed) == tick_ms  # a failure never skips the wait


async def test_a_429_is_waited_out_and_the_pace_is_kept_across_pools(
    bidder: ServiceContext,
    sandbox_faults: SandboxFaults,
    sandbox: SandboxControl,
    sandbox_sleeper: SandboxSleeper,
    tmp_path: Path,
) -> None:
    slugs = [f"pace-{secrets.token_hex(4)}" for _ in range(2)]
    for slug in slugs:
        await sandbox.create_collection(slug)
    pools = [PoolKey(s) for s in slugs]
    budget = cost(bidder, 3_000, 1)
    policy = approve_policy(bidder, tmp_path, pools, 3_000, 2 * budget)
    engine = engine_for(
        bidder, tmp_path, policy, [(p, FixedPrice(3_000), budget) for p in pools],
        total=2 * budget,
    )  # fmt: skip
    await engine.start()
    limited = {"errorCode": "SUBMIT_BID_RATE_LIMITED", "message": "slow", "retryAfterMs": 700}
    await sandbox_faults.arm("reply", "/v1/bid/place", method="POST", status=429, body=limited)
    sandbox_sleeper.waits.clear()
    report = await engine.tick()
    assert [(str(r.action.pool), r.done) for r in report.results] == [
        (str(p), True) for p in sorted(pools, key=PoolKey.sort_key)
    ]
    assert 700 in sandbox_sleeper.waits  # the service's retryAfterMs, waited out
    assert sum(w for w in sandbox_sleeper.waits if w != 700) >= 500  # one address's pace
    states = [e.state for e in reversed(engine.journal.entries(policy))]
    assert states == [EntryState.REJECTED, EntryState.PLACED, EntryState.PLACED]


async def test_bids_never_outlive_the_policy(
    bidder: ServiceContext,
    sandbox_sleeper: SandboxSleeper,
    collection: str,
    tmp_path: Path,
) -> None:
    pool = PoolKey(collection)
    budget = cost(bidder, 2_000, 1)
    policy = approve_policy(bidder, tmp_path, [pool], 2_000, budget, valid_ms=25 * MINUTE_MS)
    engine = engine_for(
        bidder, tmp_path, policy, [(pool, FixedPrice(2_000), budget)], total=budget
    )  # the default lifetime (30 minutes) would outlive it
    await engine.start()
    end = engine.signer.policy.valid_until_ms
    await engine.tick()
    (bid,) = [b for b in await fetch_open_bids(bidder) if pool_key_of(b) == pool]
    assert bid.expiration_ms == end
    await sandbox_sleeper.sleep_ms(23 * MINUTE_MS)  # due for renewal, 2 min of policy left
    report = await engine.tick()
    assert [(r.action.kind, r.done) for r in report.results] == [("renew", False)]
    assert "the policy ends too soon" in report.results[0].detail
    assert [e.state for e in engine.journal.entries(policy)] == [EntryState.PLACED]
    listed = [b.bid_id for b in await fetch_open_bids(bidder) if pool_key_of(b) == pool]
    assert listed == [bid.bid_id]  # kept to its expiry, not cancelled
