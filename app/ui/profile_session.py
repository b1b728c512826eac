"""The tabs' way to the use cases: a `ServiceContext` for the connected profile.

One `ProfileSession` per `AppContext` (`profile_session(context)`). It keeps what must outlive
one operation: the bid pacer (the spec's per-address pace spans every bid), the bidding
wallet's address, the signed cancel challenge, the service clock and the maker fee the service
publishes (the profile's own setting wins over it: `assumed_maker_fee`). The
contexts it hands out are per operation: `signing_context()` borrows the unlocked keys for one
operation (the WalletLock rule: nobody keeps them), `read_context()` holds public keys only,
so balances and lists still show while the wallet is locked.

Tests swap `clock` and `sleeper` (`use_time`) so waits move the sandbox clock instead of
sleeping.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from app.services.activity import TrackedResult
from app.services.maker_fee import AssumedMakerFee, assumed_maker_fee
from app.services.pacing import AsyncioSleeper, BidPacer, Clock, OffsetClock, Sleeper
from app.services.profiles import ServiceKind
from app.ui import strings
from app.ui.async_tools import run_blocking
from app.ui.controller import preload
from app.ui.profile_session_context import new_session_context

if TYPE_CHECKING:
    from app.core.pools import MakerFee
    from app.services.cancel import ChallengeCache
    from app.services.context import ServiceContext
    from app.services.key_vault import WalletKeys, WatchOnlyKeys
    from app.services.sandbox_facts import SandboxFacts
    from app.ui.context import AppContext
    from app.ui.service_connection import ServiceConnection

# The use cases the flow tabs call, imported in the executor before the first use: an import
# on the GUI thread would freeze the window for a moment.
SERVICE_MODULES = (
    "app.services.open_bids",
    "app.services.bids",
    "app.services.funding",
    "app.services.cancel",
    "app.services.withdraw",
    "app.services.inscription_bid",
    "app.services.listings",
    "app.services.listings_inventory",
    "app.services.sandbox_facts",
    "app.services.watch",
    "app.services.market",
    "app.services.psbt_flow",
    "app.core.bid_validation",
    "app.core.bid_message",
)


def not_connected_text(context: AppContext) -> str:
    """Why there is no connection right now: a profile is starting (it is being made), or none
    is (choose one), or the first-run dialog still waits for the user's choice."""
    if context.choosing_profile:
        return strings.CHOOSING_PROFILE_HINT
    return strings.CONNECTING_HINT if context.connecting else strings.NOT_CONNECTED_HINT


class NotReadyError(Exception):
    """The operation cannot start yet (not connected, locked, no keys): `user_message` says
    what to do."""

    def __init__(self, user_message: str) -> None:
        self.user_message = user_message
        super().__init__(user_message)


class ProfileSession(QObject):
    changed = Signal()  # connection, profile or lock state changed: views refresh

    def __init__(self, context: AppContext) -> None:
        super().__init__(context)
        self.context = context
        self._published_maker_fee: MakerFee | None = None  # the service's, where it says
        self.clock: Clock = OffsetClock()
        self.sleeper: Sleeper = AsyncioSleeper()
        self._time_injected = False
        self._pacer: BidPacer | None = None
        self._challenges: ChallengeCache | None = None
        self._bidding_wallet: str | None = None
        self._service_key: bytes | None = None  # the service's published key (the sandbox's)
        self._public: WatchOnlyKeys | None = None
        self._public_of: str | None = None  # the vault key name the public keys belong to
        self._services: ServiceConnection | None = None
        self._ready: asyncio.Future[None] | None = None
        self.sandbox_root: str | None = None  # set once /sandbox/info answered
        context.connection_changed.connect(self._connection_changed)
        context.profile_changed.connect(self._profile_changed)
        context.lock_changed.connect(self._lock_changed)
        self._lock_changed(context.wallet_lock.unlocked)

    # -- state ------------------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self.context.connection is not None

    @property
    def public_keys(self) -> WatchOnlyKeys | None:
        """The active profile's addresses and public keys, once known (None before)."""
        profile = self.context.profile
        if profile is None or profile.key_name is None or profile.key_name != self._public_of:
            return None
        return self._public

    @property
    def bidding_wallet(self) -> str | None:
        return self._bidding_wallet

    @property
    def service_public_key(self) -> bytes | None:
        """The service's key where it publishes one (a sandbox does): the bidding wallet is
        then recomputed, not taken on trust."""
        return self._service_key

    @property
    def data_dir(self) -> Path:
        """Where this machine keeps its records (the signature ledger among them)."""
        return self.context.options.data_dir

    @property
    def published_maker_fee(self) -> MakerFee | None:
        """The maker fee the connected service publishes (a sandbox does); None: none."""
        return self._published_maker_fee

    @property
    def assumed_maker_fee(self) -> AssumedMakerFee:
        """The maker fee the pools count: the profile's setting, else the service's, else
        the default; with where it came from."""
        profile = self.context.profile
        setting = None if profile is None else profile.maker_fee
        return assumed_maker_fee(setting, self._published_maker_fee)

    @property
    def maker_fee(self) -> MakerFee:
        return self.assumed_maker_fee.fee

    @property
    def challenges(self) -> ChallengeCache:
        """The signed cancel challenge, reused across operations of this connection."""
        if self._challenges is None:
            from app.services.cancel import ChallengeCache

            self._challenges = ChallengeCache()
        return self._challenges

    def use_time(self, clock: Clock, sleeper: Sleeper) -> None:
        """Tests: a clock and a sleeper of their own (kept across reconnections)."""
        self.clock, self.sleeper = clock, sleeper
        self._time_injected = True
        self._pacer = None

    def _connection_changed(self) -> None:
        if self.context.connection is not self._services:
            self._services = self.context.connection
            self._ready = None
            self.sandbox_root = None
            self._bidding_wallet = None
            self._service_key = None
            self._published_maker_fee = None
            self._challenges = None
        self.changed.emit()

    def _profile_changed(self) -> None:
        self.changed.emit()

    def _lock_changed(self, unlocked: bool) -> None:
        if unlocked:
            # Public keys and addresses are no secret: kept for the read-only views.
            self._public = self.context.wallet_lock.keys.watch_only()
            self._public_of = self.context.wallet_lock.profile_name
        self.changed.emit()

    # -- contexts ---------------------------------------------------------------------------

    def _clients(self) -> ServiceConnection:
        services = self.context.connection
        if services is None:
            raise NotReadyError(not_connected_text(self.context))
        return services

    def read_context(self) -> ServiceContext:
        """Public keys only: for balances, lists and building requests to review."""
        services = self._clients()
        public = self.public_keys
        if public is None:
            raise NotReadyError(strings.UNLOCK_FIRST_HINT)
        return self._make(services, public)

    def signing_context(self) -> ServiceContext:
        """The unlocked keys, for ONE operation: do not keep the context afterwards."""
        services = self._clients()
        if self.context.watch_only:
            raise NotReadyError(strings.WATCH_ONLY_CANNOT_SIGN)
        if not self.context.wallet_lock.unlocked:
            raise NotReadyError(strings.UNLOCK_TO_SIGN_HINT)
        return self._make(services, self.context.wallet_lock.keys)

    def _make(
        self, services: ServiceConnection, keys: WalletKeys | WatchOnlyKeys
    ) -> ServiceContext:
        if self._pacer is None:
            self._pacer = BidPacer(self.clock)
        ctx = new_session_context(self, services, keys)
        ctx.pacer = self._pacer
        if self._bidding_wallet is not None:
            ctx.remember_bidding_wallet(self._bidding_wallet)
        return ctx

    def remember_wallet(self, address: str) -> None:
        """Called by the contexts it made: the bidding wallet they learnt."""
        self._bidding_wallet = address

    # -- the service's own facts ------------------------------------------------------------

    async def ensure_ready(self) -> None:
        """Once per connection: the services modules loaded (in the executor), a watch-only
        profile's public keys read, and a sandbox's /sandbox/info (its maker fee and clock, so
        pre-flight checks count what the service counts). Concurrent callers share one run."""
        services = self._clients()
        task = self._ready
        if task is None or (task.done() and (task.cancelled() or task.exception() is not None)):
            task = self._ready = asyncio.ensure_future(self._get_ready(services))
        await asyncio.shield(task)
        if self.public_keys is None and self.context.watch_only:
            await self._load_watch_only()

    async def _get_ready(self, services: ServiceConnection) -> None:
        await run_blocking(preload, SERVICE_MODULES)
        root = _sandbox_root(self.context, services)
        if root is None:
            return
        from app.services.sandbox_facts import sandbox_facts

        facts = await sandbox_facts(root)
        if facts is None:  # not a sandbox, or not answering: the defaults stay
            return
        if services is self.context.connection:  # still the same connection
            self._apply_facts(facts)

    async def _load_watch_only(self) -> None:
        from app.services.key_vault import watch_only_public_keys

        profile = self.context.profile
        if profile is None or profile.key_name is None:
            return
        vault = await self.context.vault()
        public = await run_blocking(
            watch_only_public_keys, vault, profile.key_name, profile.network
        )
        if public is not None:
            self._public, self._public_of = public, profile.key_name

    def _apply_facts(self, facts: SandboxFacts) -> None:
        """The sandbox's maker fee, service key and clock, where it gave them."""
        self.sandbox_root = facts.root
        if facts.maker_fee is not None:
            self._published_maker_fee = facts.maker_fee
        if facts.service_public_key is not None:
            self._service_key = facts.service_public_key
        if facts.clock_ms is not None and not self._time_injected:
            self._set_clock_offset(facts.clock_ms - time.time_ns() // 1_000_000)

    def _set_clock_offset(self, offset_ms: int) -> None:
        clock = self.clock
        if isinstance(clock, OffsetClock):
            clock.offset_ms = max(clock.offset_ms, offset_ms)


def _sandbox_root(context: AppContext, services: ServiceConnection) -> str | None:
    """Where a sandbox's /sandbox API would be: the child process, or a custom profile whose
    marketplace URL ends in /v1 (the sandbox's layout). Never probed on the public service."""
    if context.sandbox is not None:
        return context.sandbox.url
    profile = context.profile
    if profile is None or profile.kind is ServiceKind.SATFLOW:
        return None
    url = services.marketplace_url.rstrip("/")
    return url[: -len("/v1")] if url.endswith("/v1") else None


_sessions: weakref.WeakKeyDictionary[AppContext, ProfileSession] = weakref.WeakKeyDictionary()


def profile_session(context: AppContext) -> ProfileSession:
    """The session of `context` (created on first use)."""
    session = _sessions.get(context)
    if session is None:
        session = _sessions[context] = ProfileSession(context)
    return session


@asynccontextmanager
async def tracked(context: AppContext, action: str, **details: Any) -> AsyncIterator[Any]:
    """Record the block in the Activity log (result or error); a plain block without one."""
    if context.activity is None:
        yield TrackedResult()
        return
    async with context.activity.track(action, **details) as result:
        yield result


def failure_text(error: BaseException) -> str:
    """A plain sentence for an error a user can meet; None of them quote secrets."""
    from app.services.errors import HttpError, NetError, ServiceError, TransportError

    if isinstance(error, NotReadyError | ServiceError):
        return error.user_message
    if isinstance(error, HttpError):
        code = f" ({error.error_code})" if error.error_code else ""
        return strings.SERVICE_REFUSED.format(message=error.message, code=code)
    if isinstance(error, TransportError):
        return strings.SERVICE_UNREACHABLE.format(service=error.service, reason=error.reason)
    if isinstance(error, NetError):
        return strings.SERVICE_BAD_ANSWER.format(details=error)
    raise error
