"""The market of the pools being looked at (issue 16): each pool's last `MarketSnapshot`, read by
the services' `MarketReader` on its own schedule (sooner after an action of ours, backing off
after errors, within the host's rate) and shown without a Refresh.

One `MarketState` per AppContext (`MarketState.of(context)`). Each viewer says which pools it
looks at (`look_at("bid", [pool])`: the Bid tab's chosen pool; `look_at("open_bids", pools)`:
the pools of our open bids); the reader keeps exactly their union fresh while a profile is
connected (not offline) and its public keys are known. `updated(pool)` follows each reading;
`market(pool)` is the reader's `PoolMarket`: the last snapshot, and the error of the last read
when it failed (the snapshot is then stale, or None: "market data unavailable").

Which orders are ours: our addresses (`services.market.own_addresses`) and the ids of our open
bids as `WalletState` last read them (before it has read them, the reader asks the service for
them: none known is not "none of ours"); when those ids change, the pools are read again soon.
Tests inject time with `use_time`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING

from PySide6.QtCore import Signal

from app.core.pools import PoolKey
from app.services.activity import ActivityEntry
from app.services.pacing import AsyncioSleeper, Sleeper
from app.ui import strings
from app.ui.profile_session import NotReadyError, not_connected_text, profile_session
from app.ui.state.market_watch import ACTION_PREFIX
from app.ui.state.per_context import PerContextState
from app.ui.state.wallet_state import WalletState, report_unexpected

if TYPE_CHECKING:
    from app.core.poll_schedule import PollTiming
    from app.services.context import ServiceContext
    from app.services.market import MarketReader, OwnOrders, PoolMarket
    from app.services.open_bids import OpenBidsView
    from app.ui.context import AppContext

log = logging.getLogger(__name__)


class MarketState(PerContextState):
    updated = Signal(object)  # PoolKey: its market was read (or failed to be)

    def __init__(self, context: AppContext) -> None:
        super().__init__(context)
        self.context = context
        self.session = profile_session(context)
        self.wallet = WalletState.of(context)
        self.sleeper: Sleeper = AsyncioSleeper()
        self.timing: PollTiming | None = None
        self.reader: MarketReader | None = None
        self._task: asyncio.Task[None] | None = None
        self._reading: object = None  # the connection the reader reads
        self._viewers: dict[str, tuple[PoolKey, ...]] = {}
        self._bid_ids: frozenset[str] = frozenset()
        self.session.changed.connect(self._sync)
        self.wallet.updated.connect(self._our_bids)
        context.activity_added.connect(self._activity)

    # -- what the tabs ask ----------------------------------------------------------------------

    def look_at(self, viewer: str, pools: Iterable[PoolKey]) -> None:
        """`viewer`'s pools, in place of the ones it looked at before (none: it looks away)."""
        wanted = tuple(dict.fromkeys(pools))
        if self._viewers.get(viewer, ()) == wanted:
            return
        self._viewers[viewer] = wanted
        self._sync()

    def pools(self) -> tuple[PoolKey, ...]:
        """Every pool some viewer looks at."""
        return tuple(dict.fromkeys(p for pools in self._viewers.values() for p in pools))

    def market(self, pool: PoolKey) -> PoolMarket | None:
        """What was last read of `pool` (None: nothing yet)."""
        return None if self.reader is None else self.reader.cached(pool)

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def use_time(self, sleeper: Sleeper, timing: PollTiming | None = None) -> None:
        """Tests: the reader's waits and timing (a running reader starts again with them)."""
        self.sleeper, self.timing = sleeper, timing
        if self.running:
            self._start()

    # -- running ----------------------------------------------------------------------------

    def _should_run(self) -> bool:
        return bool(self.pools()) and not self.why_not()

    def why_not(self) -> str:
        """Why no market is read now, in the user's words ("" while it is, or would be once a
        pool is looked at)."""
        context = self.context
        if context.options.offline:
            return strings.MARKET_OFFLINE
        if not self.session.connected:
            return not_connected_text(context)
        if self.session.public_keys is None and not context.watch_only:
            return strings.UNLOCK_FIRST_HINT
        return ""

    def _sync(self) -> None:
        if not self._should_run():
            self.stop()
        elif not self.running or self._reading is not self.context.connection:
            self._start()
        elif self.reader is not None:
            self.reader.watch(self.pools())

    def _start(self) -> None:
        self.stop()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # the app's loop has ended: nothing to read
            return
        self._reading = self.context.connection
        self._task = loop.create_task(self._run())
        self._task.add_done_callback(report_unexpected)

    def stop(self) -> None:
        task, self._task = self._task, None
        self._reading, self.reader = None, None  # another connection's market is not this one's
        if task is not None and not task.done():
            task.cancel()

    async def _run(self) -> None:
        try:
            await self.session.ensure_ready()
        except NotReadyError:
            return
        from app.services.market import MARKET_TIMING, MarketReader

        profile = self.context.profile
        reader = MarketReader(
            self._read_context,
            sleeper=self.sleeper,
            clock=self.session.clock,
            on_update=self._on_update,
            own_orders=self._own_orders,
            rate=None if profile is None else profile.rate_limit,
            timing=self.timing or MARKET_TIMING,
        )
        self.reader = reader
        reader.watch(self.pools())
        await reader.run()

    def _read_context(self) -> ServiceContext:
        """The reader's context; locked before the public keys were known: an error the
        reader keeps as the pool's (it says what to do), not one that stops it."""
        from app.services.errors import ServiceError

        try:
            return self.session.read_context()
        except NotReadyError as exc:
            raise ServiceError(exc.user_message) from exc

    def _own_orders(self) -> OwnOrders | None:
        """Ours, from the open bids `WalletState` read; None before it read them (the reader
        then asks the service)."""
        from app.services.market import OwnOrders, own_addresses

        view = self.wallet.view
        if view is None:
            return None
        ids = frozenset(bid.bid_id for bid in view.bids)
        return OwnOrders(own_addresses(self._read_context()), ids)

    # -- what moves it ----------------------------------------------------------------------

    def _on_update(self, held: PoolMarket) -> None:
        if held.error is not None:
            log.info("market of %s not read: %s", held.pool, type(held.error).__name__)
        self.updated.emit(held.pool)

    def _our_bids(self, view: OpenBidsView) -> None:
        """Our open bids changed (placed, cancelled, filled): which orders are ours did too."""
        ids = frozenset(bid.bid_id for bid in view.bids)
        if ids != self._bid_ids:
            self._bid_ids = ids
            if self.reader is not None:
                self.reader.nudge()

    def _activity(self, entry: ActivityEntry) -> None:
        if self.reader is not None and not entry.action.startswith(ACTION_PREFIX):
            self.reader.nudge()  # an action of ours may have moved the market
