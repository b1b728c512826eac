"""The few asyncio helpers the widgets share: blocking work off the GUI thread, dialogs
awaited without a nested event loop."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import qasync
from PySide6.QtWidgets import QDialog

T = TypeVar("T")


async def run_blocking(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run `fn` in the loop's executor (a QThread pool under qasync) and await its result.
    Use for CPU work (key derivation, Argon2) and blocking calls (keychain, files)."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, functools.partial(fn, *args, **kwargs))


async def exec_dialog(dialog: QDialog) -> int:
    """Show `dialog` window-modal with `open()` (no nested loop) and await its result code."""
    future: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    def finished(code: int) -> None:
        if not future.done():
            future.set_result(code)

    dialog.finished.connect(finished)
    dialog.open()
    try:
        return await future
    finally:
        dialog.finished.disconnect(finished)


_SlotFunction = Callable[..., Coroutine[Any, Any, None]]


def async_slot(*types: type) -> Callable[[_SlotFunction], Callable[..., Any]]:
    """qasync's `asyncSlot` with types: the coroutine runs as a task on the loop; an exception
    it raises goes to sys.excepthook (the app's error dialog)."""
    decorator: Callable[[_SlotFunction], Callable[..., Any]] = qasync.asyncSlot(*types)
    return decorator
