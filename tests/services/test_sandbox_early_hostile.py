"""The early sandbox spawn against a crafted settings file (security review of 3d2b829): what
it runs, where, with which environment. It reads only profiles.json; the child's command line
names only its data directory (always under the data dir, whatever the profile's name) and the
chain cache; no key, password or API key is on it or in its environment; a profile that is not
a sandbox (mainnet) never spawns one."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from app.services import sandbox_early
from app.services.profiles import AppProfile, AppSettings, ProfileStore

SATFLOW = AppProfile.satflow("Satflow")


class _Spawned:
    pid = 1

    def poll(self) -> int:
        return 0


@pytest.fixture
def spawns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    monkeypatch.setenv("BIDWALLET_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    made: list[dict[str, Any]] = []

    def popen(args: list[str], **kwargs: Any) -> _Spawned:
        made.append({"args": args, **kwargs})
        return _Spawned()

    monkeypatch.setattr(subprocess, "Popen", popen)
    return made


def _save(tmp_path: Path, *profiles: AppProfile, active: str) -> None:
    settings = AppSettings()
    for profile in profiles:
        settings = settings.with_profile(profile)
    ProfileStore(tmp_path / "data").save(settings.with_active(active))


def test_a_mainnet_profile_never_spawns_a_sandbox(
    tmp_path: Path, spawns: list[dict[str, Any]]
) -> None:
    _save(tmp_path, SATFLOW, active="Satflow")
    assert sandbox_early.spawn_for_start(sandbox=False) is None
    assert spawns == []


def test_a_crafted_name_spawns_under_the_data_dir_with_no_secret(
    tmp_path: Path, spawns: list[dict[str, Any]]
) -> None:
    hostile = AppProfile.sandbox("../../.. --api-key stolen -m os")
    _save(tmp_path, SATFLOW, hostile, active=hostile.name)
    assert sandbox_early.spawn_for_start(sandbox=False) is not None
    (made,) = spawns
    data = ProfileStore(tmp_path / "data").profile_dir(hostile) / "sandbox"
    assert data.parent.parent == tmp_path / "data" / "profiles"  # one safe directory name
    cache = tmp_path / "cache" / "bidwallet" / "sandbox-chain"
    assert made["args"] == [
        *made["args"][:1],
        "-m",
        "app",
        "sandbox",
        "serve",
        "--port",
        "0",
        "--data",
        str(data),
        "--chain-cache",
        str(cache),
    ]
    assert made["env"] == {**os.environ, "PYTHONUNBUFFERED": "1"}  # the app adds nothing
    assert made["stdin"] is subprocess.DEVNULL
