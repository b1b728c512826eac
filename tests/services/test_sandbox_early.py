"""The sandbox child spawned before the app's event loop (app/services/sandbox_early.py): which
profile's sandbox a start spawns from the saved settings, and a spawned child adopted by the
loop answers, uses the chain cache and stops cleanly."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from app.services.profiles import AppProfile, AppSettings, ProfileStore, ServiceKind
from app.services.sandbox_early import SpawnedSandbox, spawn_for_start
from app.services.sandbox_process import default_chain_cache_dir


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BIDWALLET_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "data"


def _save(data_dir: Path, *profiles: AppProfile, active: str | None = None) -> ProfileStore:
    store = ProfileStore(data_dir)
    settings = AppSettings()
    for profile in profiles:
        settings = settings.with_profile(profile)
    store.save(settings if active is None else settings.with_active(active))
    return store


def _spawned_dir(spawned: SpawnedSandbox | None) -> Path | None:
    if spawned is None:
        return None
    spawned.kill()
    return spawned.data_dir


CUSTOM = AppProfile(
    name="Sandbox",
    kind=ServiceKind.CUSTOM,
    network="regtest",
    marketplace_url="http://127.0.0.1:9/v1",
    esplora_url="http://127.0.0.1:9/esplora",
    ord_url="http://127.0.0.1:9/ord",
)


def test_which_sandbox_a_start_spawns(data_dir: Path) -> None:
    store = ProfileStore(data_dir)
    new = store.profile_dir(AppProfile.sandbox("Sandbox")) / "sandbox"
    # No settings yet: --sandbox makes the "Sandbox" profile; a plain start asks first.
    assert _spawned_dir(spawn_for_start(sandbox=True)) == new
    assert spawn_for_start(sandbox=False) is None
    # "Sandbox" taken by another kind: the controller picks another name, not guessed here.
    _save(data_dir, CUSTOM, active="Sandbox")
    assert spawn_for_start(sandbox=True) is None
    assert spawn_for_start(sandbox=False) is None  # the active profile is no sandbox
    mine = AppProfile.sandbox("Mine")
    store = _save(data_dir, CUSTOM, mine, active="Mine")
    expected = store.profile_dir(mine) / "sandbox"
    assert _spawned_dir(spawn_for_start(sandbox=True)) == expected
    assert _spawned_dir(spawn_for_start(sandbox=False)) == expected


def test_a_damaged_settings_file_spawns_nothing(data_dir: Path) -> None:
    data_dir.mkdir(parents=True)
    (data_dir / "profiles.json").write_text("{not json")
    assert spawn_for_start(sandbox=True) is None


@pytest.mark.asyncio(loop_scope="session")
async def test_a_spawned_child_is_adopted_answers_and_stops(data_dir: Path) -> None:
    spawned = spawn_for_start(sandbox=True)
    assert spawned is not None
    sandbox = await (await spawned.adopt()).ready()
    try:
        assert sandbox.pid == spawned.pid and sandbox.running
        async with httpx.AsyncClient(base_url=sandbox.url, timeout=30) as http:
            info = (await http.get("/sandbox/info")).json()
        assert info["network"] == "regtest"
        # A first start caches its chain where the app keeps it.
        assert list(default_chain_cache_dir().glob("demo-chain-*.sqlite3")) != []
    finally:
        code = await sandbox.stop()
    assert code == 0 and not sandbox.running


def test_the_spawn_loads_no_event_loop_machinery() -> None:
    # The child is spawned before anything else loads: what the spawn imports delays the
    # sandbox, so asyncio (and sandbox_process, which needs it) waits until adopt().
    probe = (
        "import sys, app.services.sandbox_early; "
        "print(sorted({'asyncio', 'app.services.sandbox_process'} & set(sys.modules)))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "[]"
