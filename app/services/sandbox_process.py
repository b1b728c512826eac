"""The embedded sandbox as a child process of the app.

`start_sandbox` runs `python -m app sandbox serve --port 0 --data DIR`, reads its stdout until
`ready http://HOST:PORT` (with a deadline) and returns a `SandboxProcess`. Its two halves,
`launch_sandbox` (spawn, return at once) and `SandboxLaunch.ready()`, let the app start the
child first and build its window and open its key while the child starts. Its stderr goes to
`sandbox.log` next to the data directory, whose tail is quoted when the start fails.

The child must not outlive the app, however the app ends:
- a normal exit stops it (`stop()`, and an `atexit` hook for every child still running);
- a crash or SIGKILL of the app: on Linux the child is started with PR_SET_PDEATHSIG=SIGTERM
  (set in `preexec_fn`, which runs in the child between fork and exec), so the kernel sends it
  SIGTERM when the app dies and the sandbox shuts down cleanly. PDEATHSIG follows the thread
  that forked, so `start_sandbox` must run on the app's main (event loop) thread. On other
  systems only the atexit hook applies.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import os
import select
import signal
from pathlib import Path
from typing import Final, Protocol

from app.services.sandbox_command import (
    READY_TIMEOUT_S,
    child_env,
    die_with_parent,
    sandbox_command,
)
from app.services.sandbox_command import (
    default_chain_cache_dir as default_chain_cache_dir,  # the app's callers read it here
)

log = logging.getLogger(__name__)

READY_PREFIX: Final = "ready "
STOP_TIMEOUT_S: Final = 15.0
_STDERR_TAIL_CHARS: Final = 2000


class ChildProcess(Protocol):
    """What this module uses of a child: asyncio's Process, or a Popen adopted by the loop."""

    @property
    def pid(self) -> int: ...
    @property
    def returncode(self) -> int | None: ...
    @property
    def stdout(self) -> asyncio.StreamReader | None: ...
    def terminate(self) -> None: ...
    def kill(self) -> None: ...
    async def wait(self) -> int: ...


class SandboxStartError(Exception):
    """The sandbox process did not become ready; the message ends with its stderr tail."""


class SandboxProcess:
    """A running sandbox: its base URL, pid and data directory."""

    def __init__(self, proc: ChildProcess, url: str, data_dir: Path, log_path: Path) -> None:
        self._proc = proc
        self.url = url
        self.data_dir = data_dir
        self.log_path = log_path
        self._drain: asyncio.Task[None] | None = None
        _RUNNING.add(self)

    @property
    def pid(self) -> int:
        return self._proc.pid

    @property
    def running(self) -> bool:
        return self._proc.returncode is None

    def _start_draining(self) -> None:
        # Keep reading stdout after the ready line so the child never blocks on a full pipe.
        stream = self._proc.stdout
        if stream is not None:
            self._drain = asyncio.ensure_future(_drain(stream))

    async def stop(self, timeout_s: float = STOP_TIMEOUT_S) -> int:
        """SIGTERM, wait for a clean exit, SIGKILL after `timeout_s`. Returns the exit code."""
        _RUNNING.discard(self)
        if self._proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self._proc.terminate()
            try:
                await asyncio.wait_for(self._proc.wait(), timeout_s)
            except TimeoutError:
                log.warning(
                    "sandbox %d ignored SIGTERM for %.0f s: killing it", self.pid, timeout_s
                )
                with contextlib.suppress(ProcessLookupError):
                    self._proc.kill()
                await self._proc.wait()
        if self._drain is not None:
            await self._drain
        code = self._proc.returncode
        log.info("sandbox %d stopped (exit code %s)", self.pid, code)
        return -1 if code is None else code

    def stop_now(self, timeout_s: float = STOP_TIMEOUT_S) -> None:
        """Synchronous stop for exit paths where the event loop no longer runs (atexit)."""
        _RUNNING.discard(self)
        if self._proc.returncode is not None:
            return
        terminate_and_wait(self.pid, timeout_s)

    def __repr__(self) -> str:
        return f"SandboxProcess(pid={self.pid}, url={self.url!r})"


_RUNNING: set[SandboxProcess] = set()


def terminate_and_wait(pid: int, timeout_s: float) -> bool:
    """SIGTERM `pid` and wait (without reaping: the asyncio child watcher does that) until it
    exits; SIGKILL after `timeout_s`. True when it was still running."""
    try:
        fd = os.pidfd_open(pid)
    except (ProcessLookupError, AttributeError, OSError):
        fd = None
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return False
    if fd is None:
        return True
    try:
        readable, _, _ = select.select([fd], [], [], timeout_s)
        if not readable:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    finally:
        os.close(fd)
    return True


@atexit.register
def _stop_all_at_exit() -> None:
    for process in list(_RUNNING):
        process.stop_now()


async def _drain(stream: asyncio.StreamReader) -> None:
    while await stream.readline():
        pass


class SandboxLaunch:
    """A sandbox process started and not yet ready: `ready()` waits for its ready line (the
    caller does other work meanwhile: the child imports and opens its chain on its own)."""

    def __init__(
        self,
        proc: ChildProcess,
        data_dir: Path,
        log_path: Path,
        log_offset: int,
        deadline: float,
        timeout_s: float,
    ) -> None:
        self._proc = proc
        self.data_dir = data_dir
        self._log_path = log_path
        self._log_offset = log_offset  # quote only this run's stderr on failure
        self._deadline = deadline  # loop time: the timeout counts from the spawn
        self._timeout_s = timeout_s
        self._waited = False

    @property
    def pid(self) -> int:
        return self._proc.pid

    async def ready(self) -> SandboxProcess:
        """The running sandbox once it said `ready`. Raises SandboxStartError with the
        process's stderr tail on failure or timeout (the process is killed then). Once only."""
        if self._waited:
            raise RuntimeError("SandboxLaunch.ready() awaited twice")
        self._waited = True
        proc, log_path, offset = self._proc, self._log_path, self._log_offset
        timeout_s = self._deadline - asyncio.get_running_loop().time()
        try:
            url = await asyncio.wait_for(_read_ready_line(proc), max(timeout_s, 0.0))
        except TimeoutError:
            await _kill(proc)
            raise SandboxStartError(
                f"the sandbox did not start within {self._timeout_s:.0f} s"
                + _stderr_tail(log_path, offset)
            ) from None
        except SandboxStartError as exc:
            await _kill(proc)
            raise SandboxStartError(str(exc) + _stderr_tail(log_path, offset)) from None
        except BaseException:  # cancelled: never leave the child behind
            await _kill(proc)
            raise
        process = SandboxProcess(proc, url, self.data_dir, log_path)
        process._start_draining()
        log.info("sandbox %d ready at %s", proc.pid, url)
        return process

    async def abandon(self) -> None:
        """Kill a launch nobody will wait for (e.g. the profile changed before it was used)."""
        self._waited = True
        await _kill(self._proc)
        log.info("sandbox process %d abandoned before use", self._proc.pid)


async def launch_sandbox(
    data_dir: Path,
    *,
    ready_timeout_s: float = READY_TIMEOUT_S,
    command: list[str] | None = None,
    chain_cache: Path | None = None,
) -> SandboxLaunch:
    """Spawn the sandbox on `data_dir` (created if missing) and return at once; await
    `.ready()` for the running process. Must run on the app's main thread (see PDEATHSIG).
    `chain_cache`: where the sandbox keeps its prebuilt demo chain (none: built each time)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    log_path = data_dir.parent / "sandbox.log"
    args = command or sandbox_command(data_dir, chain_cache=chain_cache)
    deadline = asyncio.get_running_loop().time() + ready_timeout_s
    with log_path.open("ab") as stderr:
        offset = stderr.tell()
        proc = await asyncio.create_subprocess_exec(
            *args,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=stderr,
            preexec_fn=die_with_parent(),
            env=child_env(),
        )
    log.info("started sandbox process %d on %s", proc.pid, data_dir)
    return SandboxLaunch(proc, data_dir, log_path, offset, deadline, ready_timeout_s)


async def start_sandbox(
    data_dir: Path,
    *,
    ready_timeout_s: float = READY_TIMEOUT_S,
    command: list[str] | None = None,
    chain_cache: Path | None = None,
) -> SandboxProcess:
    """Start the sandbox on `data_dir` (created if missing) and wait for its ready line.
    Raises SandboxStartError with the process's stderr tail on failure or timeout."""
    launch = await launch_sandbox(
        data_dir, ready_timeout_s=ready_timeout_s, command=command, chain_cache=chain_cache
    )
    return await launch.ready()


async def _read_ready_line(proc: ChildProcess) -> str:
    assert proc.stdout is not None
    while True:
        raw = await proc.stdout.readline()
        if not raw:
            code = await proc.wait()
            raise SandboxStartError(f"the sandbox exited with code {code} before it was ready")
        line = raw.decode("utf-8", "replace").strip()
        if line.startswith(READY_PREFIX):
            return line[len(READY_PREFIX) :].strip()


async def _kill(proc: ChildProcess) -> None:
    if proc.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        await proc.wait()


def _stderr_tail(log_path: Path, offset: int) -> str:
    try:
        with log_path.open("rb") as handle:
            handle.seek(offset)
            text = handle.read().decode("utf-8", "replace")
    except OSError:
        return ""
    tail = text[-_STDERR_TAIL_CHARS:].strip()
    return f"\n--- sandbox stderr ({log_path}) ---\n{tail}" if tail else ""
