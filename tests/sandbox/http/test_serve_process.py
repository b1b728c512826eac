"""The real `bidwallet sandbox serve` process: ready line, clean stops, temp dir, resuming."""

from __future__ import annotations

import signal
from pathlib import Path

import httpx
import pytest

from tests.sandbox.conftest import SandboxProcessFactory
from tests.sandbox.sandbox_process import SandboxProcess, SandboxProcessError
from tests.sandbox.txbuild import P2wpkhKey

TEMP_PREFIX = "bidwallet-sandbox-"


def sandbox_temp_dirs(tmp_root: Path) -> list[Path]:
    return sorted(tmp_root.glob(f"{TEMP_PREFIX}*"))


def test_serve_without_data_uses_a_temp_dir_removed_at_sigterm(
    sandbox_process_factory: SandboxProcessFactory, tmp_path: Path
) -> None:
    tmp_root = tmp_path / "tmp"
    tmp_root.mkdir()
    process = sandbox_process_factory(env={"TMPDIR": str(tmp_root)})

    assert process.url.startswith("http://127.0.0.1:")
    assert process.stdout_lines == [f"ready {process.url}"]
    info = httpx.get(f"{process.url}/sandbox/info", timeout=30)
    assert info.status_code == 200
    assert info.json()["network"] == "regtest"
    [data_dir] = sandbox_temp_dirs(tmp_root)
    assert any(data_dir.iterdir())

    assert process.terminate(signal.SIGTERM) == 0
    assert sandbox_temp_dirs(tmp_root) == []
    assert process.remaining_stdout() == []  # exactly one line on stdout


def test_restart_on_the_same_data_resumes(
    sandbox_process_factory: SandboxProcessFactory, tmp_path: Path
) -> None:
    data_dir = tmp_path / "data"
    first = sandbox_process_factory(data_dir=data_dir)
    with httpx.Client(base_url=first.url, timeout=30) as client:
        height = client.post("/sandbox/mine", json={"blocks": 3}).json()["height"]
        tip_hash = client.get("/esplora/blocks/tip/hash").text
        address = P2wpkhKey.from_label("resume").address
        faucet = client.post("/sandbox/faucet", json={"address": address, "sats": 12_345}).json()
    assert first.terminate(signal.SIGINT) == 0

    second = sandbox_process_factory(data_dir=data_dir)
    with httpx.Client(base_url=second.url, timeout=30) as client:
        assert int(client.get("/esplora/blocks/tip/height").text) == height
        assert client.get("/esplora/blocks/tip/hash").text == tip_hash
        assert client.get(f"/esplora/tx/{faucet['txid']}/status").json() == {"confirmed": False}
        assert client.get(f"/esplora/address/{address}/utxo").json()[0]["value"] == 12_345
    assert second.terminate() == 0


def test_serve_with_defaults_uses_a_loopback_port_and_a_temporary_data_dir(
    sandbox_process_factory: SandboxProcessFactory, tmp_path: Path
) -> None:
    tmp_root = tmp_path / "tmp"
    tmp_root.mkdir()
    process = sandbox_process_factory(argv=["sandbox", "serve"], env={"TMPDIR": str(tmp_root)})
    assert process.url.startswith("http://127.0.0.1:")
    assert httpx.get(f"{process.url}/esplora/blocks/tip/height", timeout=30).status_code == 200
    assert process.terminate(signal.SIGINT) == 0
    assert sandbox_temp_dirs(tmp_root) == []


def test_a_second_server_on_the_same_data_is_refused(
    sandbox_process_factory: SandboxProcessFactory, tmp_path: Path
) -> None:
    data_dir = tmp_path / "data"
    first = sandbox_process_factory(data_dir=data_dir)
    with pytest.raises(SandboxProcessError) as refused:
        sandbox_process_factory(data_dir=data_dir)
    assert "exited with 2 before ready" in str(refused.value)
    assert "cannot open the sandbox data" in str(refused.value)
    assert httpx.get(f"{first.url}/sandbox/info", timeout=30).status_code == 200
    assert first.terminate() == 0


def test_sandbox_server_fixture_is_ready_to_use(sandbox_server: SandboxProcess) -> None:
    response = httpx.get(f"{sandbox_server.url}/esplora/blocks/tip/height", timeout=30)
    assert response.status_code == 200
    assert int(response.text) >= 150  # a fresh sandbox starts with a matured chain
