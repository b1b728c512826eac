"""One strategy engine per profile: an exclusive lock on `<profile dir>/strategies/engine.lock`
held while the engine runs (the window's or the headless command's). The operating system
drops it when the process ends, a SIGKILL included, so a crash never leaves it stuck; a second
engine is refused with a message naming the process that holds it."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import IO, Final

from app.services.errors import ServiceError

LOCK_FILE: Final = Path("strategies") / "engine.lock"


class EngineAlreadyRunningError(ServiceError):
    """Another strategy engine holds this profile's lock."""


class EngineLock:
    """`with EngineLock(profile_dir):` or `acquire()` / `release()`."""

    def __init__(self, profile_dir: Path) -> None:
        self.path = profile_dir / LOCK_FILE
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        handle = os.fdopen(fd, "r+", encoding="utf-8")
        if not _try_lock(handle):
            holder = handle.read().strip() or "unknown"
            handle.close()
            raise EngineAlreadyRunningError(
                f"A strategy engine is already running for this profile (process {holder}, "
                f"lock {self.path}). Stop it first: one engine per profile, so two never bid "
                "for the same wallet."
            )
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        self._file = handle

    def release(self) -> None:
        if self._file is not None:
            self._file.close()  # closing the file drops the lock
            self._file = None

    def __enter__(self) -> EngineLock:
        self.acquire()
        return self

    def __exit__(self, *_: object) -> None:
        self.release()


def _try_lock(handle: IO[str]) -> bool:
    if sys.platform == "win32":
        import msvcrt

        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True
