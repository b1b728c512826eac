"""A sandbox child spawned before the window (app/services/sandbox_early.py) is taken by the
profile's start when it runs on that profile's directory, and stopped when the guess was wrong
(another directory): the start then runs its own child there."""

from __future__ import annotations

import asyncio
from pathlib import Path

from app.services.profiles import AppProfile
from app.services.sandbox_early import spawn_sandbox
from app.ui.context import AppContext
from app.ui.qa.harness import OptionsFactory
from app.ui.qa.loop import run_async
from app.ui.sandbox_setup import adopt_early, sandbox_data_dir, start_profile_sandbox
from tests.ui.test_first_run_sandbox import wait_exit


def test_the_start_takes_the_early_child_of_its_directory_and_stops_another(
    qloop: asyncio.AbstractEventLoop, tmp_path: Path, make_options: OptionsFactory
) -> None:
    context = AppContext(make_options(sandbox=True))
    profile = AppProfile.sandbox()
    context.set_profile(profile)
    cache = tmp_path / "chain-cache"

    wrong = spawn_sandbox(tmp_path / "elsewhere" / "sandbox", chain_cache=cache)
    run_async(qloop, adopt_early(context, wrong))
    outcome = run_async(qloop, start_profile_sandbox(context, profile))
    assert outcome is not None
    sandbox, profile = outcome
    try:
        assert wait_exit(wrong.pid), "the child for another directory was left running"
        assert sandbox.pid != wrong.pid
        assert sandbox.data_dir == sandbox_data_dir(context, profile)
        assert profile.sandbox_only and context.wallet_lock.unlocked  # the demo wallet is made
    finally:
        run_async(qloop, sandbox.stop())

    right = spawn_sandbox(sandbox_data_dir(context, profile), chain_cache=cache)
    run_async(qloop, adopt_early(context, right))
    outcome = run_async(qloop, start_profile_sandbox(context, profile))
    assert outcome is not None
    sandbox, _ = outcome
    try:
        assert sandbox.pid == right.pid  # taken, not started again
        assert context.wallet_lock.unlocked  # the demo key opened while it started
    finally:
        assert run_async(qloop, sandbox.stop()) == 0
