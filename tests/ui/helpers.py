"""Helpers of the GUI tests: running a coroutine on the session's qasync loop from a fixture,
an in-memory keychain, a clock tests move by hand. (Blocking the GUI thread: gui_thread.py.)"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from PySide6.QtCore import QEventLoop, QTimer

from tests.support.vaults import MemoryKeyring as MemoryKeyring  # the GUI tests' keychain

T = TypeVar("T")


@contextmanager
def running(loop: asyncio.AbstractEventLoop) -> Iterator[None]:
    previous = asyncio.events._get_running_loop()
    asyncio.events._set_running_loop(loop)
    try:
        yield
    finally:
        asyncio.events._set_running_loop(previous)


def run_async(
    loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, T], timeout_s: float = 120.0
) -> T:
    """Run `coro` on the qasync loop by spinning a Qt event loop until it is done."""
    with running(loop):
        task = loop.create_task(coro)
        spin = QEventLoop()
        task.add_done_callback(lambda _task: spin.quit())
        QTimer.singleShot(int(timeout_s * 1000), spin.quit)
        spin.exec()
        if not task.done():
            task.cancel()
            raise TimeoutError(f"{coro!r} did not finish within {timeout_s} s")
        return task.result()


class FakeClock:
    """A monotonic clock that only moves when a test says so."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
