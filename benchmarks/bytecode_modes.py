"""The two ways the start-up benchmarks run an app's Python: with its bytecode cached, as an
installed app runs (the headline figure), and with its own sources compiled at every start, as
apps run from their source trees on this machine (PYTHONDONTWRITEBYTECODE=1 here; each process
then compiles the app's modules again, ~0.1 s apiece). Libraries keep their installed cache in
both. Shared by bench_ui_ready.py and bench_ui_vs_electrum.py.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

INSTALLED = "bytecode cached, as installed"
FROM_SOURCE = "sources compiled at each start"


def bytecode_modes(root: Path) -> dict[str, dict[str, str | None]]:
    """The environment changes of each mode (None: unset), installed first. The cache of the
    installed mode is a folder of this run's own under `root`, filled by the warm-up starts."""
    return {
        INSTALLED: {
            "PYTHONPYCACHEPREFIX": str(root / "pycache"),
            "PYTHONDONTWRITEBYTECODE": None,
        },
        FROM_SOURCE: {
            "PYTHONPYCACHEPREFIX": None,
            "PYTHONDONTWRITEBYTECODE": "1",
        },
    }


@contextmanager
def bytecode_mode(changes: dict[str, str | None]) -> Iterator[None]:
    """os.environ with `changes` applied (the child processes inherit it), restored after."""
    saved = dict(os.environ)
    try:
        for name, value in changes.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())
