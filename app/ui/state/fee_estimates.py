"""The network's fee estimates, read once for every fee picker that shows them as presets (the
Fund panel's fast / normal / slow, the Bid tab's service-named rates).

One `FeeEstimateState` per AppContext (`FeeEstimateState.of(context)`). The estimates are read
when the connection changes, and again with a `WalletState` reading (its timer, an action, a
live update from `MarketWatch`) once they are `ESTIMATES_MAX_AGE_S` old: the fee market moves
with the mempool, and a preset showing yesterday's rate would say something untrue. A picker
`bind`s to it: it shows the current estimates at once and each new set as it is read (only a
set that differs, so an open preset list is not closed by a reading that changed nothing)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import Signal

from app.ui.profile_session import NotReadyError, profile_session
from app.ui.state.per_context import PerContextState
from app.ui.state.wallet_state import WalletState, report_unexpected

if TYPE_CHECKING:
    from app.ui.context import AppContext

log = logging.getLogger(__name__)

ESTIMATES_MAX_AGE_S = 60.0


class EstimatesShown(Protocol):
    """What shows estimates (`FeePicker`)."""

    def set_estimates(self, by_target: Mapping[int, float] | None) -> None: ...


class FeeEstimateState(PerContextState):
    changed = Signal(object)  # dict[int, float] | None: the estimates by target, or none known

    def __init__(self, context: AppContext) -> None:
        super().__init__(context)
        self.context = context
        self.session = profile_session(context)
        self.clock = context.options.clock  # monotonic; tests move it by hand
        self.estimates: dict[int, float] | None = None
        self.read_at: float | None = None  # when the last read started (None: never)
        self.reads = 0  # completed reads (tests count them)
        self._task: asyncio.Task[None] | None = None
        self._again = False
        self.session.changed.connect(self._session_changed)
        WalletState.of(context).updated.connect(self.read_if_old)

    def bind(self, picker: EstimatesShown) -> None:
        """`picker` shows the estimates now and from every read that changes them; the first
        picker bound starts the first read."""
        picker.set_estimates(self.estimates)
        self.changed.connect(picker.set_estimates)
        if self.session.connected:
            self.read_if_old()

    def _session_changed(self) -> None:
        self.read_at = None  # another connection's estimates are not this one's
        self.read()

    def read_if_old(self, *_: object) -> None:
        """Read again if never read, or read `ESTIMATES_MAX_AGE_S` ago or more."""
        if self.read_at is None or self.clock() - self.read_at >= ESTIMATES_MAX_AGE_S:
            self.read()

    def read(self) -> asyncio.Task[None] | None:
        """Read now, or once more after the read in progress; None when no loop runs."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return None
        self.read_at = self.clock()
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._run())
            self._task.add_done_callback(report_unexpected)
        else:
            self._again = True
        return self._task

    async def _run(self) -> None:
        while True:
            self._again = False
            await self._read_once()
            if not self._again:
                return

    async def _read_once(self) -> None:
        from app.services.errors import NetError

        services = self.context.connection
        try:
            await self.session.ensure_ready()
            ctx = self.session.read_context()
            from app.services.funding import fee_estimates  # loaded by ensure_ready

            estimates: dict[int, float] | None = await fee_estimates(ctx)
        except (NotReadyError, NetError) as exc:
            log.info("no fee estimates: %s", type(exc).__name__)
            estimates = None
        except Exception:
            if self.context.connection is not services:
                return  # the connection closed under the request
            raise
        if self.context.connection is not services:
            return  # read from a connection that is gone: the next read is this one's
        self.reads += 1
        if estimates != self.estimates:
            self.estimates = estimates
            self.changed.emit(estimates)
