"""Work that would block the GUI thread, caught deterministically.

A wall-clock limit on event-loop gaps fails on a busy machine (a clean-clone CI run failed on
253 ms against 250). Instead, while a scenario watches, a call on the GUI thread to any known
blocking function (app/services/blocking_calls.py: signing a PSBT input, the vault's Argon2id,
an fsync, a sleep, a synchronous HTTP request, a subprocess) is recorded with where it came
from, and `assert_not_blocked` fails on it.

The longest gap between ticks of a 10 ms timer is still kept as a figure (`max_gap_ms`), never
asserted: `./dev bench ui_signing_stall` prints stall figures.
"""

from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from PySide6.QtCore import QObject, QTimer

from app.services.blocking_calls import blocking_calls

TICK_MS = 10


class GuiThreadWatch(QObject):
    """Started by a scenario once its own set-up is done; `paused()` for test-side work."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        super().__init__()
        self.blocked: list[str] = []
        self.max_gap_ms = 0.0
        self.ticks = 0
        self._watching = False
        self._last: float | None = None
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)
        for owner, name, what in blocking_calls():
            monkeypatch.setattr(owner, name, self._wrap(getattr(owner, name), what))

    def _wrap(self, real: Callable[..., Any], what: str) -> Callable[..., Any]:
        def watched(*args: Any, **kwargs: Any) -> Any:
            if self._watching and threading.current_thread() is threading.main_thread():
                caller = "".join(traceback.format_stack(limit=8)[:-1])
                self.blocked.append(f"{what} on the GUI thread:\n{caller}")
            return real(*args, **kwargs)

        return watched

    def start(self) -> None:
        self._watching = True
        self._last = time.perf_counter()
        self._timer.start()

    def stop(self) -> None:
        self._watching = False
        self._timer.stop()
        self._last = None

    def _tick(self) -> None:
        now = time.perf_counter()
        if self._last is not None:
            self.max_gap_ms = max(self.max_gap_ms, (now - self._last) * 1000)
        self._last = now
        self.ticks += 1

    @contextmanager
    def paused(self) -> Iterator[None]:
        """For test-side work (checking results over HTTP, on disk): not the app's."""
        self.stop()
        try:
            yield
        finally:
            self.start()

    def assert_not_blocked(self) -> None:
        assert self.ticks > 0, "the GUI watch never ticked: was the event loop driven?"
        assert not self.blocked, "\n\n".join(self.blocked[:3])
