"""How the sandbox child is spawned: its command line, environment, ready timeout, chain cache
and the Linux hook that ends it with the app. Kept free of asyncio (~30 ms to import): the app
spawns the child with these before anything else loads (sandbox_early.py), and every ms before
the spawn delays the sandbox, the longest part of a start; sandbox_process.py uses them too."""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Final

READY_TIMEOUT_S: Final = 90.0  # a first start mines the initial chain on a busy machine
_PR_SET_PDEATHSIG: Final = 1


def die_with_parent() -> Callable[[], None] | None:
    """A preexec_fn asking the kernel to SIGTERM the child when this process dies (Linux)."""
    if not sys.platform.startswith("linux"):
        return None
    # Resolve prctl now: between fork and exec the child should only make this one call.
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    parent = os.getpid()

    def preexec() -> None:
        prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
        if os.getppid() != parent:  # the app died before prctl took effect
            os._exit(1)

    return preexec


def default_chain_cache_dir() -> Path:
    """Where the app keeps the sandbox's prebuilt demo chain: the user's cache directory
    ($XDG_CACHE_HOME/bidwallet on Linux)."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("bidwallet")) / "sandbox-chain"


def sandbox_command(
    data_dir: Path, python: str = sys.executable, chain_cache: Path | None = None
) -> list[str]:
    serve = ["sandbox", "serve", "--port", "0", "--data", str(data_dir)]
    if chain_cache is not None:
        serve += ["--chain-cache", str(chain_cache)]
    if getattr(sys, "frozen", False):
        # A PyInstaller bundle: sys.executable is the bidwallet program itself, which has no -m.
        return [sys.executable, *serve]
    return [python, "-m", "app", *serve]


def child_env() -> dict[str, str]:
    return {**os.environ, "PYTHONUNBUFFERED": "1"}
