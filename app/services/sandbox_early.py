"""The sandbox child spawned at the very start of the app, before Qt and the event loop load:
its imports and chain then take their time while the window is built (each is most of the
start). `spawn_for_start` guesses the sandbox the start will open from the saved settings (the
controller checks the guess: a child for another directory is stopped); `adopt` hands the child
to the event loop as a `SandboxLaunch` (sandbox_process.py: the ready line, the deadline, the
stderr tail, never outliving the app).
"""

from __future__ import annotations

import logging
import os
import subprocess
import time
from pathlib import Path
from typing import TYPE_CHECKING

from app.services.profiles import AppProfile, ProfileFileError, ProfileStore, ServiceKind
from app.services.profiles import default_data_dir as app_data_dir
from app.services.sandbox_command import (
    READY_TIMEOUT_S,
    child_env,
    default_chain_cache_dir,
    die_with_parent,
    sandbox_command,
)

# asyncio and sandbox_process (which imports it, ~30 ms) load after the spawn: they are needed
# only once the event loop runs (adopt), and the spawn comes first.
if TYPE_CHECKING:
    import asyncio

    from app.services.sandbox_process import SandboxLaunch

log = logging.getLogger(__name__)

NEW_SANDBOX_PROFILE = "Sandbox"  # the name the controller gives the first one


def spawn_for_start(*, sandbox: bool) -> SpawnedSandbox | None:
    """Spawn the sandbox child this start will need, when the saved settings tell: with
    --sandbox, the first sandbox profile (or the one to be made, while the name is free);
    else the active profile when it is a sandbox. None: nothing to spawn, or not known yet."""
    store = ProfileStore(app_data_dir())
    try:
        settings = store.load()
    except (ProfileFileError, OSError):  # the window says what is wrong with the file
        return None
    if sandbox:
        profile = settings.first_of_kind(ServiceKind.SANDBOX)
        if profile is None and settings.get(NEW_SANDBOX_PROFILE) is None:
            profile = AppProfile.sandbox(NEW_SANDBOX_PROFILE)
    else:
        profile = settings.active_profile
    if profile is None or profile.kind is not ServiceKind.SANDBOX:
        return None
    try:
        return spawn_sandbox(
            store.profile_dir(profile) / "sandbox", chain_cache=default_chain_cache_dir()
        )
    except OSError as exc:  # the start tries again on the loop and says what fails
        log.warning("could not spawn the sandbox early: %s", exc)
        return None


class SpawnedSandbox:
    """A sandbox child spawned before the app's event loop runs (`spawn_sandbox`, at the very
    start of the app): `adopt()`, on the loop, makes it a SandboxLaunch."""

    def __init__(
        self,
        popen: subprocess.Popen[bytes],
        data_dir: Path,
        log_path: Path,
        log_offset: int,
        timeout_s: float,
    ) -> None:
        self._popen = popen
        self.data_dir = data_dir
        self._log_path = log_path
        self._log_offset = log_offset
        self._timeout_s = timeout_s
        self._spawned_at = time.monotonic()

    @property
    def pid(self) -> int:
        return self._popen.pid

    async def adopt(self) -> SandboxLaunch:
        """Its SandboxLaunch, reading the child's stdout on the running loop; the ready timeout
        still counts from the spawn."""
        import asyncio

        from app.services.sandbox_process import SandboxLaunch

        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), self._popen.stdout
        )
        left = self._timeout_s - (time.monotonic() - self._spawned_at)
        return SandboxLaunch(
            _PopenChild(self._popen, reader),
            self.data_dir,
            self._log_path,
            self._log_offset,
            loop.time() + left,
            self._timeout_s,
        )

    def kill(self) -> None:
        """For a start that never adopted it (the app failed before its loop ran)."""
        if self._popen.poll() is None:
            self._popen.kill()
            self._popen.wait()


def spawn_sandbox(
    data_dir: Path,
    *,
    ready_timeout_s: float = READY_TIMEOUT_S,
    chain_cache: Path | None = None,
) -> SpawnedSandbox:
    """`launch_sandbox` without an event loop: the app calls it before it loads Qt, so the
    child's start overlaps the window's. Must run on the app's main thread (PDEATHSIG)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    log_path = data_dir.parent / "sandbox.log"
    with log_path.open("ab") as stderr:
        offset = stderr.tell()
        popen = subprocess.Popen(
            sandbox_command(data_dir, chain_cache=chain_cache),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=stderr,
            preexec_fn=die_with_parent(),
            env=child_env(),
        )
    log.info("started sandbox process %d on %s (before the window)", popen.pid, data_dir)
    return SpawnedSandbox(popen, data_dir, log_path, offset, ready_timeout_s)


class _PopenChild:
    """A Popen through the calls asyncio's Process answers (ChildProcess). Its exit is seen
    through a pidfd on the loop (no thread, no polling) and reaped by Popen itself."""

    def __init__(self, popen: subprocess.Popen[bytes], stdout: asyncio.StreamReader) -> None:
        self._popen = popen
        self.stdout: asyncio.StreamReader | None = stdout

    @property
    def pid(self) -> int:
        return self._popen.pid

    @property
    def returncode(self) -> int | None:
        return self._popen.poll()

    def terminate(self) -> None:
        self._popen.terminate()

    def kill(self) -> None:
        self._popen.kill()

    async def wait(self) -> int:
        import asyncio

        code = self._popen.poll()
        if code is not None:
            return code
        loop = asyncio.get_running_loop()
        try:
            fd = os.pidfd_open(self._popen.pid)
        except (AttributeError, OSError):  # no pidfd: a thread waits instead
            return await loop.run_in_executor(None, self._popen.wait)
        exited: asyncio.Future[None] = loop.create_future()
        loop.add_reader(fd, _settle, exited)
        try:
            await exited
        finally:
            loop.remove_reader(fd)
            os.close(fd)
        return self._popen.wait()


def _settle(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
