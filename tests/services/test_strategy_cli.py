"""The headless command's parts that need no sandbox: its help, the strategy file, the
profile lock, and the clear refusals before anything is unlocked."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from app.__main__ import build_parser, main
from app.core.bid_request import Trait
from app.core.pools import PoolKey
from app.core.strategy_rules import AboveTopBid, BelowFloor, FixedPrice, FloorBand, Ladder
from app.services.profiles import AppProfile, ProfileStore
from app.services.strategy_config import (
    StrategyConfigError,
    config_path,
    config_to_json,
    load_config,
    parse_config,
    save_config,
    strategy_ids,
)
from app.services.strategy_lock import EngineAlreadyRunningError, EngineLock

EXAMPLE: dict[str, Any] = {
    "policy_id": "pixel-keeper",
    "total_budget_sats": 300_000,
    "max_active_bids": 10,
    "tick_ms": 5_000,
    "lifecycle": {"bid_lifetime_ms": 1_800_000, "update_threshold": "1/50"},
    "pools": [
        {
            "collection": "pixel-pals",
            "budget_sats": 200_000,
            "rule": {"below_floor": {"percent": 10, "cap": 50_000}},
            "floor_band": {"min": 30_000, "max": 90_000},
        },
        {
            "collection": "pixel-pals",
            "trait": {"trait_type": "hat", "value": "red"},
            "budget_sats": 100_000,
            "rule": {
                "ladder": [
                    {"share": 50, "rule": {"fixed": 20_000}},
                    {
                        "share": 50,
                        "rule": {"above_top_bid": {"cap": 30_000, "floor_percent": 80}},
                    },
                ]
            },
        },
        {"rune": "DOG•GO•TO•THE•MOON", "budget_sats": 50_000, "rule": {"fixed": "3/2"}},
    ],
}


def test_help_explains_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        build_parser().parse_args(["strategies", "run", "--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    for words in ("--profile", "--dry-run", "keyring", "SIGTERM", "never an environment"):
        assert words in text


def test_the_example_strategy_file_reads_as_written() -> None:
    config = parse_config(EXAMPLE)
    assert config.policy_id == "pixel-keeper" and config.tick_ms == 5_000
    assert config.limits.total_budget_sats == 300_000 and config.limits.max_active_bids == 10
    assert config.lifecycle.update_threshold == Fraction(1, 50)
    floor, ladder, rune = config.pools
    assert floor.pool == PoolKey("pixel-pals") and floor.rule == BelowFloor(10, 50_000)
    assert floor.floor_band == FloorBand(30_000, 90_000)
    assert ladder.pool == PoolKey("pixel-pals", Trait("hat", "red"))
    assert isinstance(ladder.rule, Ladder)
    assert [s.rule for s in ladder.rule.steps] == [
        FixedPrice(20_000),
        AboveTopBid(30_000, 80),
    ]
    assert rune.is_rune and rune.rule == FixedPrice(Fraction(3, 2))


def test_a_saved_strategy_reads_back_as_it_was(tmp_path: Path) -> None:
    config = parse_config(EXAMPLE)
    path = save_config(tmp_path, config)
    assert path == config_path(tmp_path, "pixel-keeper")
    assert load_config(path) == config
    assert parse_config(json.loads(json.dumps(config_to_json(config)))) == config
    assert not list(path.parent.glob(".*.tmp"))  # written in place atomically


def test_an_upper_case_collection_stays_a_collection_when_read_back(tmp_path: Path) -> None:
    # A collection slug that looks like a rune's letters is still a collection once written.
    data = {**EXAMPLE, "pools": [{"collection": "PUNKS", "budget_sats": 1, "rule": {"fixed": 1}}]}
    config = parse_config(data)
    assert not config.pools[0].is_rune
    assert not load_config(save_config(tmp_path, config)).pools[0].is_rune


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"policy_id": ""}, "policy_id"),
        ({"pools": []}, "pools"),
        ({"total_budget_sats": 1.5}, "total_budget_sats"),
        ({"pools": [{"collection": "x", "budget_sats": 1, "rule": {"best": 1}}]}, "best"),
        ({"pools": [{"collection": "x", "budget_sats": -1, "rule": {"fixed": 1}}]}, "budget"),
        ({"lifecycle": {"bid_lifetime_ms": 1_000}}, "lifetime"),
        ({"tick_ms": -5}, "tick_ms"),
    ],
)
def test_a_bad_field_is_named(tmp_path: Path, change: dict[str, Any], says: str) -> None:
    path = config_path(tmp_path, "bad")
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({**EXAMPLE, **change}), encoding="utf-8")
    with pytest.raises(StrategyConfigError, match=says):
        load_config(path)


def test_missing_and_broken_files(tmp_path: Path) -> None:
    with pytest.raises(StrategyConfigError, match="no strategy file"):
        load_config(config_path(tmp_path, "none"))
    path = config_path(tmp_path, "broken")
    path.parent.mkdir(parents=True)
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(StrategyConfigError, match="JSON"):
        load_config(path)
    assert strategy_ids(tmp_path) == ["broken"]


def test_one_engine_per_profile(tmp_path: Path) -> None:
    refused = pytest.raises(EngineAlreadyRunningError, match=f"process {os.getpid()}")
    with EngineLock(tmp_path), refused:
        EngineLock(tmp_path).acquire()
    with EngineLock(tmp_path):  # released: a new engine may start
        pass


def test_a_killed_engine_leaves_no_stale_lock(tmp_path: Path) -> None:
    code = (
        "import sys; from pathlib import Path; from app.services.strategy_lock import EngineLock;"
        "lock = EngineLock(Path(sys.argv[1])); lock.acquire(); print('locked', flush=True);"
        "sys.stdin.read()"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", code, str(tmp_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert child.stdout is not None and child.stdout.readline() == "locked\n"
    with pytest.raises(EngineAlreadyRunningError, match=f"process {child.pid}"):
        EngineLock(tmp_path).acquire()
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    with EngineLock(tmp_path):
        pass


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["strategies", "run", *args])
    return code, capsys.readouterr().err


def test_refusals_before_anything_is_unlocked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BIDWALLET_DATA_DIR", str(tmp_path))
    code, err = run_cli(["--profile", "Nobody"], capsys)
    assert code == 2 and "no profile named 'Nobody'" in err

    store = ProfileStore(tmp_path)
    sandbox = AppProfile.sandbox("Sandbox")
    store.save(store.load().with_profile(sandbox))
    code, err = run_cli(["--profile", "Sandbox"], capsys)
    assert code == 2 and "no keys yet" in err

    from dataclasses import replace

    store.save(store.load().with_profile(replace(sandbox, key_name="k"), previous_name="Sandbox"))
    code, err = run_cli(["--profile", "Sandbox"], capsys)
    assert code == 2 and "--sandbox-url" in err
    code, err = run_cli(["--profile", "Sandbox", "--sandbox-url", "http://127.0.0.1:9"], capsys)
    assert code == 2 and "strategy files: none" in err
    code, err = run_cli(
        ["--profile", "Sandbox", "--sandbox-url", "http://127.0.0.1:9", "--strategy", "x"], capsys
    )
    assert code == 2 and "no strategy file" in err
