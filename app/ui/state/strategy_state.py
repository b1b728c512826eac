"""The profile's bid strategies as the window runs them (issue 17): one `StrategyHost` per
connected, unlocked profile (`StrategyState.of(context).host()`), shared by the Strategies tab
and the Bid tab's "Keep this bid".

A running strategy signs with the payment key while it runs, so the host lives only while the
wallet is unlocked and the same profile and connection are in use: when the wallet locks (by
hand or after idling), the profile or the connection changes, or the window closes, every
engine stops after its step (the policies stay: starting again needs the wallet unlocked, not
a new approval while they are valid) and the host and its keys are dropped. `changed(id)`
follows every change the tab shows; `notice(StrategyNotice)` each fill, outbid and stop.

The rest of the window hears of the strategies here: a step that cancelled or placed bids
makes the live updates take those cancels as ours and read again soon (`MarketWatch`), and
Open bids read again (`WalletState`); `owners` says which strategy keeps each bid (read from
the journal off the GUI thread, `owners_changed` after each change); each approve, start and
stop, a strategy ending on an error and a lock stopping them is a line of the Activity log.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import Signal

from app.ui import strings
from app.ui.profile_session import NotReadyError, not_connected_text, profile_session
from app.ui.state.market_watch import MarketWatch
from app.ui.state.per_context import PerContextState
from app.ui.state.wallet_state import WalletState, report_unexpected

if TYPE_CHECKING:
    from app.services.strategy_host import StrategyHost
    from app.services.strategy_host_events import BidsActed, HostAction
    from app.ui.context import AppContext

log = logging.getLogger(__name__)


class StrategyState(PerContextState):
    changed = Signal(str)  # a strategy's id ("" : the whole list, e.g. the host was dropped)
    notice = Signal(object)  # StrategyNotice
    stopped_by_lock = Signal(int)  # strategies stopped because the wallet locked
    owners_changed = Signal(object)  # dict[bid id, strategy id]: the bids strategies keep

    def __init__(self, context: AppContext) -> None:
        super().__init__(context)
        self.context = context
        self.session = profile_session(context)
        self._host: StrategyHost | None = None
        self._bound: tuple[object, object] | None = None  # (profile, connection) of the host
        self._closing: set[asyncio.Task[None]] = set()
        self.owners: dict[str, str] = {}  # bid id -> the strategy that placed and keeps it
        self._owners_task: asyncio.Task[None] | None = None
        self._owners_again = False
        self._owners_soon = False  # a read is asked for, to start once this turn ends
        self.session.changed.connect(self._check)
        self.changed.connect(lambda _id: self.request_owners())

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
            ctx,
            profile_dir,
            on_change=self.changed.emit,
            on_notice=self.notice.emit,
            on_bids=self._bids_acted,
            on_action=self._record,
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
        running = self._host.running_ids()
        if bound != self._bound:
            self._set_owners({})  # another profile's (or service's) bids
        self._drop()
        if running and not unlocked:
            self._record_lock(running)
            self.stopped_by_lock.emit(len(running))

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

    # -- what the rest of the window hears -------------------------------------------------

    def _bids_acted(self, acted: BidsActed) -> None:
        """A strategy's step cancelled or placed bids: they are ours, not market news. A
        cancel told mid-step is only expected; the step's end reads again."""
        live = MarketWatch.of(self.context)
        if not acted.step_done:
            live.expect_own_cancel(acted.cancelled)
            return
        live.strategy_acted(acted.cancelled)
        WalletState.of(self.context).request_refresh()
        self.request_owners()

    def request_owners(self) -> None:
        """Read `owners` again (folded into one more read while one runs); nothing while no
        host can be made (locked, watch-only, not connected): the last ones stay."""
        if self._owners_task is not None and not self._owners_task.done():
            self._owners_again = True
            return
        if self._owners_soon:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        # Soon, not now: `host()` itself drops a host and says so (`changed`), and must not
        # be entered again from there.
        self._owners_soon = True
        loop.call_soon(self._start_owners_read)

    def _start_owners_read(self) -> None:
        self._owners_soon = False
        try:
            host = self.host()
        except NotReadyError:
            return
        self._owners_task = asyncio.get_running_loop().create_task(self._read_owners(host))
        self._owners_task.add_done_callback(report_unexpected)

    async def _read_owners(self, host: StrategyHost) -> None:
        from app.services.errors import ServiceError

        while True:
            self._owners_again = False
            try:
                owners = await host.bid_owners()
            except (ServiceError, OSError) as exc:  # the journal unreadable: say nothing new
                log.info("strategy bids not read: %s", type(exc).__name__)
                return
            if host is self._host:
                self._set_owners(owners)
            if not self._owners_again:
                return

    def _set_owners(self, owners: dict[str, str]) -> None:
        if owners != self.owners:
            self.owners = owners
            self.owners_changed.emit(owners)

    def _record(self, action: HostAction) -> None:
        """One Activity line per approve, start, stop (and a strategy ending on an error)."""
        activity = self.context.activity
        if activity is None:
            return
        name = action.policy_id
        if action.error is not None:
            message = strings.ACTIVITY_STRATEGY_FAILED.format(strategy=name, error=action.error)
        elif action.kind == "approve":
            message = strings.ACTIVITY_STRATEGY_APPROVED.format(strategy=name)
        elif action.kind == "start":
            message = strings.ACTIVITY_STRATEGY_STARTED.format(strategy=name)
        elif action.cancelled is None:
            message = strings.ACTIVITY_STRATEGY_STOPPED_KEPT.format(strategy=name)
        else:
            message = strings.counted(
                strings.ACTIVITY_STRATEGY_STOPPED_CANCELLED, action.cancelled, strategy=name
            )
        details: dict[str, object] = {"strategy": name}
        if action.cancelled is not None:
            details["cancelled"] = action.cancelled
        activity.record(
            f"strategy.{action.kind}", ok=action.error is None, message=message, details=details
        )

    def _record_lock(self, stopped: list[str]) -> None:
        if self.context.activity is None:
            return
        text = strings.counted(
            strings.ACTIVITY_STRATEGIES_LOCKED, len(stopped), strategies=", ".join(stopped)
        )
        self.context.activity.record(
            "strategy.locked", ok=True, message=text, details={"strategies": stopped}
        )

    async def close(self) -> None:
        """The window closes: every engine stops after its step."""
        host, self._host, self._bound = self._host, None, None
        if host is not None:
            await host.close()
        for task in list(self._closing):
            await task
