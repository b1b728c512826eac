"""The sandbox child process: ready line, stderr on failure, timeout, and never outliving the
app (PR_SET_PDEATHSIG when the app is SIGKILLed, atexit on a normal exit)."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from app.services.sandbox_process import SandboxStartError, sandbox_command, start_sandbox

REPO = Path(__file__).resolve().parents[2]
# A stand-in child that announces itself and then waits for a signal forever.
IDLE_CHILD = [
    sys.executable,
    "-c",
    "import signal; print('ready http://127.0.0.1:9', flush=True); signal.pause()",
]
# The "app": starts a child through start_sandbox, prints its pid, then waits or returns.
PARENT = """
import asyncio, json, sys
from pathlib import Path
from app.services.sandbox_process import start_sandbox

async def main():
    mode, data, command = sys.argv[1], Path(sys.argv[2]), json.loads(sys.argv[3])
    child = await start_sandbox(data, command=command or None)
    print(child.pid, flush=True)
    if mode == "wait":
        await asyncio.Event().wait()

asyncio.run(main())
"""


def wait_exit(pid: int, timeout_s: float = 30.0) -> bool:
    """True once process `pid` has exited (pidfd: no polling, no sleep)."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return bool(select.select([fd], [], [], timeout_s)[0])
    finally:
        os.close(fd)


def run_parent(
    mode: str, data_dir: Path, command: list[str] | None
) -> tuple[subprocess.Popen[str], int]:
    import json

    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, mode, str(data_dir), json.dumps(command or [])],
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    assert parent.stdout is not None
    line = parent.stdout.readline()
    assert line.strip().isdigit(), f"the parent printed {line!r}"
    return parent, int(line)


async def test_starts_the_real_sandbox_and_stops_it_cleanly(tmp_path: Path) -> None:
    sandbox = await start_sandbox(tmp_path / "sandbox")
    try:
        assert sandbox.url.startswith("http://127.0.0.1:")
        async with httpx.AsyncClient(base_url=sandbox.url, timeout=30) as http:
            info = (await http.get("/sandbox/info")).json()
        assert info["network"] == "regtest"
    finally:
        code = await sandbox.stop()
    assert code == 0 and not sandbox.running
    assert sandbox_command(tmp_path)[1:4] == ["-m", "app", "sandbox"]


async def test_an_exit_before_ready_quotes_this_runs_stderr(tmp_path: Path) -> None:
    (tmp_path / "sandbox.log").write_text("old line from an earlier run\n")
    command = [
        sys.executable,
        "-c",
        "import sys; print('port taken', file=sys.stderr); sys.exit(4)",
    ]
    with pytest.raises(SandboxStartError) as error:
        await start_sandbox(tmp_path / "data", command=command)
    message = str(error.value)
    assert "exited with code 4 before it was ready" in message
    assert "port taken" in message and "old line" not in message


async def test_no_ready_line_in_time_kills_the_child(tmp_path: Path) -> None:
    command = [
        sys.executable,
        "-c",
        "import os, signal, sys; print(os.getpid(), file=sys.stderr, flush=True); signal.pause()",
    ]
    with pytest.raises(SandboxStartError, match="did not start within 1 s") as error:
        await start_sandbox(tmp_path / "data", command=command, ready_timeout_s=1.0)
    child_pid = int(str(error.value).strip().splitlines()[-1])
    assert wait_exit(child_pid, timeout_s=0)


@pytest.mark.parametrize("child", ["stand-in", "real sandbox"])
def test_the_child_dies_when_the_app_is_sigkilled(tmp_path: Path, child: str) -> None:
    parent, child_pid = run_parent(
        "wait", tmp_path / "data", IDLE_CHILD if child == "stand-in" else None
    )
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait(timeout=30)
    assert wait_exit(child_pid), "the sandbox outlived its SIGKILLed parent"


def test_a_normal_exit_stops_the_child_through_atexit(tmp_path: Path) -> None:
    parent, child_pid = run_parent("return", tmp_path / "data", IDLE_CHILD)
    assert parent.wait(timeout=60) == 0
    assert wait_exit(child_pid, timeout_s=0), "atexit did not stop the child"


def test_sandbox_command_runs_the_module_from_a_source_install(tmp_path: Path) -> None:
    assert sandbox_command(tmp_path, python="/py") == [
        "/py", "-m", "app", "sandbox", "serve", "--port", "0", "--data", str(tmp_path)
    ]  # fmt: skip


def test_sandbox_command_in_a_frozen_bundle_calls_the_bundle_itself(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # In a PyInstaller bundle sys.executable is `bidwallet`, which has no `-m`.
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert sandbox_command(tmp_path) == [
        sys.executable, "sandbox", "serve", "--port", "0", "--data", str(tmp_path)
    ]  # fmt: skip
