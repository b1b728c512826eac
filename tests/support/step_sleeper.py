"""A `Sleeper` whose waits end when the test says: a watcher's schedule is driven step by
step, nothing sleeps, and the waits it asked for are recorded (`waits`)."""

from __future__ import annotations

import asyncio

GUARD_S = 120  # a guard against a hang, not a timing assertion


class StepSleeper:
    def __init__(self) -> None:
        self.waits: list[int] = []
        self._started: asyncio.Queue[int] = asyncio.Queue()
        self._go: asyncio.Queue[None] = asyncio.Queue()

    async def sleep_ms(self, ms: int) -> None:
        self.waits.append(ms)
        self._started.put_nowait(ms)
        await self._go.get()

    async def next_wait(self) -> int:
        """The next wait the watcher starts (its length)."""
        return await asyncio.wait_for(self._started.get(), GUARD_S)

    async def elapse(self) -> int:
        """End the wait in progress; return once the watcher waits again (its length)."""
        self._go.put_nowait(None)
        return await self.next_wait()
