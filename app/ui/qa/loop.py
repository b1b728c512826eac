"""The one qasync loop of a test session: made once (`session_loop`; a loop per test fails,
notes/qt-wallet-anchors.md section 4), set as the running loop around each GUI test
(`running`), and driven from synchronous test code (`run_async`); a clock tests move by hand."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Coroutine, Iterator
from concurrent.futures import Executor
from contextlib import contextmanager
from typing import Any, TypeVar

import qasync
from PySide6.QtCore import QEventLoop, QTimer

T = TypeVar("T")
EXECUTOR_THREADS = 4


def session_loop(qapp: object) -> tuple[asyncio.AbstractEventLoop, Executor]:
    """The session's qasync loop on `qapp`, not left running (set per GUI test by `running`),
    and its executor (shut it down, waiting, at the end: QThreads left running abort the
    interpreter at exit)."""
    # Earlier test packages leave a large heap; a full collection walking it would show up as
    # a GUI stall that the app itself never has. Freeze it out of later collections.
    gc.collect()
    gc.freeze()
    loop = qasync.QEventLoop(qapp, already_running=True)
    asyncio.events._set_running_loop(None)
    executor = qasync.QThreadExecutor(EXECUTOR_THREADS)
    loop.set_default_executor(executor)
    return loop, executor


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
