"""What the collector tabs show, loaded once for all of them: the bidding wallet (address and
balance), the open bids and every pool's total (`services.open_bids.load_open_bids`).

One `WalletState` per AppContext (`WalletState.of(context)`). A refresh runs on a timer, when
the connection or the lock changes, and after every action; refreshes asked for while one runs
are folded into one more run, so a burst of requests costs two loads at most."""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer, Signal

from app.ui import strings
from app.ui.profile_session import (
    NotReadyError,
    failure_text,
    not_connected_text,
    profile_session,
)
from app.ui.state.per_context import PerContextState

if TYPE_CHECKING:
    from app.services.open_bids import OpenBidsView
    from app.ui.context import AppContext

log = logging.getLogger(__name__)

REFRESH_INTERVAL_MS = 30_000


class WalletState(PerContextState):
    updated = Signal(object)  # OpenBidsView
    failed = Signal(str)  # a plain sentence (not connected, locked, service error)
    busy_changed = Signal(bool)

    def __init__(self, context: AppContext) -> None:
        super().__init__(context)
        self.context = context
        self.session = profile_session(context)
        self.view: OpenBidsView | None = None
        self.error = ""
        self.loads = 0  # completed loads (tests and the benchmark count them)
        # Readings (its loads, the live updates') numbered as they start: one that started
        # before the reading shown is not shown when it ends (nor its failure).
        self._started = 0
        self._shown = 0
        self._task: asyncio.Task[None] | None = None
        self._again = False
        self.timer = QTimer(self)
        self.timer.setInterval(REFRESH_INTERVAL_MS)
        self.timer.timeout.connect(self.request_refresh)
        self.session.changed.connect(self._session_changed)

    @property
    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

    def _session_changed(self) -> None:
        if not self.session.connected:  # closed (or shut down): nothing to load until it is back
            self.timer.stop()
            self.view = None
            self._fail(not_connected_text(self.context))
            return
        self.request_refresh()

    def request_refresh(self) -> asyncio.Task[None] | None:
        """Start a load, or fold this request into one more run of the load in progress. None
        when no event loop runs (a timer firing after the app's loop ended): nothing to do."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.timer.stop()
            return None
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._run())
            self._task.add_done_callback(report_unexpected)
            self.busy_changed.emit(True)
        else:
            self._again = True
        return self._task

    def reading_started(self) -> int:
        """A reading of the bids starts: its number, for `accept`."""
        self._started += 1
        return self._started

    def accept(self, view: OpenBidsView, started: int | None = None) -> None:
        """A view the live updates read (`MarketWatch`), `started` as `reading_started` said
        (None: now): shown as one of this state's loads unless a reading started after it
        is shown already, and the timer starts over (the watcher reads more often)."""
        number = self.reading_started() if started is None else started
        if number < self._shown:
            return
        self._shown = number
        self.view, self.error = view, ""
        self.timer.start()
        self.updated.emit(view)

    async def refresh(self) -> None:
        """Load now (or join the load in progress and the one after it)."""
        task = self.request_refresh()
        if task is not None:
            await task

    async def _run(self) -> None:
        try:
            while True:
                self._again = False
                await self._load_once()
                if not self._again:
                    return
        finally:
            self.busy_changed.emit(False)

    async def _load_once(self) -> None:
        from app.services.errors import NetError, ServiceError

        services = self.context.connection
        number = self.reading_started()
        try:
            view = await self._fetch()
        except NotReadyError as exc:
            self._fail(exc.user_message)
            return
        except (ServiceError, NetError) as exc:
            if number < self._shown:
                return  # a reading started since is shown: this one's failure is old news
            if self.context.connection is services:
                log.info("refresh failed: %s", type(exc).__name__)
                self._fail(failure_text(exc))
            return
        except Exception:
            if self.context.connection is not services:
                return  # the connection closed (or changed) under the load: nothing to show
            raise
        self.loads += 1
        if not self.timer.isActive():
            self.timer.start()
        if number < self._shown:
            return  # a live reading started after this load is shown already
        self._shown = number
        self.view, self.error = view, ""
        self.updated.emit(view)

    async def _fetch(self) -> OpenBidsView:
        await self.session.ensure_ready()
        ctx = self.session.read_context()
        from app.services.open_bids import load_open_bids

        return await load_open_bids(ctx)

    def _fail(self, text: str) -> None:
        self.error = text
        self.failed.emit(text)


def failure_role(text: str) -> str:
    """How a `failed` sentence shows: not connected (yet) or locked is a state to act on, a
    hint never red; anything else failed ("error")."""
    states = (strings.CONNECTING_HINT, strings.NOT_CONNECTED_HINT, strings.UNLOCK_FIRST_HINT)
    return "hint" if text in states else "error"


def report_unexpected(task: asyncio.Task[None]) -> None:
    """A bug in a load reaches the app's error dialog (as @asyncSlot handlers do), not a
    "never retrieved" warning at garbage collection."""
    error = None if task.cancelled() else task.exception()
    if error is not None:
        sys.excepthook(type(error), error, error.__traceback__)
