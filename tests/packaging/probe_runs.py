"""Run tests/packaging/runtime_probe.py in its three modes, isolated from the user's files and
keychain, and return what each run loaded."""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from tests.packaging.manifest_file import ROOT

PROBE = Path(__file__).with_name("runtime_probe.py")
RUN_TIMEOUT_S = 180.0
# Routes that make the sandbox import its lazily loaded parts (OpenAPI schema generation).
SANDBOX_PATHS = ("/esplora/blocks/tip/height", "/openapi.json")


class ProbeError(AssertionError):
    """A probe run failed: its output says why."""


@dataclass(frozen=True)
class ProbeRecord:
    mode: str
    modules: dict[str, str | None]  # name -> file (None: no file, e.g. a failed import)
    opened: list[str]
    libraries: list[str]
    metadata_names: list[str]
    entry_point_groups: list[str]


def isolated_env(home: Path) -> dict[str, str]:
    """Environment for a probe: a temp HOME and data dir, no display, and no D-Bus session, so
    keyring cannot reach the developer's real keychain."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS")
    }
    runtime = home / "run"
    runtime.mkdir(parents=True, exist_ok=True, mode=0o700)
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_DATA_HOME=str(home / "data"),
        XDG_CACHE_HOME=str(home / "cache"),
        XDG_RUNTIME_DIR=str(runtime),
        BIDWALLET_DATA_DIR=str(home / "bidwallet"),
        BIDWALLET_STARTUP_PROBE="1",
        QT_QPA_PLATFORM="offscreen",
        PYTHONPATH=str(ROOT),
    )
    return env


def _read_record(path: Path, mode: str) -> ProbeRecord:
    data = json.loads(path.read_text())
    return ProbeRecord(
        mode=mode,
        modules=data["modules"],
        opened=data["opened"],
        libraries=data["libraries"],
        metadata_names=data["metadata_names"],
        entry_point_groups=data["entry_point_groups"],
    )


def _start(mode: str, out: Path, env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    # stderr to a file: the sandbox logs there and must never block on a full pipe.
    with out.with_suffix(".stderr").open("w") as stderr:
        return subprocess.Popen(
            [sys.executable, str(PROBE), str(out), mode, *args],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
        )


def _finish(proc: subprocess.Popen[str], mode: str, out: Path) -> ProbeRecord:
    try:
        stdout, _ = proc.communicate(timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        stdout, _ = proc.communicate()
    stderr = out.with_suffix(".stderr").read_text()[-3000:]
    if proc.returncode != 0 or not out.exists():
        raise ProbeError(f"probe {mode} exited {proc.returncode}\n{stdout}\n{stderr}")
    return _read_record(out, mode)


def read_ready_url(proc: subprocess.Popen[str], timeout_s: float) -> str:
    """The URL of the sandbox's `ready http://...` line; raises ProbeError past the deadline."""
    assert proc.stdout is not None
    deadline = time.monotonic() + timeout_s
    with selectors.DefaultSelector() as selector:
        selector.register(proc.stdout, selectors.EVENT_READ)
        while (left := deadline - time.monotonic()) > 0:
            if not selector.select(left):
                break
            line = proc.stdout.readline()
            if not line:
                raise ProbeError(f"sandbox exited ({proc.wait()}) before its ready line")
            if line.startswith("ready "):
                return line.split(maxsplit=1)[1].strip()
    raise ProbeError(f"no ready line from the sandbox within {timeout_s:.0f} s")


def run_all(tmp: Path) -> list[ProbeRecord]:
    """The gui, wallet and sandbox-serve runs (the first two run while the sandbox starts)."""
    outs = {mode: tmp / f"{mode}.json" for mode in ("gui", "wallet", "sandbox-serve")}
    sandbox = _start(
        "sandbox-serve",
        outs["sandbox-serve"],
        isolated_env(tmp / "home-sandbox"),
        "--port",
        "0",
        "--data",
        str(tmp / "sandbox-data"),
    )
    try:
        gui = _start("gui", outs["gui"], isolated_env(tmp / "home-gui"))
        wallet = _start(
            "wallet", outs["wallet"], isolated_env(tmp / "home-wallet"), str(tmp / "vault")
        )
        records = [_finish(gui, "gui", outs["gui"]), _finish(wallet, "wallet", outs["wallet"])]
        url = read_ready_url(sandbox, RUN_TIMEOUT_S)
        for path in SANDBOX_PATHS:
            with urllib.request.urlopen(url + path, timeout=30) as response:
                assert response.status == 200, path
        sandbox.send_signal(signal.SIGTERM)
        records.append(_finish(sandbox, "sandbox-serve", outs["sandbox-serve"]))
    finally:
        if sandbox.poll() is None:
            sandbox.kill()
            sandbox.communicate()
    return records
