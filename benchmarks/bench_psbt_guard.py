"""Speed of the PSBT guard: view_of (embit PSBT -> PsbtView) + review + policy, per flow, and
for a funding PSBT with many inputs (a wallet consolidating dust).

Run: .venv/bin/python -m benchmarks.bench_psbt_guard [--inputs 200] [--rounds 15]
The guard runs before every signature, on the GUI's worker; it should stay well under the
time a user notices (a few ms for the usual 1-5 input PSBTs).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from app.core.psbt_review import review
from app.core.signing_policy import FeeBounds, FundingIntent, evaluate
from app.wallet.psbt_reader import view_of
from tests.support.psbt_scenarios import NETWORK, NOTHING, SCENARIOS, build_psbt, coin, parties


def median_ms(fn: Callable[[], object], rounds: int) -> float:
    """Median over `rounds` of the mean time per call, each round at least 20 ms long."""
    n = 1
    while True:
        start = time.perf_counter()
        for _ in range(n):
            fn()
        if time.perf_counter() - start >= 0.02:
            break
        n *= 2
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(n):
            fn()
        samples.append((time.perf_counter() - start) / n * 1000)
    return statistics.median(samples)


def big_funding(inputs: int) -> Callable[[], object]:
    p = parties()
    coins = [coin(p.payment_spk, 10_000) for _ in range(inputs)]
    total = 10_000 * inputs
    fee = 70 * inputs + 100
    psbt = build_psbt(coins, [(p.bidding_spk, total - fee - 5_000), (p.payment_spk, 5_000)])
    ctx = p.context(coins, contents={c.outpoint: NOTHING for c in coins})
    intent = FundingIntent(total - fee - 5_000, FeeBounds.of(fee, 50))

    def run() -> object:
        verdict = evaluate(review(view_of(psbt, NETWORK), ctx), intent)
        assert verdict.approved, verdict.reasons()
        return verdict

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    print(f"PSBT guard, median of {args.rounds} rounds (ms per PSBT)")
    for name, make in SCENARIOS.items():
        s = make()
        view = view_of(s.psbt, NETWORK)
        t_view = median_ms(lambda: view_of(s.psbt, NETWORK), args.rounds)  # noqa: B023
        t_review = median_ms(lambda: review(view, s.context), args.rounds)  # noqa: B023
        rv = review(view, s.context)
        t_policy = median_ms(lambda: evaluate(rv, s.intent), args.rounds)  # noqa: B023
        total = t_view + t_review + t_policy
        print(
            f"  {name:<24} view {t_view:6.3f}  review {t_review:6.3f}  policy {t_policy:6.3f}"
            f"  total {total:6.3f}"
        )
    t_big = median_ms(big_funding(args.inputs), args.rounds)
    print(f"  funding, {args.inputs} inputs      view+review+policy {t_big:8.3f}")


if __name__ == "__main__":
    main()
