"""Start of the desktop app on the embedded sandbox, to the moment the user can act.

Each run spawns `python -m app --sandbox` on the offscreen platform with
BIDWALLET_STARTUP_PROBE=ready (app/ui/startup_probe.py): the app prints CLOCK_MONOTONIC (shared
by every process on Linux) when its clients are connected ("Connected") and when the Wallet tab
shows balances loaded over that connection with the wallet unlocked, then closes. Scenarios:
- "first run": a new data directory each run: the sandbox profile is created, the sandbox
  starts on an empty data directory, a demo key is made and funded (faucet, inscriptions,
  runes, a block), then balances show. The probe must report funded=1.
- "first run, no cached chain": the same with the prebuilt demo chain's cache emptied before
  each run (the sandbox mines its initial chain itself, and caches it for later first runs).
- "relaunch": the same data directory again: the sandbox resumes its chain, the demo key is
  unlocked, balances show.

Every run uses a data directory and cache directory (XDG_CACHE_HOME) of its own under a
temporary directory: nothing of the user's is read or written.

Each scenario runs in two modes (benchmarks/bytecode_modes.py): bytecode cached, as an installed
app runs (the headline figures, against the targets), then sources compiled at each start, as
the app runs from its source tree on this machine (PYTHONDONTWRITEBYTECODE=1 here: the app and
the sandbox child each compile the app's modules again at every start).

Run: .venv/bin/python -m benchmarks.bench_ui_ready [--runs 5] [--compare TREE]
(or ./dev bench ui_ready). The machine's load average is printed before and after; on a shared
machine compare with an older tree through --compare: the trees take turns run by run.
Targets (issue 15): first run to a funded demo wallet <= 2 s; relaunch to Connected with
balances shown <= 1 s.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.bytecode_modes import INSTALLED, bytecode_mode, bytecode_modes, load_average

REPO = Path(__file__).resolve().parents[1]
FIRST_RUN_TARGET_S = 2.0
RELAUNCH_TARGET_S = 1.0


@dataclass(frozen=True)
class Sample:
    window: float
    sandbox: float
    connected: float
    ready: float
    funded: bool


def one_start(data_dir: Path, cache_dir: Path, repo: Path = REPO) -> Sample:
    env = dict(os.environ)
    env |= {
        "QT_QPA_PLATFORM": "offscreen",
        "BIDWALLET_STARTUP_PROBE": "ready",
        "BIDWALLET_DATA_DIR": str(data_dir),
        "XDG_CONFIG_HOME": str(data_dir / "config"),  # window state: not the user's own
        "XDG_CACHE_HOME": str(cache_dir),
    }
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "app", "--sandbox"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    marks: dict[str, float] = {}
    funded = False
    for line in result.stdout.splitlines():
        words = line.split()
        if words and words[0] in ("window-shown", "sandbox-ready", "connected", "ready"):
            marks[words[0]] = float(words[1]) - started
            if words[0] == "ready":
                funded = "funded=1" in words
    if "ready" not in marks or "connected" not in marks:
        logs = "".join(
            path.read_text()[-2000:]
            for path in [data_dir / "logs" / "bidwallet.log", *data_dir.glob("profiles/*/*.log")]
        )
        raise SystemExit(
            f"no ready report (exit {result.returncode}):\n{result.stdout[-1000:]}\n"
            f"{result.stderr[-2000:]}\n{logs}"
        )
    return Sample(
        marks["window-shown"], marks["sandbox-ready"], marks["connected"], marks["ready"], funded
    )


def report(name: str, samples: list[Sample], target_s: float) -> None:
    def ms(values: list[float]) -> str:
        return (
            f"{statistics.median(values) * 1000:5.0f} ms "
            f"({min(values) * 1000:.0f}-{max(values) * 1000:.0f})"
        )

    ready = [s.ready for s in samples]
    verdict = "ok" if statistics.median(ready) <= target_s else "OVER TARGET"
    print(
        f"  {name:<27} window {ms([s.window for s in samples])}, "
        f"sandbox {ms([s.sandbox for s in samples])}, "
        f"Connected {ms([s.connected for s in samples])}, "
        f"balances shown {ms(ready)}; target <= {target_s:.1f} s: {verdict}"
    )


def measure(trees: list[Path], runs: int, root: Path) -> dict[Path, dict[str, list[Sample]]]:
    """Every scenario of every tree, the trees taking turns run by run (a change in the
    machine's load then weighs on each alike)."""
    results: dict[Path, dict[str, list[Sample]]] = {tree: {} for tree in trees}
    for n, tree in enumerate(trees):
        # Warm the OS file cache and build the chain cache once per tree.
        one_start(root / f"warm-{n}", root / f"cache-{n}", tree)
    for number in range(runs):
        for n, tree in enumerate(trees):
            first = one_start(root / f"first-{n}-{number}", root / f"cache-{n}", tree)
            cold_cache = root / f"cold-cache-{n}-{number}"
            cold = one_start(root / f"cold-{n}-{number}", cold_cache, tree)
            shutil.rmtree(cold_cache, ignore_errors=True)
            if not (first.funded and cold.funded):
                raise SystemExit(f"a first run of {tree} ended without a funded demo wallet")
            results[tree].setdefault("first", []).append(first)
            results[tree].setdefault("cold", []).append(cold)
    for _ in range(runs):
        for n, tree in enumerate(trees):
            again = one_start(root / f"first-{n}-0", root / f"cache-{n}", tree)
            results[tree].setdefault("relaunch", []).append(again)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--compare",
        type=Path,
        action="append",
        default=[],
        metavar="TREE",
        help="also run the app of another source tree (e.g. an older commit exported with "
        "`git archive`, plus this tree's app/ui/startup_probe.py), run for run in turn with "
        "this one",
    )
    args = parser.parse_args()
    trees = [REPO, *(tree.resolve() for tree in args.compare)]
    print(f"UI ready on the sandbox, {args.runs} runs each (median; min-max)")
    with tempfile.TemporaryDirectory() as tmp:
        for number, (mode, changes) in enumerate(bytecode_modes(Path(tmp)).items()):
            with bytecode_mode(changes):
                load = load_average()
                results = measure(trees, args.runs, Path(tmp) / f"mode-{number}")
            headline = ", the targets' figures" if mode == INSTALLED else ""
            print(f"- {mode}{headline} (load average before: {load}, after: {load_average()})")
            for tree in trees:
                print(f"  app from {tree}:")
                report("first run (funded wallet)", results[tree]["first"], FIRST_RUN_TARGET_S)
                report("first run, no cached chain", results[tree]["cold"], FIRST_RUN_TARGET_S)
                report("relaunch", results[tree]["relaunch"], RELAUNCH_TARGET_S)


if __name__ == "__main__":
    main()
