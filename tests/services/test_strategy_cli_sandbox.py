"""`bidwallet strategies run` as a user runs it, against the real sandbox: a profile whose
keys are in the vault file under a password, typed at the prompt (a pseudo-terminal: never an
environment variable or an argument); --dry-run signs nothing, --once places the plan's bids,
and SIGTERM stops a running engine cleanly (exit 0) after logging JSON lines."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import signal
import subprocess
import sys
import termios
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.core.pools import PoolKey
from app.services.bidding_wallet import get_bidding_wallet
from app.services.context import ServiceContext
from app.services.key_setup import imported_phrase_key, save_new_key
from app.services.open_bids import fetch_open_bids, pool_key_of
from app.services.profiles import AppProfile, ProfileStore
from app.services.qa_vault import QA_KDF
from app.services.strategy_config import config_path
from app.services.strategy_journal import StrategyJournal
from app.wallet.vault import Vault
from app.wallet.vault_file_store import FileStore
from tests.services.conftest import (
    BIDDING_FUNDS,
    COIN_SATS,
    ContextFactory,
    SandboxControl,
    new_mnemonic,
)
from tests.support.strategy_engine import approve_policy

pytestmark = pytest.mark.asyncio(loop_scope="session")
PASSWORD = "correct horse battery staple"
ROOT = Path(__file__).resolve().parents[2]


def _controlling_terminal() -> None:
    """In the child: a session of its own whose terminal is the pseudo-terminal on its stdin,
    so getpass asks there (/dev/tty), as it would a user."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def run(data: Path, args: list[str]) -> tuple[subprocess.Popen[str], int]:
    """The command with a terminal as its stdin (getpass asks there); stderr piped."""
    master, slave = pty.openpty()
    env = {**os.environ, "BIDWALLET_DATA_DIR": str(data)}
    child = subprocess.Popen(
        [sys.executable, "-m", "app", "strategies", "run", *args],
        stdin=slave,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
        preexec_fn=_controlling_terminal,
    )
    os.close(slave)
    return child, master


def type_password(child: subprocess.Popen[str], master: int) -> None:
    said = b""
    while b"Password of" not in said:
        ready, _, _ = select.select([master], [], [], 120)
        if not ready or child.poll() is not None:
            _, err = child.communicate(timeout=60)
            raise AssertionError(f"no password prompt: {said!r} {err}")
        said += os.read(master, 1024)
    os.write(master, (PASSWORD + "\n").encode())


def events(lines: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in lines.splitlines() if line.startswith("{")]


async def test_the_command_unlocks_at_the_prompt_runs_and_stops_on_sigterm(
    make_context: ContextFactory,
    sandbox: SandboxControl,
    active_sandbox_url: str,
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    words = new_mnemonic()
    vault = Vault(FileStore(data), QA_KDF)
    key = imported_phrase_key(words, "", "leather", 0, None)
    keys = save_new_key(vault, "strategy-key", "regtest", key, PASSWORD, False)
    store = ProfileStore(data)
    profile = replace(AppProfile.sandbox("Sandbox"), key_name="strategy-key")
    store.save(store.load().with_profile(profile))
    profile_dir = store.profile_dir(profile)

    ctx: ServiceContext = make_context(keys)
    await sandbox.faucet(ctx.payment_address, COIN_SATS)
    await sandbox.faucet((await get_bidding_wallet(ctx)).address, BIDDING_FUNDS)
    slug = f"cli-{os.urandom(4).hex()}"
    await sandbox.create_collection(slug)
    pool = PoolKey(slug)
    policy_id = approve_policy(ctx, profile_dir, [pool], 5_000, 50_000)
    strategy = {
        "policy_id": policy_id,
        "total_budget_sats": 50_000,
        "max_active_bids": 2,
        "pools": [{"collection": slug, "budget_sats": 50_000, "rule": {"fixed": 5_000}}],
    }
    path = config_path(profile_dir, policy_id)
    path.write_text(json.dumps(strategy), encoding="utf-8")
    common = ["--profile", "Sandbox", "--sandbox-url", active_sandbox_url]

    child, master = run(data, [*common, "--dry-run"])
    type_password(child, master)
    out, err = child.communicate(timeout=120)
    os.close(master)
    assert child.returncode == 0, err
    assert f"{slug}: Bidding:" in out and "Place 2 bids at 5,000 sats" in out
    assert StrategyJournal.in_profile(profile_dir).entries(policy_id) == []

    child, master = run(data, [*common, "--once"])
    type_password(child, master)
    out, err = child.communicate(timeout=120)
    os.close(master)
    assert child.returncode == 0, err
    said = events(err)
    assert [e["event"] for e in said if e["event"] in ("place", "tick", "stopped")] == [
        "place",
        "tick",
        "stopped",
    ]
    assert all("ts" in e and "level" in e for e in said)
    listed = [b for b in await fetch_open_bids(ctx) if pool_key_of(b) == pool]
    assert sorted(b.price or 0 for b in listed) == [5_000, 5_000]
    assert PASSWORD not in out + err and words not in out + err

    child, master = run(data, common)
    type_password(child, master)
    assert child.stderr is not None
    for line in child.stderr:  # running: steady ticks, nothing to place
        if line.startswith("{") and json.loads(line)["event"] == "tick":
            break
    second, second_master = run(data, common)  # one engine per profile
    type_password(second, second_master)
    _, refused = second.communicate(timeout=120)
    os.close(second_master)
    assert second.returncode == 2 and "already running" in refused
    child.send_signal(signal.SIGTERM)
    rest = child.stderr.read()
    assert child.wait(timeout=60) == 0
    os.close(master)
    assert [e["event"] for e in events(rest)][-2:] == ["stopping", "stopped"]
