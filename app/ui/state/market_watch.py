"""Live updates in the window: the services' `MarketWatcher` run for the connected, unlocked
profile, its readings shown without a Refresh, its events told.

One `MarketWatch` per AppContext (`MarketWatch.of(context)`). It runs while a profile is
connected and unlocked (or watch-only), and stops when the wallet locks, the profile closes
or the connection changes. A new connection's first reading is its baseline (no events are
made up from another connection's); after a lock, the same connection's watcher compares with
the reading before the lock, so a fill while locked is told on unlocking. Each reading goes to
`WalletState` (the Wallet, Open bids and Bid tabs show it as one of its own loads) and
`reading`; each event is recorded in the Activity log in the user's words and, when the
setting allows, shown as a desktop notification (`notifier`). Any action the Activity log
records (a bid, a cancel, a listing, a withdrawal) makes the watcher read again soon, and so
does a running strategy's step that cancelled or placed bids (`strategy_acted`: its cancels
are ours, as the user's are).

Tests inject time with `use_time` (a sleeper that returns when they say).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Final

from PySide6.QtCore import Signal

from app.core.market_events import MarketDiffer, MarketEvent
from app.core.poll_schedule import PollTiming
from app.services.activity import ActivityEntry
from app.services.pacing import AsyncioSleeper, Sleeper
from app.ui import strings
from app.ui.market_event_text import NOTIFIED, activity_text, headline
from app.ui.profile_session import NotReadyError, profile_session
from app.ui.state.per_context import PerContextState
from app.ui.state.wallet_state import WalletState, report_unexpected

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from app.services.context import ServiceContext
    from app.services.watch import MarketReading, MarketWatcher
    from app.ui.context import AppContext
    from app.ui.notifications import Notifier

log = logging.getLogger(__name__)

ACTION_PREFIX = "market."  # the Activity actions of the events (not actions of ours)
# The service decides how many events a reading makes: past this many, one notification
# counts the rest (all are in the Activity log).
MAX_NOTIFIED_PER_READING: Final = 3


class MarketWatch(PerContextState):
    reading = Signal(object)  # MarketReading
    events = Signal(object)  # list[MarketEvent], once recorded and told
    listings_changed = Signal()  # our listings or their states differ from the last reading

    def __init__(self, context: AppContext) -> None:
        super().__init__(context)
        self.context = context
        self.session = profile_session(context)
        self.state = WalletState.of(context)
        self.notifier: Notifier | None = None
        self.sleeper: Sleeper = AsyncioSleeper()
        self.timing: PollTiming | None = None
        self.jitter: Callable[[], float] | None = None
        self.watcher: MarketWatcher | None = None
        self._task: asyncio.Task[None] | None = None
        self._watching: object = None  # the connection the watcher reads
        self._own: set[str] = set()  # our cancels in flight, for a watcher started meanwhile
        self._reading_number: int | None = None  # the state's number of the reading under way
        self._listings: object = None  # the last reading's listings (None: none read yet)
        self._differ: MarketDiffer | None = None  # kept across a lock: told after unlocking
        self._differ_of: object = None  # the connection it compares readings of
        self.session.changed.connect(self._sync)
        context.activity_added.connect(self._activity)

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def use_time(
        self,
        sleeper: Sleeper,
        timing: PollTiming | None = None,
        jitter: Callable[[], float] | None = None,
    ) -> None:
        """Tests: the watcher's waits and timing (a running watcher starts again with them)."""
        self.sleeper, self.timing, self.jitter = sleeper, timing, jitter
        if self.running:
            self._start()

    # -- running ----------------------------------------------------------------------------

    def _should_run(self) -> bool:
        context = self.context
        if not self.session.connected or context.options.offline:
            return False
        return context.wallet_lock.unlocked or context.watch_only

    def _sync(self) -> None:
        if not self._should_run():
            self.stop()
        elif not self.running or self._watching is not self.context.connection:
            self._start()

    def _start(self) -> None:
        self.stop()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # the app's loop has ended: nothing to watch
            return
        self._watching, self._listings = self.context.connection, None
        self._task = loop.create_task(self._run())
        self._task.add_done_callback(report_unexpected)

    def stop(self) -> None:
        task, self._task = self._task, None
        self.watcher, self._watching = None, None
        if task is not None and not task.done():
            task.cancel()

    async def _run(self) -> None:
        try:
            await self.session.ensure_ready()
        except NotReadyError:
            return
        from app.services.watch import MarketWatcher, schedule_for

        profile = self.context.profile
        rate = None if profile is None else profile.rate_limit
        watcher = MarketWatcher(
            self._reading_context,
            self._on_reading,
            sleeper=self.sleeper,
            schedule=schedule_for(rate, self.timing, self.jitter),
            on_error=self._on_error,
            differ=self._differ,
        )
        connection = self.context.connection
        if self._differ is None or self._differ_of is not connection:
            self._differ, self._differ_of = MarketDiffer(), connection
        self._differ.expect_own_cancel(self._own)
        self.watcher = watcher
        try:
            await watcher.run()
        except NotReadyError:  # locked or closed under it: `_sync` stops or restarts it
            return

    # -- our own actions --------------------------------------------------------------------

    def expect_own_cancel(self, ids: Iterable[str]) -> None:
        """Bids we are cancelling: their going is not news."""
        ids = set(ids)
        self._own |= ids
        if self.watcher is not None:
            self.watcher.differ.expect_own_cancel(ids)

    def forget_own_cancel(self, ids: Iterable[str]) -> None:
        """Cancels that did not happen (or are done and seen): their going is news again."""
        ids = set(ids)
        self._own -= ids
        if self.watcher is not None:
            self.watcher.differ.forget_own_cancel(ids)

    def strategy_acted(self, cancelled: Iterable[str]) -> None:
        """A running strategy cancelled or placed bids (issue 17): its cancels are ours, not
        news, and the next reading comes soon, so the bids it placed are in the baseline
        before one of them fills (a fill is told of the right bid)."""
        self.expect_own_cancel(cancelled)
        if self.watcher is not None:
            self.watcher.nudge()

    def _activity(self, entry: ActivityEntry) -> None:
        if self.watcher is not None and not entry.action.startswith(ACTION_PREFIX):
            self.watcher.nudge()

    # -- what it reads ----------------------------------------------------------------------

    def _reading_context(self) -> ServiceContext:
        """The watcher's context for a reading about to start: the state numbers it, so a
        load started after it and ended before it is not replaced by it."""
        self._reading_number = self.state.reading_started()
        return self.session.read_context()

    def _on_reading(self, reading: MarketReading, events: list[MarketEvent]) -> None:
        self.state.accept(reading.view, self._reading_number)
        self.reading.emit(reading)
        seen, self._listings = self._listings, reading.listings
        if seen is not None and seen != reading.listings:
            self.listings_changed.emit()
        if events:
            self.tell(events)

    def tell(self, events: list[MarketEvent]) -> None:
        """Record each event in the Activity log and notify the ones worth a notification (the
        first few; one more notification counts the rest)."""
        activity = self.context.activity
        notified = [event for event in events if event.kind in NOTIFIED]
        for event in events:
            if activity is not None:
                activity.record(
                    ACTION_PREFIX + event.kind.value,
                    ok=True,
                    message=activity_text(event),
                    txid=event.txid,
                    details={"id": event.subject},
                )
        if self.notifier is not None:
            for event in notified[:MAX_NOTIFIED_PER_READING]:
                self.notifier.notify(*headline(event))
            more = len(notified) - MAX_NOTIFIED_PER_READING
            if more > 0:
                self.notifier.notify(
                    strings.LIVE_MORE_EVENTS_TITLE, strings.counted(strings.LIVE_MORE_EVENTS, more)
                )
        self.events.emit(events)

    def _on_error(self, error: BaseException, wait_ms: int) -> None:
        log.info("live update failed: %s; next in %d s", type(error).__name__, wait_ms // 1000)
