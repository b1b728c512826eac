"""The profile's bid strategies as the window runs them (issue 17): one `StrategyHost` per
connected, unlocked profile (`StrategyState.of(context).host()`), shared by the Strategies tab
and the Bid tab's "Keep this bid".

A running strategy signs with the payment key while it runs, so the host lives only while the
wallet is unlocked and the same profile and connection are in use: when the wallet locks (by
hand or after idling), the profile or the connection changes, or the window closes, every
engine stops after its step (the policies stay: starting again needs the wallet unlocked, not
a new approval while they are valid) and the host and its keys are dropped. `changed(id)`
follows every change the tab shows; `notice(StrategyNotice)` each fill, outbid and stop.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import Signal

from app.ui.profile_session import NotReadyError, not_connected_text, profile_session
from app.ui.state.per_context import PerContextState
from app.ui.state.wallet_state import report_unexpected

if TYPE_CHECKING:
    from app.services.strategy_host import StrategyHost
    from app.ui.context import AppContext

log = logging.getLogger(__name__)


class StrategyState(PerContextState):
    changed = Signal(str)  # a strategy's id ("" : the whole list, e.g. the host was dropped)
    notice = Signal(object)  # StrategyNotice
    stopped_by_lock = Signal(int)  # strategies stopped because the wallet locked

    def __init__(self, context: AppContext) -> None:
        super().__init__(context)
        self.context = context
        self.session = profile_session(context)
        self._host: StrategyHost | None = None
        self._bound: tuple[object, object] | None = None  # (profile, connection) of the host
        self._closing: set[asyncio.Task[None]] = set()
        self.session.changed.connect(self._check)

    def host(self) -> StrategyHost:
        """The host for the profile now (made on first use). `NotReadyError` (its message
        says what to do) while not connected, watch-only or locked."""
        ctx = self.session.signing_context()  # NotReadyError: what to do, in words
        profile_dir = self.context.profile_dir()
        if profile_dir is None:
            raise NotReadyError(not_connected_text(self.context))
        bound = (self.context.profile, self.context.connection)
        if self._host is not None and self._bound == bound:
            return self._host
        self._drop()
        from app.services.strategy_host import StrategyHost

        self._host = StrategyHost(
            ctx, profile_dir, on_change=self.changed.emit, on_notice=self.notice.emit
        )
        self._bound = bound
        return self._host

    @property
    def current(self) -> StrategyHost | None:
        """The host if one is made (no strategy runs without one)."""
        return self._host

    def running_count(self) -> int:
        host = self._host
        return 0 if host is None else len(host.running_ids())

    def _check(self) -> None:
        """The session changed: a lock, another profile or connection drops the host."""
        if self._host is None:
            return
        bound = (self.context.profile, self.context.connection)
        unlocked = self.context.wallet_lock.unlocked
        if unlocked and bound == self._bound:
            return
        running = len(self._host.running_ids())
        self._drop()
        if running and not unlocked:
            self.stopped_by_lock.emit(running)

    def _drop(self) -> None:
        host, self._host, self._bound = self._host, None, None
        if host is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        task = loop.create_task(host.close())
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)
        task.add_done_callback(report_unexpected)
        self.changed.emit("")

    async def close(self) -> None:
        """The window closes: every engine stops after its step."""
        host, self._host, self._bound = self._host, None, None
        if host is not None:
            await host.close()
        for task in list(self._closing):
            await task
