"""The window's strategies against the real sandbox: approve, start, notices on a fill and
an outbid, stop (the policy revoked, the bids taken back), one process per profile. The
engine's loop runs as in the window; its waits between ticks are held by the test (a gate),
every other wait advances the sandbox clock."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from app.core.pools import PoolKey
from app.core.strategy_approval import HOUR_MS
from app.core.strategy_rules import AboveTopBid, FixedPrice, PoolStrategy
from app.core.strategy_settings import StrategyLimits
from app.services.bids import BidSpec, place_bid
from app.services.context import ServiceContext
from app.services.errors import ServiceError
from app.services.open_bids import fetch_open_bids, pool_key_of
from app.services.strategy_engine import StrategyConfig
from app.services.strategy_host import StrategyHost
from app.services.strategy_lock import EngineAlreadyRunningError, EngineLock
from app.services.strategy_notices import StrategyNotice
from tests.services.conftest import SandboxControl, SandboxSleeper, hour_from_now
from tests.services.test_strategy_engine import cost, our_prices, rival_bid, scenario

pytestmark = pytest.mark.asyncio(loop_scope="session")
TICK_MS = 10_000


class TickGate:
    """The sleeper between ticks: a tick's wait blocks until the test lets the next tick
    run; any other wait (the bid pace) advances the sandbox clock at once."""

    def __init__(self, inner: SandboxSleeper) -> None:
        self.inner = inner
        self.waiting = asyncio.Event()
        self.go = asyncio.Event()

    async def sleep_ms(self, ms: int) -> None:
        if ms != TICK_MS:
            await self.inner.sleep_ms(ms)
            return
        self.waiting.set()
        await self.go.wait()
        self.go.clear()
        self.waiting.clear()
        await self.inner.sleep_ms(ms)

    async def tick_done(self) -> None:
        await asyncio.wait_for(self.waiting.wait(), 60)

    async def next_tick(self) -> None:
        self.waiting.clear()
        self.go.set()
        await self.tick_done()


def _config(pool: PoolKey, budget: int, policy_id: str = "keep-1") -> StrategyConfig:
    rule = AboveTopBid(max_unit_price=20_000, max_floor_percent=100)
    return StrategyConfig(
        policy_id,
        (PoolStrategy(pool, rule, budget, rune=False),),
        StrategyLimits(budget, 2),
        tick_ms=TICK_MS,
    )


@pytest.fixture
def gate(bidder: ServiceContext, sandbox_sleeper: SandboxSleeper) -> TickGate:
    gate = TickGate(sandbox_sleeper)
    bidder.sleeper = gate
    return gate


async def test_a_strategy_runs_tells_fills_and_outbids_and_stops_with_its_bids(
    bidder: ServiceContext,
    sandbox: SandboxControl,
    collection: str,
    gate: TickGate,
    tmp_path: Path,
) -> None:
    pool = PoolKey(collection)
    await scenario(sandbox, "floor", {"slug": collection, "price": 40_000})
    await scenario(sandbox, "listings", {"slug": collection, "price": 41_000})
    await rival_bid(sandbox, collection, 10_000)
    notices: list[StrategyNotice] = []
    told = asyncio.Event()

    def notice(n: StrategyNotice) -> None:
        notices.append(n)
        told.set() if n.kind == "filled" else None

    host = StrategyHost(bidder, tmp_path, on_notice=notice)
    config = _config(pool, cost(bidder, 20_000, 4))

    preview = await host.dry_run(config)  # the plan, before approval
    assert "place 2" in preview and "11,000 sats" in preview, preview
    assert await host.journal("keep-1") == []  # nothing signed by the dry run
    assert await our_prices(bidder, pool) == []
    policy = await host.approve(config, 4 * HOUR_MS)
    assert (
        policy.pools[0].max_price == 20_000
        and policy.max_exposure == config.limits.total_budget_sats
    )
    (view,) = await host.views()
    assert view.policy == policy and view.config == config and not view.running

    await host.start("keep-1")
    with pytest.raises(EngineAlreadyRunningError):  # the headless command is refused now
        EngineLock(tmp_path).acquire()
    await gate.tick_done()
    assert await our_prices(bidder, pool) == [11_000, 11_000]
    (view,) = await host.views()
    assert view.running and view.last_report is not None and view.last_report.plan is not None
    assert view.last_report.plan.pools[0].target.status == "bid"

    await gate.next_tick()  # sees ours on top
    await rival_bid(sandbox, collection, 12_000)  # outbid
    await gate.next_tick()  # sees it and re-bids one step above
    await gate.next_tick()  # sees ours on top again
    assert await our_prices(bidder, pool) == [13_000, 13_000]
    ours = [b.bid_id for b in await fetch_open_bids(bidder) if pool_key_of(b) == pool]
    await scenario(sandbox, "sale", {"bidId": ours[0]})  # a fill
    await gate.next_tick()
    await told.wait()  # the notices come once the tick's figures are read
    kinds = [n.kind for n in notices]
    assert kinds == ["outbid", "filled"], notices
    outbid, filled = notices
    assert outbid.top == 12_000 and outbid.ours == 11_000 and not outbid.is_rune
    assert filled.sats == cost(bidder, 13_000, 1)
    # Left to bid: the budget less the fill and the two bids open (one re-placed after it).
    assert filled.budget_left == config.limits.total_budget_sats - 3 * filled.sats

    assert await our_prices(bidder, pool) == [13_000, 13_000]  # re-placed after the fill
    cancelled = await host.stop("keep-1", cancel_bids=True)
    assert await our_prices(bidder, pool) == []
    assert cancelled == 2
    (view,) = await host.views()
    assert not view.running and view.policy is None and view.problem == "not approved"
    EngineLock(tmp_path).acquire()  # released: the headless command may run again
    with pytest.raises(ServiceError):  # nothing more is signed without a new approval
        await host.start("keep-1")
    await host.close()


async def test_a_strategy_without_an_approved_policy_does_not_start(
    bidder: ServiceContext, collection: str, tmp_path: Path
) -> None:
    host = StrategyHost(bidder, tmp_path)
    with pytest.raises(ServiceError):
        await host.start("nothing-here")
    config = _config(PoolKey(collection), 50_000)
    await host.approve(config, HOUR_MS)
    host.policies.revoke("keep-1")  # its file is there, its approval is not
    with pytest.raises(ServiceError):  # refused after the lock was taken ...
        await host.start("keep-1")
    EngineLock(tmp_path).acquire()  # ... and the lock released
    await host.delete("keep-1")
    assert await host.views() == []
    await host.close()


async def test_two_strategies_run_side_by_side_and_a_stop_takes_back_only_its_own_bids(
    bidder: ServiceContext,
    sandbox: SandboxControl,
    collection: str,
    gate: TickGate,
    tmp_path: Path,
) -> None:
    pool = PoolKey(collection)
    await scenario(sandbox, "floor", {"slug": collection, "price": 40_000})
    await rival_bid(sandbox, collection, 10_000)
    await place_bid(bidder, BidSpec.collection(collection, 5_000, 1, hour_from_now(bidder)))
    (mine,) = [b.bid_id for b in await fetch_open_bids(bidder) if pool_key_of(b) == pool]
    host = StrategyHost(bidder, tmp_path)
    fixed = StrategyConfig(
        "fixed-1",
        (PoolStrategy(pool, FixedPrice(4_000), 10_000, rune=False),),
        StrategyLimits(10_000, 2),
        tick_ms=TICK_MS,
    )
    for config in (_config(pool, cost(bidder, 20_000, 4)), fixed):
        await host.approve(config, HOUR_MS)
    await host.start("keep-1")
    await gate.tick_done()
    await host.start("fixed-1")  # the first is waiting for its next tick meanwhile
    assert host.running_ids() == ["fixed-1", "keep-1"]
    # Each counts the other's bids and the user's as a ceiling: none bids above 5,000.
    for _ in range(3):
        if await our_prices(bidder, pool) == [4_000, 4_000, 5_000, 5_000, 5_000]:
            break
        await gate.next_tick()
    assert await our_prices(bidder, pool) == [4_000, 4_000, 5_000, 5_000, 5_000]

    assert await host.stop("keep-1", cancel_bids=True) == 2
    assert await our_prices(bidder, pool) == [4_000, 4_000, 5_000]  # the others' stay
    assert host.running_ids() == ["fixed-1"]
    with pytest.raises(EngineAlreadyRunningError):  # still held: one strategy runs
        EngineLock(tmp_path).acquire()
    await host.stop("fixed-1", cancel_bids=True)
    open_ids = [b.bid_id for b in await fetch_open_bids(bidder) if pool_key_of(b) == pool]
    assert open_ids == [mine]  # the user's own bid, never touched
    await host.close()


async def test_the_stores_open_once_when_threads_ask_at_once(
    bidder: ServiceContext, tmp_path: Path
) -> None:
    # The tab's views and Open bids' owners read from executor threads at the same time: two
    # first opens of a new journal raced to "database is locked" (seen once in a full run).
    import threading
    from concurrent.futures import ThreadPoolExecutor

    host = StrategyHost(bidder, tmp_path)
    start = threading.Barrier(8)

    def open_stores() -> tuple[object, object]:
        start.wait()
        return host._stores()

    with ThreadPoolExecutor(8) as pool:
        opened = list(pool.map(lambda _: open_stores(), range(8)))
    assert len({id(journal) for journal, _ in opened}) == 1
    assert len({id(log) for _, log in opened}) == 1
