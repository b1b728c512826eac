"""Start-up probes for the benchmarks (benchmarks/bench_ui_start.py, bench_ui_ready.py).

With BIDWALLET_STARTUP_PROBE set, the app prints CLOCK_MONOTONIC (shared by every process on
Linux) at the moments a user would notice, then closes:
- any value: `window-shown T rss-kb N` once the window is shown and its first events ran;
- `ready`: the window stays open and the probe also prints `sandbox-ready T` when a sandbox
  child answers (sandbox profiles), `connected T` when the profile's clients are open (the
  status bar's "Connected"), then `ready T funded=0|1` when the Wallet tab shows balances
  loaded over that connection with the wallet unlocked (funded=1: the profile holds a funded
  demo key), and closes then; or `start-failed T` and closes when the start ended without a
  connection (the benchmark then says so instead of waiting).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer

from app.ui.state.wallet_state import WalletState

if TYPE_CHECKING:
    from app.services.open_bids import OpenBidsView
    from app.ui.main_window import MainWindow

STARTUP_PROBE_ENV = "BIDWALLET_STARTUP_PROBE"
READY_MODE = "ready"


def install_startup_probe(window: MainWindow) -> None:
    """Install the probe the environment asks for (none without BIDWALLET_STARTUP_PROBE)."""
    mode = os.environ.get(STARTUP_PROBE_ENV)
    if not mode:
        return
    if mode == READY_MODE:
        _ReadyProbe(window)
        QTimer.singleShot(0, lambda: _report_shown(window, close=False))
    else:
        QTimer.singleShot(0, lambda: _report_shown(window, close=True))


def _rss_kb() -> int:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _report_shown(window: MainWindow, *, close: bool) -> None:
    shown = time.monotonic()
    print(f"window-shown {shown:.6f} rss-kb {_rss_kb()}", flush=True)
    if close:
        window.close()


class _ReadyProbe(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)  # the window keeps it (and its connections) alive
        self._window = window
        self._context = window.context
        self._connected = False
        self._sandbox_seen = False
        self._done = False
        self._context.connection_changed.connect(self._connection_changed)
        # Connected after the Wallet tab's own slot (built with the window): the balances are
        # on screen when this runs.
        WalletState.of(self._context).updated.connect(self._updated)
        window.controller.ready.connect(self._start_ended)

    def _start_ended(self) -> None:
        if not self._done and self._context.connection is None:
            self._done = True
            print(f"start-failed {time.monotonic():.6f}", flush=True)
            self._window.close()

    def _connection_changed(self) -> None:
        if not self._sandbox_seen and self._context.sandbox is not None:
            self._sandbox_seen = True
            print(f"sandbox-ready {time.monotonic():.6f}", flush=True)
        if not self._connected and self._context.connection is not None:
            self._connected = True
            print(f"connected {time.monotonic():.6f}", flush=True)

    def _updated(self, view: OpenBidsView) -> None:
        context = self._context
        profile = context.profile
        if self._done or context.connection is None or profile is None:
            return
        if profile.key_name is None or not context.wallet_lock.unlocked:
            return
        self._done = True
        funded = int(profile.sandbox_only)
        print(f"ready {time.monotonic():.6f} funded={funded}", flush=True)
        self._window.close()
