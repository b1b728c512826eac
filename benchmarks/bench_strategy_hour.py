"""Issue 17's benchmark: 50 pools kept at target for a simulated hour of a moving market, the
strategy engine against a real sandbox process on loopback (setup: `strategy_sandbox`).

The pools: one per new collection, each with a listing at its floor and a rival's bid; a
third above the top bid (`AboveTopBid`, up to 97 % of the floor), a third below the floor
(`BelowFloor`, 10 % under it), a third at a fixed price; every fifth a trait pool. Between
two ticks the sandbox's seeded simulator (`POST /sandbox/market/simulate`, deterministic per
seed) takes `--steps` steps over all the sandbox's pools (ours and the demo's): sellers list,
reprice, unlist and sell, bidders bid and cancel. Halfway, instead, a storm: the floor 5 % up
in every pool priced from the market, then a rival one step above us in every
above-the-top-bid pool.
After the hour, `--idle-minutes` of ticks with the simulator stopped.

Time: the engine clock is wall time plus the waits skipped by advancing the sandbox clock
(the 500 ms pace, the wait between ticks), so the engine's own work (reads, signing,
requests) takes its real time on this machine; the wall clock is that work alone. Loopback
answers a placement in a few ms; `--place-latency-ms` answers each one that much later, as a
real network would (the pace counts its 500 ms from the answer). The loop is
`StrategyEngine.run`'s: tick, then wait `wait_after(report)` (`tick_ms`, or none while
placements are left for the next tick); the simulator moves just before a tick.

What is printed:

- placements per second as a share of the bound: bid requests a second of the engine clock
  against 1 per 500 ms per receive address (a trait bid on k traits counts k), over a
  burst: from its first request until a tick leaves no placement for the next one (the
  start, every pool placed; the storm). Also within the burst's first tick alone, where the
  time went that the bound would have used, and the same requests on the wall clock;
- reaction: from the start of the tick that saw an outbid (our bid cancelled because its
  target moved up) to our new bid accepted by the service (the place request answered):
  engine clock and wall. It includes the reads of every pool's market, the cancels, our turn
  in the tick's pace (one request per 500 ms) and any ticks it waited for its share of the
  rate. An outbid lands anywhere between two ticks, so the worst case adds the wait before
  the tick that sees it: printed as from the start of the tick before (the outbid just after
  that tick read the pool). Floor moves answered in below-the-floor pools likewise, apart;
- CPU while idle: this process's CPU time (the engine, its clients; `time.process_time`,
  every thread) over the idle ticks that had nothing to do, per simulated minute and as a
  share of one core when ticks come every `tick_ms` plus the tick's own time; the requests a
  steady tick makes, and what the sandbox process spent answering them;
- the machine's load average before and after. No figure is asserted.

Run: ./dev bench strategy_hour [--pools 50] [--minutes 60] [--steps 8] [--seed 17]
     [--tick-ms 10000] [--units-per-tick 20] [--idle-minutes 2] [--place-latency-ms 0]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.core.bid_request import Trait
from app.core.limits import price_step_at_or_below
from app.core.pools import PoolKey
from app.core.strategy_rules import AboveTopBid, BelowFloor, FixedPrice, StrategyRule
from app.services.open_bids import fetch_open_bids, pool_key_of
from app.services.strategy_engine import StrategyEngine, TickReport
from benchmarks.bench_services_bids import post
from benchmarks.strategy_hour_report import report
from benchmarks.strategy_sandbox import (
    PLACE_ROUTE,
    EngineSandbox,
    add_collection,
    build_engine,
    engine_sandbox,
    fund_bidding_wallet,
    rival,
)

TRAITS = [{"trait_type": "Background", "values": ["Red", "Blue"]}]
RED = Trait("Background", "Red")
KINDS = ("above", "below", "fixed")


@dataclass(frozen=True)
class Pool:
    key: PoolKey
    kind: str  # one of KINDS
    floor: int  # at the start

    @property
    def rule(self) -> StrategyRule:
        cap = price_step_at_or_below(self.floor * 3 // 2)
        if self.kind == "above":
            return AboveTopBid(max_unit_price=cap, max_floor_percent=97)
        if self.kind == "below":
            return BelowFloor(percent_below=10, max_unit_price=cap)
        return FixedPrice(price_step_at_or_below(self.floor * 6 // 10))


async def make_pools(sb: EngineSandbox, count: int) -> list[Pool]:
    pools = []
    for i in range(count):
        # Slugs the same every run (a new sandbox each time): the simulator's choices, made
        # in slug order, then repeat with the seed.
        slug, floor = f"hour-{i:02d}", 40_000 + 1_000 * (i % 20)
        trait = RED if i % 5 == 4 else None
        await add_collection(
            sb.http, slug, floor=floor, rival_price=price_step_at_or_below(floor * 6 // 10),
            traits=TRAITS, rival_trait=trait,
        )  # fmt: skip
        pools.append(Pool(PoolKey(slug, trait), KINDS[i % 3], floor))
    return pools


@dataclass(frozen=True)
class Reaction:
    kind: str  # "outbid" (a higher bid placed) or "floor" (a below-the-floor pool re-priced)
    storm: bool
    in_tick_ms: int  # engine clock, from the start of the tick that saw it
    in_tick_wall_ms: float
    since_tick_before_ms: int  # engine clock, from the start of the tick before that one


@dataclass
class Pending:
    tick_start_ms: int
    tick_start_wall: float
    tick_before_ms: int
    old_price: int
    storm: bool


@dataclass
class Recorder:
    """The engine's events, as they happen, set against the ticks' starts."""

    sb: EngineSandbox
    kinds: dict[str, str]
    tick_start_ms: int = 0
    tick_start_wall: float = 0.0
    tick_before_ms: int = 0
    storm_tick: bool = False
    pending: dict[str, Pending] = field(default_factory=dict)
    reactions: list[Reaction] = field(default_factory=list)
    actions: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def start_tick(self, storm: bool) -> None:
        self.tick_before_ms = self.tick_start_ms or self.sb.clock.now_ms()
        self.tick_start_ms, self.tick_start_wall = self.sb.clock.now_ms(), time.perf_counter()
        self.storm_tick = storm

    def on_event(self, event: str, fields: dict[str, object]) -> None:
        if event not in ("cancel", "renew", "place"):
            return
        pool, price, done = str(fields["pool"]), int(str(fields["price"])), bool(fields["done"])
        self.actions[f"{event}{'' if done else ' failed'}"] += 1
        if not done:
            self.failures.append(f"{event} {pool} at {price:,}: {fields['detail']}")
        elif event == "cancel" and pool not in self.pending:
            self.pending[pool] = Pending(
                self.tick_start_ms,
                self.tick_start_wall,
                self.tick_before_ms,
                price,
                self.storm_tick,
            )
        elif event == "place" and pool in self.pending:
            seen = self.pending.pop(pool)
            kind = self.kinds[pool]
            if kind == "above" and price > seen.old_price:
                what = "outbid"
            elif kind == "below":
                what = "floor"
            else:
                return  # a top bid that fell, a slot after a quantity change: no reaction
            now, wall = self.sb.clock.now_ms(), time.perf_counter()
            self.reactions.append(
                Reaction(
                    what,
                    seen.storm,
                    now - seen.tick_start_ms,
                    (wall - seen.tick_start_wall) * 1000,
                    now - seen.tick_before_ms,
                )
            )

    def end_tick(self, report: TickReport) -> None:
        """A pool whose bid was cancelled and that wants no new one (a stop, fewer bids) is
        not waiting to react; one whose placement waits for a later tick still is."""
        wanted = set() if report.plan is None else {
            str(a.pool) for a in report.plan.actions if a.kind != "cancel"
        }  # fmt: skip
        for pool in [p for p in self.pending if p not in wanted]:
            del self.pending[pool]


@dataclass(frozen=True)
class TickFigure:
    phase: str  # "market", "storm" or "idle"
    wall_ms: float
    cpu_ms: float
    span_ms: int  # engine clock
    acted: int  # actions carried out
    deferred: int
    requests: int  # HTTP requests of the engine's clients
    sandbox_cpu_ms: float
    first_bid_request: int  # index into the pace's requests
    wait_ms: int  # before the next tick, as `StrategyEngine.run` waits


def sandbox_cpu_ms(pid: int) -> float:
    """The sandbox process's user + system CPU time so far (Linux /proc), 0 where unknown."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


async def timed_tick(
    sb: EngineSandbox, engine: StrategyEngine, rec: Recorder, phase: str
) -> TickFigure:
    rec.start_tick(phase == "storm")
    first, requests = len(sb.pace.requests), sum(sb.transport.counts.values())
    sandbox_before = sandbox_cpu_ms(sb.sandbox_pid)
    cpu, wall = time.process_time(), time.perf_counter()
    report = await engine.tick()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    rec.end_tick(report)
    if report.error is not None:
        rec.failures.append(f"tick skipped: {report.error}")
    return TickFigure(
        phase, wall * 1000, cpu * 1000, sb.clock.now_ms() - rec.tick_start_ms,
        sum(1 for r in report.results if r.done), report.deferred,
        sum(sb.transport.counts.values()) - requests,
        sandbox_cpu_ms(sb.sandbox_pid) - sandbox_before, first, engine.wait_after(report),
    )  # fmt: skip


async def storm(sb: EngineSandbox, pools: list[Pool]) -> int:
    """The floor 5 % up in every above- and below-the-floor pool (so a cap of a share of the
    floor rises with it), then a rival one step above our bid in every above-the-top-bid pool;
    the pools moved."""
    moving = [p for p in pools if p.kind != "fixed"]
    slugs = ",".join(p.key.collection_slug for p in moving)
    response = await sb.http.get(
        "/v1/collection-stats/floors", params={"type": "ordinals", "slugs": slugs}
    )
    response.raise_for_status()
    floors = {e["slug"]: int(e["floor"]) for e in response.json()["data"] if e["floor"]}
    for slug, floor in floors.items():
        new_floor = price_step_at_or_below(floor * 105 // 100)
        await post(sb.http, "/sandbox/market/floor", {"slug": slug, "price": new_floor})
    ours: dict[PoolKey, int] = {}
    for bid in await fetch_open_bids(sb.ctx):
        key = pool_key_of(bid)
        if key is not None:
            ours[key] = max(ours.get(key, 0), bid.price or 0)
    for pool in moving:
        if pool.kind == "above" and pool.key in ours:
            await rival(sb.http, pool.key.collection_slug, ours[pool.key] + 1_000, pool.key.trait)
    return sum(1 for p in moving if p.key.collection_slug in floors)


@dataclass
class Run:
    ticks: list[TickFigure] = field(default_factory=list)
    steps: Counter[str] = field(default_factory=Counter)  # the simulator's, by outcome
    storm_moves: int = 0
    market_span_ms: int = 0
    idle_span_ms: int = 0
    wall_s: float = 0.0
    cpu_s: float = 0.0


async def simulate(sb: EngineSandbox, ours: set[str], seed: int, steps: int, run: Run) -> None:
    data = await post(sb.http, "/sandbox/market/simulate", {"seed": seed, "steps": steps})
    for step in data["data"]["steps"]:
        where = "our pools" if step["slug"] in ours else "other pools"
        outcome = step["action"] if step["done"] else "skipped"
        run.steps[f"{where}: {outcome}"] += 1


async def drive(sb: EngineSandbox, engine: StrategyEngine, rec: Recorder, pools: list[Pool],
                args: argparse.Namespace) -> Run:  # fmt: skip
    """The hour (the simulator between ticks, the storm halfway), then the idle minutes."""
    run, clock = Run(), sb.clock
    ours = {p.key.collection_slug for p in pools}
    wall, cpu = time.perf_counter(), time.process_time()
    start = clock.now_ms()
    storm_at, stormed = start + args.minutes * 30_000, False
    while clock.now_ms() - start < args.minutes * 60_000:
        if not stormed and clock.now_ms() >= storm_at:
            run.storm_moves, stormed = await storm(sb, pools), True
            run.ticks.append(await timed_tick(sb, engine, rec, "storm"))
        else:
            await simulate(sb, ours, args.seed, args.steps, run)
            run.ticks.append(await timed_tick(sb, engine, rec, "market"))
        await sb.sleeper.sleep_ms(run.ticks[-1].wait_ms)
    run.market_span_ms = clock.now_ms() - start
    idle_start = clock.now_ms()
    while clock.now_ms() - idle_start < args.idle_minutes * 60_000:
        run.ticks.append(await timed_tick(sb, engine, rec, "idle"))
        await sb.sleeper.sleep_ms(run.ticks[-1].wait_ms)
    run.idle_span_ms = clock.now_ms() - idle_start
    run.wall_s, run.cpu_s = time.perf_counter() - wall, time.process_time() - cpu
    return run


async def bench(args: argparse.Namespace) -> None:
    loads = [os.getloadavg()]
    delays = {PLACE_ROUTE: args.place_latency_ms} if args.place_latency_ms else None
    async with engine_sandbox(delays) as sb:
        pools = await make_pools(sb, args.pools)
        await fund_bidding_wallet(sb, 100_000_000)
        rec = Recorder(sb, {str(p.key): p.kind for p in pools})
        config: dict[str, Any] = {}
        if args.tick_ms is not None:
            config["tick_ms"] = args.tick_ms
        if args.units_per_tick is not None:
            config["units_per_tick"] = args.units_per_tick
        engine = build_engine(
            sb, [(p.key, p.rule, p.floor + 10_000) for p in pools], on_event=rec.on_event,
            **config,
        )  # fmt: skip
        await engine.start()
        run = await drive(sb, engine, rec, pools, args)
        loads.append(os.getloadavg())
        report(run, rec, pools, engine, sb.pace.requests, loads)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pools", type=int, default=50)
    parser.add_argument("--minutes", type=int, default=60, help="simulated minutes of market")
    parser.add_argument("--steps", type=int, default=8, help="simulator steps between ticks")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--tick-ms", type=int, default=None, help="default: the engine's")
    parser.add_argument("--units-per-tick", type=int, default=None, help="default: the engine's")
    parser.add_argument("--idle-minutes", type=int, default=2)
    parser.add_argument(
        "--place-latency-ms", type=int, default=0,
        help="answer each bid placement this much later (a real network's round trip)",
    )  # fmt: skip
    asyncio.run(bench(parser.parse_args()))


if __name__ == "__main__":
    main()
