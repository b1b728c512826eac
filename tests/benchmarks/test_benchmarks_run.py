"""The benchmarks are not run in CI (they print figures, they assert no duration), but their
code must keep working: every module imports, and the pure ones run once at their smallest
(and the strategy hour, against a sandbox process, for two simulated minutes)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

BENCHMARKS = sorted(p.stem for p in (Path(__file__).parents[2] / "benchmarks").glob("bench_*.py"))


@pytest.mark.parametrize("name", BENCHMARKS)
def test_every_benchmark_imports(name: str) -> None:
    module = importlib.import_module(f"benchmarks.{name}")
    assert callable(module.main)


def test_the_guard_benchmark_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    module = importlib.import_module("benchmarks.bench_psbt_guard")
    monkeypatch.setattr(sys, "argv", ["bench_psbt_guard", "--rounds", "1", "--inputs", "5"])
    module.main()
    printed = capsys.readouterr().out
    assert "funding, 5 inputs" in printed and "secure_listing" in printed


def test_the_market_snapshot_benchmark_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    module = importlib.import_module("benchmarks.bench_market_snapshot")
    argv = ["bench_market_snapshot", "--rounds", "1", "--bids", "200", "--listings", "20"]
    monkeypatch.setattr(sys, "argv", argv)
    module.main()
    assert "snapshot, 200 bids + 20 listings" in capsys.readouterr().out


def test_the_strategy_plan_benchmark_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    module = importlib.import_module("benchmarks.bench_strategy_plan")
    monkeypatch.setattr(sys, "argv", ["bench_strategy_plan", "--rounds", "1", "--pools", "5"])
    module.main()
    printed = capsys.readouterr().out
    assert "first tick, 5 pools: plan" in printed
    # Once the first tick's actions are applied, the steady tick has nothing to do.
    assert "actions 0 cancel, 0 renew, 0 place" in printed


def test_the_strategy_hour_benchmark_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """At its smallest, against its own sandbox process: a few simulated minutes, no failure."""
    module = importlib.import_module("benchmarks.bench_strategy_hour")
    argv = ["bench_strategy_hour", "--pools", "3", "--minutes", "2", "--idle-minutes", "1"]
    monkeypatch.setattr(sys, "argv", argv)
    module.main()
    printed = capsys.readouterr().out
    assert "start (every pool placed): 3 bid requests" in printed
    assert "idle, markets unchanged" in printed and "failed:" not in printed
