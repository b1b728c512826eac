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
from app.core.strategy_rules import AboveTopBid, PoolStrategy
from app.core.strategy_settings import StrategyLimits
from app.services.context import ServiceContext
from app.services.errors import ServiceError
from app.services.open_bids import fetch_open_bids, pool_key_of
from app.services.strategy_engine import StrategyConfig
from app.services.strategy_host import StrategyHost
from app.services.strategy_lock import EngineAlreadyRunningError, EngineLock
from app.services.strategy_notices import StrategyNotice
from tests.services.conftest import SandboxControl, SandboxSleeper
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

    assert "signs nothing" not in await host.dry_run(config)  # the plan, before approval
    assert await host.journal("keep-1") == []  # nothing signed by the dry run
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
    assert outbid.sats == 12_000 and outbid.ours == 11_000
    assert filled.sats == cost(bidder, 13_000, 1)
    assert filled.budget_left == config.limits.total_budget_sats - filled.sats

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
    await host.delete("keep-1")
    assert await host.views() == []
    with pytest.raises(ServiceError):
        await host.start("keep-1")
    EngineLock(tmp_path).acquire()  # a failed start holds no lock
    await host.close()
