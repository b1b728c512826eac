"""The window's strategies (issue 17): every strategy of one profile, approved, started and
stopped from the Strategies tab, each one a `StrategyEngine` running in this process.

    host = StrategyHost(ctx, profile_dir, on_change=...)
    await host.approve(config, valid_for_ms)   # the strategy's file, and its policy sealed
    await host.start(policy_id)                # reconcile, then tick until stopped
    await host.stop(policy_id, cancel_bids=True)
    views = await host.views()                 # what the tab shows per strategy
    owners = await host.bid_owners()           # which strategy placed each of our bids

The rest of the window hears of the strategies' doings through `on_bids` (the bids a tick or
a stop cancelled and placed: the live updates take those cancels as ours) and `on_action`
(each approve, start and stop, and a strategy ending on an error: the Activity log's lines).

The engines share the profile's context, so its pacer keeps the pace of 500 ms a bid per
receive address across every strategy and the user's own bids. One process per profile runs
strategies: the host holds the profile's `EngineLock` while any runs (so the headless command
is refused meanwhile, and the other way round). Stopping a strategy revokes its policy: a
strategy started again is approved again. Closing the window stops the engines and keeps the
policies (they end at their own validity).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from app.core.strategy_approval import HOUR_MS, policy_for_strategy
from app.core.strategy_policy import StrategyPolicy
from app.services.context import ServiceContext
from app.services.errors import NetError, ServiceError
from app.services.strategy_bid_log import StrategyBidLog
from app.services.strategy_cancel import withdraw_strategy_bids
from app.services.strategy_config import (
    StrategyConfigError,
    config_path,
    load_config,
    save_config,
    strategy_ids,
)
from app.services.strategy_engine import StrategyConfig, StrategyEngine, TickReport, within_policy
from app.services.strategy_host_events import BidsActed, HostAction, bids_acted
from app.services.strategy_journal import JournalEntry, StrategyJournal
from app.services.strategy_lock import EngineLock
from app.services.strategy_notices import NoticeTracker, StrategyNotice
from app.services.strategy_policies import (
    PolicyNotFoundError,
    StrategyPolicyStore,
    StrategyPolicyStoreError,
    identity_of,
)
from app.services.strategy_signer import StrategySigner, UnsignedPreview

log = logging.getLogger("bidwallet.strategies.host")
PREVIEW_VALIDITY_MS = HOUR_MS


class HostClosedError(ServiceError):
    """The host was closed (the wallet locked, the window closed): nothing more is read."""


T = TypeVar("T")
CLOSED = "The strategies were stopped (the wallet locked or the window closed)."


@dataclass(frozen=True)
class StrategyView:
    """One strategy as the tab shows it."""

    policy_id: str
    config: StrategyConfig | None  # None: its file cannot be read (`problem` says why)
    policy: StrategyPolicy | None  # None: not approved (or revoked, or refused)
    problem: str | None  # the file's or the policy's problem, in words
    running: bool
    last_report: TickReport | None
    spent_by_pool: dict[str, int] = field(default_factory=dict)
    error: str | None = None  # why the engine stopped on its own


@dataclass
class _Running:
    engine: StrategyEngine
    signer: StrategySigner
    tracker: NoticeTracker
    task: asyncio.Future[int] = field(default_factory=asyncio.Future)
    last_report: TickReport | None = None
    after_tick: asyncio.Future[None] | None = None


class StrategyHost:
    def __init__(
        self,
        ctx: ServiceContext,
        profile_dir: Path,
        *,
        on_change: Callable[[str], None] | None = None,
        on_notice: Callable[[StrategyNotice], None] | None = None,
        on_bids: Callable[[BidsActed], None] | None = None,
        on_action: Callable[[HostAction], None] | None = None,
    ) -> None:
        self.ctx = ctx
        self.profile_dir = profile_dir
        self.policies = StrategyPolicyStore(profile_dir)
        self._on_change = on_change or (lambda _id: None)
        self._on_notice = on_notice or (lambda _n: None)
        self._on_bids = on_bids or (lambda _b: None)
        self._on_action = on_action or (lambda _a: None)
        self._running: dict[str, _Running] = {}
        self._errors: dict[str, str] = {}
        self._reports: dict[str, TickReport] = {}
        self._lock = EngineLock(profile_dir)
        self._lock_held = False
        self._lock_guard = asyncio.Lock()
        self._starting: set[str] = set()
        self._closed = False
        self._journal: StrategyJournal | None = None
        self._bid_log: StrategyBidLog | None = None
        self._stores_lock = threading.Lock()

    # --- stores (opened on first use, from an executor) -----------------------------------

    def _stores(self) -> tuple[StrategyJournal, StrategyBidLog]:
        # Called from executor threads at once (the tab's views, Open bids' owners): opened
        # once, under a lock (two first opens of a new journal raced to "database is locked").
        with self._stores_lock:
            if self._closed:
                raise HostClosedError(CLOSED)
            if self._journal is None or self._bid_log is None:
                self._journal = StrategyJournal.in_profile(self.profile_dir)
                self._bid_log = StrategyBidLog.in_profile(self.profile_dir)
            return self._journal, self._bid_log

    # --- reading ---------------------------------------------------------------------------

    def is_running(self, policy_id: str) -> bool:
        return policy_id in self._running

    def running_ids(self) -> list[str]:
        return sorted(self._running)

    async def _read(self, fn: Callable[[], T]) -> T:
        """A read of the stores off the loop's thread; a `close` meanwhile (the wallet locked)
        closes the stores under it: said as `HostClosedError`, a `ServiceError`."""
        try:
            return await self.ctx.run_cpu(fn)
        except sqlite3.ProgrammingError:
            if self._closed:
                raise HostClosedError(CLOSED) from None
            raise

    async def views(self) -> list[StrategyView]:
        """Every strategy of the profile (a file or a policy), sorted by id."""
        return await self._read(self._views)

    def _views(self) -> list[StrategyView]:
        ids = sorted(set(strategy_ids(self.profile_dir)) | set(self.policies.policy_ids()))
        _, bid_log = self._stores()
        return [self._view(policy_id, bid_log) for policy_id in ids]

    def _view(self, policy_id: str, bid_log: StrategyBidLog) -> StrategyView:
        config: StrategyConfig | None = None
        policy: StrategyPolicy | None = None
        problem: str | None = None
        try:
            config = load_config(config_path(self.profile_dir, policy_id))
        except StrategyConfigError as exc:
            problem = exc.user_message
        try:
            policy = self.policies.load(self.ctx.signing_keys(), policy_id)
        except PolicyNotFoundError:
            problem = problem or "not approved"
        except (StrategyPolicyStoreError, ServiceError) as exc:
            problem = problem or exc.user_message
        running = self._running.get(policy_id)
        return StrategyView(
            policy_id,
            config,
            policy,
            problem,
            running is not None,
            running.last_report if running else self._reports.get(policy_id),
            bid_log.spent_by_pool(policy_id),
            self._errors.get(policy_id),
        )

    async def journal(self, policy_id: str, limit: int = 200) -> list[JournalEntry]:
        """The strategy's journal, newest first: every signature with its reason."""
        journal, _ = await self.ctx.run_cpu(self._stores)
        return await self._read(lambda: journal.entries(policy_id, limit=limit))

    async def bid_owners(self) -> dict[str, str]:
        """The strategy (policy id) that placed each bid id the journal holds as placed: the
        strategies' bids that may be open."""
        if self._closed:  # its stores are closed for good
            return {}
        return await self._read(self._bid_owners)

    def _bid_owners(self) -> dict[str, str]:
        journal, _ = self._stores()
        ids = set(strategy_ids(self.profile_dir)) | set(self.policies.policy_ids())
        return {
            bid_id: policy_id
            for policy_id in sorted(ids | set(self._running))
            for entry in journal.placed(policy_id)
            for bid_id in entry.bid_ids
        }

    async def dry_run(self, config: StrategyConfig) -> str:
        """What the strategy would place, renew and cancel now, and why; nothing is signed,
        nothing written (so it runs before approval, or beside the running engine)."""
        journal, bid_log = await self.ctx.run_cpu(self._stores)
        engine = StrategyEngine(self.ctx, self._preview(config), journal, bid_log, config)
        return await engine.dry_run()

    def _preview(self, config: StrategyConfig) -> UnsignedPreview:
        """The policy `approve` would draw up now, with nothing to sign with."""
        return UnsignedPreview(self.policy_for(config, PREVIEW_VALIDITY_MS))

    def policy_for(self, config: StrategyConfig, valid_for_ms: int) -> StrategyPolicy:
        """The policy `approve` would seal now (the window shows it before the user approves).
        `StrategyPolicyError` when the strategy cannot be approved as it is."""
        return policy_for_strategy(
            config.policy_id,
            config.pools,
            config.limits,
            bidder=identity_of(self.ctx.signing_keys()),
            maker_fee=self.ctx.maker_fee,
            now_ms=self.ctx.clock.now_ms(),
            valid_for_ms=valid_for_ms,
        )

    # --- approving ------------------------------------------------------------------------

    async def approve(self, config: StrategyConfig, valid_for_ms: int) -> StrategyPolicy:
        """Write the strategy's file and seal its policy (the wallet must be unlocked). A
        strategy already approved is approved again as written (its old policy revoked
        first); a running one must be stopped first."""
        if self.is_running(config.policy_id):
            raise ServiceError(f"Strategy {config.policy_id} is running: stop it to change it.")
        with self._acting("approve", config.policy_id):
            keys = self.ctx.signing_keys()
            policy = self.policy_for(config, valid_for_ms)
            within_policy(config, policy)  # the strategy runs as written under it

            def write() -> None:
                save_config(self.profile_dir, config)
                self.policies.revoke(config.policy_id)
                self.policies.approve(keys, policy)

            await self.ctx.run_cpu(write)
        self._errors.pop(config.policy_id, None)
        self._on_change(config.policy_id)
        return policy

    async def delete(self, policy_id: str) -> None:
        """Forget a stopped strategy: its file and policy (the journal keeps its history)."""
        if self.is_running(policy_id):
            raise ServiceError(f"Strategy {policy_id} is running: stop it first.")

        def remove() -> None:
            self.policies.revoke(policy_id)
            config_path(self.profile_dir, policy_id).unlink(missing_ok=True)

        await self.ctx.run_cpu(remove)
        self._on_change(policy_id)

    # --- running --------------------------------------------------------------------------

    async def start(self, policy_id: str) -> None:
        """Reconcile the strategy with the service's open bids, then run it until stopped.
        Refused (a `ServiceError` saying why) without an approved, valid policy, or while
        another process runs strategies of this profile."""
        if self.is_running(policy_id) or policy_id in self._starting:
            return
        with self._acting("start", policy_id):
            self._check_open()
            # A start in progress holds the lock like a running strategy: another one ending
            # meanwhile must not release it, nor a second start take it twice.
            self._starting.add(policy_id)
            try:
                try:
                    running = await self._start(policy_id)
                except Exception:
                    self._check_open()  # closed meanwhile: say so, not what it broke
                    raise
                self._running[policy_id] = running
            finally:
                self._starting.discard(policy_id)
                self._release_if_idle()
        running.task = asyncio.ensure_future(running.engine.run())
        running.task.add_done_callback(lambda t: self._ended(policy_id, t))
        self._errors.pop(policy_id, None)
        self._on_change(policy_id)

    async def _start(self, policy_id: str) -> _Running:
        config = await self.ctx.run_cpu(load_config, config_path(self.profile_dir, policy_id))
        journal, bid_log = await self.ctx.run_cpu(self._stores)
        async with self._lock_guard:  # two starts at once take the lock once
            if not self._lock_held:
                await self.ctx.run_cpu(self._lock.acquire)
                self._lock_held = True
        signer = await self.ctx.run_cpu(
            lambda: StrategySigner(
                self.ctx.signing_keys(), self.policies, policy_id, journal, self.ctx.clock
            )
        )
        try:
            if signer.policy.valid_until_ms <= self.ctx.clock.now_ms():
                raise ServiceError(f"The policy of {policy_id} has ended: approve it again.")
            engine = StrategyEngine(
                self.ctx,
                signer,
                journal,
                bid_log,
                config,
                on_event=self._event_hook(policy_id),
                on_tick=lambda report: self._ticked(policy_id, report),
            )
            await engine.start()
            spent = await self.ctx.run_cpu(bid_log.spent_by_pool, policy_id)
            self._check_open()  # the window closed or the wallet locked meanwhile
        except BaseException:
            signer.close()
            raise
        return _Running(engine, signer, NoticeTracker(policy_id, engine.config, spent))

    def _event_hook(self, policy_id: str) -> Callable[[str, dict[str, object]], None]:
        """The engine's events logged, and a cancel told as soon as it is done (a reading of
        the live updates may come before the step ends; the step's report tells the rest)."""
        logged = _event_logger(policy_id)

        def emit(event: str, fields: dict[str, object]) -> None:
            logged(event, fields)
            bid_id = fields.get("bid_id")
            if event in ("cancel", "renew") and fields.get("done") and isinstance(bid_id, str):
                self._on_bids(BidsActed(policy_id, frozenset({bid_id}), frozenset(), False))

        return emit

    def _check_open(self) -> None:
        if self._closed:
            raise HostClosedError(CLOSED)

    def _release_if_idle(self) -> None:
        if self._lock_held and not self._running and not self._starting:
            self._lock.release()
            self._lock_held = False

    def _ticked(self, policy_id: str, report: TickReport) -> None:
        running = self._running.get(policy_id)
        if running is None:
            return
        running.last_report = report
        self._reports[policy_id] = report
        acted = bids_acted(policy_id, report.results)
        if acted.cancelled or acted.placed:
            self._on_bids(acted)
        # The notices need the fills' figures, read off the loop's thread (a file read).
        running.after_tick = asyncio.ensure_future(self._tell(policy_id, running, report))

    async def _tell(self, policy_id: str, running: _Running, report: TickReport) -> None:
        if self._closed or self._bid_log is None:
            return
        bid_log = self._bid_log
        spent = await self.ctx.run_cpu(bid_log.spent_by_pool, policy_id)
        for notice in running.tracker.notices(report, running.engine.last_snapshot, spent):
            self._on_notice(notice)
        self._on_change(policy_id)

    def _ended(self, policy_id: str, task: asyncio.Task[int]) -> None:
        running = self._running.pop(policy_id, None)
        if running is not None and running.last_report is not None:
            self._reports[policy_id] = running.last_report
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            message = exc.user_message if isinstance(exc, ServiceError) else type(exc).__name__
            self._errors[policy_id] = message
            self._on_action(HostAction("ended", policy_id, error=message))
            log.warning(
                "strategy %s stopped on an error: %s",
                policy_id,
                type(exc).__name__,
                exc_info=None if isinstance(exc, ServiceError) else exc,  # a bug: where
            )
        if running is not None:
            running.signer.close()
        self._release_if_idle()
        self._on_change(policy_id)

    async def stop(self, policy_id: str, *, cancel_bids: bool = False) -> int:
        """Revoke the policy and close the signer (nothing more is signed under it, even by
        a step in progress), then stop after that step; with `cancel_bids`, cancel the bids
        it placed too (from the journal: the strategy's file is not needed). Returns the
        bids cancelled."""
        with self._acting("stop", policy_id) as acting:
            await self.ctx.run_cpu(self.policies.revoke, policy_id)
            running = self._running.get(policy_id)
            if running is not None:
                running.signer.close()
                running.engine.request_stop()
                with contextlib.suppress(Exception):
                    await running.task
            cancelled = 0
            if cancel_bids:
                cancelled = await self._withdraw(policy_id)
                acting["cancelled"] = cancelled
        self._on_change(policy_id)
        return cancelled

    @contextlib.contextmanager
    def _acting(self, kind: str, policy_id: str) -> Iterator[dict[str, int]]:
        """Tell `on_action` how `kind` went (a failure with its words, then re-raised)."""
        told: dict[str, int] = {}
        try:
            yield told
        except Exception as exc:
            error = exc.user_message if isinstance(exc, ServiceError) else str(exc)
            self._on_action(HostAction(kind, policy_id, error=error or type(exc).__name__))
            raise
        self._on_action(HostAction(kind, policy_id, cancelled=told.get("cancelled")))

    async def _withdraw(self, policy_id: str) -> int:
        """Cancel the strategy's open bids (no signature under the policy is needed: a
        cancel is signed by the bid's own address, as for any of the user's bids)."""
        journal, bid_log = await self.ctx.run_cpu(self._stores)
        try:
            results = await withdraw_strategy_bids(
                self.ctx, journal, bid_log, policy_id, "stopped by you"
            )
        except (NetError, ServiceError) as exc:
            raise ServiceError(
                f"The strategy stopped, but its bids were not cancelled: {exc}. They stay "
                "open until they expire; cancel them in Open bids."
            ) from None
        acted = bids_acted(policy_id, results)
        if acted.cancelled:
            self._on_bids(acted)
        return sum(1 for r in results if r.done)

    async def stop_all(self, *, cancel_bids: bool = False) -> None:
        for policy_id in list(self._running):
            await self.stop(policy_id, cancel_bids=cancel_bids)

    async def close(self) -> None:
        """The wallet locked or the window closes: every signer is closed at once (no bid
        message is signed after this), the engines are cancelled (a request in flight is
        reconciled at the next start, as after a crash) and the stores closed. The
        policies stay."""
        self._closed = True
        running = list(self._running.values())
        for each in running:
            each.signer.close()
            each.engine.request_stop()
            each.task.cancel()
        for each in running:
            with contextlib.suppress(BaseException):
                await each.task
        self._running.clear()
        self._release_if_idle()
        with self._stores_lock:
            if self._journal is not None:
                self._journal.close()
            if self._bid_log is not None:
                self._bid_log.close()
            self._journal = self._bid_log = None


def _event_logger(policy_id: str) -> Callable[[str, dict[str, object]], None]:
    def emit(event: str, fields: dict[str, object]) -> None:
        log.info("%s %s %s", policy_id, event, " ".join(f"{k}={v!r}" for k, v in fields.items()))

    return emit
