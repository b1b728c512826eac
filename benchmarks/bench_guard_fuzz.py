"""The guard's mutation fuzzer (issue 12) run for longer than the test does: for each flow,
hypothesis mutates the honest PSBT for S seconds, and every mutation must be refused or, once
signed, harmless (the property of tests/core/test_guard_fuzz.py,
tests/support/psbt_eff_property.py).

Run: ./dev bench guard_fuzz [--seconds 20] [--seed 1] [--flow NAME ...]
Prints per flow: mutations tried, refused (and by what), approved and harmless, mutations per
second, and the first counterexample hypothesis found, shrunk (its mutations, the verdict and
how its effect differs from the honest one). Exits 1 if any flow has a counterexample.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, Phase, given, seed, settings

from tests.support.psbt_eff_outcome import Kind, Outcome
from tests.support.psbt_eff_property import Target, targets

ROUND = 100  # examples per hypothesis run; the time budget is checked between runs


class _Counterexample(Exception):
    pass


@dataclass
class FlowStats:
    name: str
    counts: Counter[Kind] = field(default_factory=Counter)
    kernel: list[int] = field(default_factory=lambda: [0, 0])  # judged by Core, made
    seconds: float = 0.0
    counterexample: Outcome | None = None

    @property
    def tried(self) -> int:
        return sum(self.counts.values())

    @property
    def refused(self) -> int:
        return sum(n for kind, n in self.counts.items() if kind not in _APPROVED)

    def lines(self) -> list[str]:
        rate = self.tried / self.seconds if self.seconds else 0.0
        out = [
            f"{self.name:<24} tried {self.tried:>6}  refused {self.refused:>6}  "
            f"harmless-approved {self.counts[Kind.HARMLESS]:>5}  {rate:7.1f} mutations/s"
        ]
        if self.kernel[1]:
            out.append(
                f"{'':<26}our signatures checked by Bitcoin Core: {self.kernel[0]} of "
                f"{self.kernel[1]}"
            )
        out += [
            f"{'':<26}{kind.value}: {n}"
            for kind, n in sorted(self.counts.items(), key=lambda kv: kv[0].value)
            if kind is not Kind.HARMLESS
        ]
        if self.counterexample is not None:
            out += ["  COUNTEREXAMPLE (shrunk):"]
            out += ["    " + line for line in self.counterexample.report().splitlines()]
        return out


_APPROVED = (Kind.HARMLESS, Kind.HARMFUL, Kind.INCONSISTENT, Kind.CRASH)


def fuzz(target: Target, seconds: float, base_seed: int) -> FlowStats:
    stats = FlowStats(target.name)
    last: list[Outcome] = []
    start = time.perf_counter()
    run = 0
    while time.perf_counter() - start < seconds and stats.counterexample is None:

        @settings(
            max_examples=ROUND,
            database=None,
            deadline=None,
            phases=[Phase.generate, Phase.shrink],
            suppress_health_check=list(HealthCheck),
        )
        @seed(base_seed * 1_000_003 + run)
        @given(target.strategy)
        def one(draw: Any) -> None:
            outcome = target.run(draw)
            if not last:  # shrinking re-runs examples: count only before the first failure
                stats.counts[outcome.kind] += 1
                stats.kernel[0] += outcome.kernel[0]
                stats.kernel[1] += outcome.kernel[1]
            if outcome.failed:
                last[:] = [outcome]
                raise _Counterexample

        try:
            one()
        except _Counterexample:
            stats.counterexample = last[-1]  # hypothesis replays the shrunk example last
        run += 1
    stats.seconds = time.perf_counter() - start
    return stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="per flow (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--flow", action="append", help="only these flows (repeatable)")
    args = parser.parse_args()
    chosen = targets()
    if args.flow:
        unknown = set(args.flow) - set(chosen)
        if unknown:
            parser.error(f"unknown flow(s) {sorted(unknown)}; known: {sorted(chosen)}")
        chosen = {name: chosen[name] for name in args.flow}
    print(f"Guard fuzz: {args.seconds:g} s per flow, seed {args.seed}")
    failed = False
    for target in chosen.values():
        stats = fuzz(target, args.seconds, args.seed)
        print("\n".join(stats.lines()), flush=True)
        failed |= stats.counterexample is not None
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
