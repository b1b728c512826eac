"""The figures `bench_strategy_hour` prints, from what its run recorded (its docstring says
what each one measures)."""

from __future__ import annotations

import itertools
import os
import statistics
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from app.core.limits import BID_RATE_INTERVAL_MS
from app.services.strategy_engine import StrategyEngine
from benchmarks.strategy_sandbox import PacedRequest, pace_share

if TYPE_CHECKING:
    from benchmarks.bench_strategy_hour import Pool, Reaction, Recorder, Run


def pct(samples: Sequence[float], q: int) -> float:
    """The q-th percentile (nearest rank) of samples."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def burst(run: Run, first_tick: int, requests: list[PacedRequest]) -> tuple[int, int, int] | None:
    """The burst starting at tick `first_tick`, until the first tick that left no placement
    for a later one: its first and end request indexes, and its ticks."""

    def first_request(tick: int) -> int:
        return run.ticks[tick].first_bid_request if tick < len(run.ticks) else len(requests)

    for i in range(first_tick, len(run.ticks)):
        if run.ticks[i].deferred == 0:
            return first_request(first_tick), first_request(i + 1), i - first_tick + 1
    return None


def burst_lines(name: str, run: Run, first_tick: int, requests: list[PacedRequest]) -> list[str]:
    found = burst(run, first_tick, requests)
    if found is None or found[1] - found[0] < 2:
        return [f"{name}: too few bid requests to measure"]
    first, end, ticks = found
    window = requests[first:end]
    span_s = (window[-1].sent_ms - window[0].sent_ms) / 1000
    wall_s = window[-1].sent_wall - window[0].sent_wall
    first_tick_end = run.ticks[first_tick + 1].first_bid_request if ticks > 1 else end
    in_first = requests[first:first_tick_end]
    lost_answer = lost_between = 0
    for before, after in itertools.pairwise(window):
        excess = after.sent_ms - before.sent_ms - before.units * BID_RATE_INTERVAL_MS
        waited = min(max(0, excess), before.answered_ms - before.sent_ms)
        lost_answer += waited
        lost_between += max(0, excess - waited)
    units = sum(r.units for r in window)
    return [
        f"{name}: {len(window)} bid requests ({units} units) in {ticks} "
        f"tick{'s' if ticks != 1 else ''} over {span_s:,.1f} s "
        f"of the engine clock: {(units - window[-1].units) / span_s:.2f}/s = "
        f"{pace_share(window):.0%} of the bound (2/s)",
        f"  within its first tick alone ({len(in_first)} requests): {pace_share(in_first):.0%}",
        f"  time the bound would have used, lost: {lost_answer:,} ms waiting for each "
        f"answer (the pace counts 500 ms from it), {lost_between:,} ms between "
        "requests otherwise (the wait between ticks, the next tick's reads and cancels)",
        f"  wall clock (waits skipped): the same requests in {wall_s:,.1f} s, "
        f"{(len(window) - 1) / wall_s:.1f}/s",
    ]


def reaction_lines(label: str, found: list[Reaction]) -> list[str]:
    if not found:
        return [f"  {label}: none"]
    tick = [r.in_tick_ms for r in found]
    wall = [r.in_tick_wall_ms for r in found]
    worst = [r.since_tick_before_ms for r in found]
    return [
        f"  {label} (n={len(found)}): in the tick that saw it median {statistics.median(tick):,.0f}"
        f" ms, p90 {pct(tick, 90):,.0f} ms engine clock (wall median "
        f"{statistics.median(wall):,.0f} ms, p90 {pct(wall, 90):,.0f} ms)",
        f"    with the wait before that tick (from the tick before): median "
        f"{statistics.median(worst) / 1000:,.1f} s, p90 {pct(worst, 90) / 1000:,.1f} s",
    ]


def report(run: Run, rec: Recorder, pools: list[Pool], engine: StrategyEngine,
           requests: list[PacedRequest], loads: Sequence[tuple[float, ...]]) -> None:  # fmt: skip
    config = engine.config
    kinds = Counter(p.kind for p in pools)
    traits = sum(1 for p in pools if p.key.trait is not None)
    market = [t for t in run.ticks if t.phase != "idle"]
    lines = [
        f"{len(pools)} pools ({kinds['above']} above the top bid, {kinds['below']} below the "
        f"floor, {kinds['fixed']} fixed; {traits} of them trait pools); after a tick a wait of "
        f"{config.tick_ms / 1000:g} s (none while placements are left over); at most "
        f"{config.units_per_tick} placements a tick",
        "load average (1, 5, 15 min): before "
        + " ".join(f"{x:.2f}" for x in loads[0])
        + ", after "
        + " ".join(f"{x:.2f}" for x in loads[1])
        + f"; {os.cpu_count()} cores",
        f"span: {run.market_span_ms / 60_000:.1f} min of the engine clock in {len(market)} "
        f"ticks (moving market), then {run.idle_span_ms / 60_000:.1f} min idle; "
        f"{run.wall_s / 60:.1f} min wall in all ({rec.sb.sleeper.skipped_ms / 60_000:.1f} min "
        "of waits skipped)",
        f"market: {sum(run.steps.values())} simulator steps, "
        + ", ".join(f"{k} {v}" for k, v in sorted(run.steps.items()))
        + f"; the storm at {run.market_span_ms / 120_000:.0f} min: {run.storm_moves} moves",
        "engine actions: "
        + ", ".join(f"{k} {v}" for k, v in sorted(rec.actions.items()))
        + f"; {sum(t.deferred for t in run.ticks)} placements deferred to a later tick",
        f"ticks (moving market): wall median {statistics.median(t.wall_ms for t in market):,.0f}"
        f" ms, p90 {pct([t.wall_ms for t in market], 90):,.0f} ms, max "
        f"{max(t.wall_ms for t in market):,.0f} ms",
        "",
        "placements per second, as a share of the bound (1 per 500 ms per receive address):",
    ]
    lines += ["  " + x for x in burst_lines("start (every pool placed)", run, 0, requests)]
    storm_tick = next((i for i, t in enumerate(run.ticks) if t.phase == "storm"), None)
    if storm_tick is not None:
        lines += ["  " + x for x in burst_lines("storm", run, storm_tick, requests)]
    span_s = run.market_span_ms / 1000
    lines += [
        f"  the moving market in all: {len(requests)} bid requests, "
        f"{len(requests) / span_s:.3f}/s on average (most ticks have nothing to place)",
        "",
        "reaction, an outbid to our new bid accepted:",
    ]
    outbids = [r for r in rec.reactions if r.kind == "outbid"]
    lines += reaction_lines("moving market", [r for r in outbids if not r.storm])
    lines += reaction_lines("storm", [r for r in outbids if r.storm])
    floors = [r for r in rec.reactions if r.kind == "floor"]
    lines += ["a floor move to the below-the-floor pool re-priced:"]
    lines += reaction_lines("moving market", [r for r in floors if not r.storm])
    lines += reaction_lines("storm", [r for r in floors if r.storm])
    lines += ["", *idle_lines(run, config.tick_ms)]
    lines.append(
        f"whole run: this process's CPU {run.cpu_s:,.1f} s over {run.wall_s:,.0f} s wall "
        f"({run.cpu_s / run.wall_s:.0%} of one core, the harness's requests included)"
    )
    if rec.failures:
        lines += [f"failed: {len(rec.failures)}, first: " + "; ".join(rec.failures[:3])]
    print("\n".join(lines))


def idle_lines(run: Run, tick_ms: int) -> list[str]:
    idle = [t for t in run.ticks if t.phase == "idle"]
    quiet = [t for t in idle if t.acted == 0 and t.deferred == 0]
    if not quiet:
        return ["idle: no tick without actions"]
    cpu = statistics.mean(t.cpu_ms for t in quiet)
    wall = statistics.mean(t.wall_ms for t in quiet)
    per_minute = cpu * 60_000 / (tick_ms + statistics.mean(t.span_ms for t in quiet))
    requests = statistics.mean(t.requests for t in quiet)
    return [
        f"idle, markets unchanged ({len(quiet)} of {len(idle)} ticks with nothing to do):",
        f"  engine process CPU {cpu:,.0f} ms a tick ({wall:,.0f} ms wall): {per_minute:,.0f} ms "
        f"per simulated minute, {cpu / (tick_ms + wall):.1%} of one core at a tick every "
        f"{tick_ms / 1000:g} s + the tick",
        f"  {requests:,.0f} HTTP requests a tick (each pool's bids and listings, our open bids, "
        f"the balance); at the public service's client pace of 5/s (burst 10) they would "
        f"take ~{max(0.0, requests - 10) / 5:,.0f} s",
        f"  the sandbox answering them: {statistics.mean(t.sandbox_cpu_ms for t in quiet):,.0f}"
        " ms CPU a tick",
    ]
