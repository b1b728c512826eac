"""What the window and its tabs share: options, profiles, the key session, the activity log,
the network services (None when offline or not connected) and the app-wide signals."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QSettings, Signal

from app.services.activity import ActivityEntry, ActivityLog
from app.services.profiles import ApiKeyStore, AppProfile, AppSettings, ProfileStore
from app.services.session import WalletLock
from app.ui import strings
from app.ui.async_tools import run_blocking

if TYPE_CHECKING:
    from app.services.key_vault import Vault
    from app.services.sandbox_process import SandboxProcess
    from app.ui.service_connection import ServiceConnection

log = logging.getLogger(__name__)

PASSING_NOTICE_GRACE_MS = 500  # a notice about a wait stays this long after the wait ends


def _default_vault(data_dir: Path) -> Vault:
    from app.services.key_vault import open_vault

    return open_vault(data_dir)


def _default_api_keys() -> ApiKeyStore:
    return ApiKeyStore()


@dataclass(frozen=True)
class AppOptions:
    """How the app was started, plus the seams tests use (vault, keychain, clock, files)."""

    data_dir: Path
    offline: bool = False
    sandbox: bool = False
    vault_factory: Callable[[Path], Vault] = _default_vault
    api_keys_factory: Callable[[], ApiKeyStore] = _default_api_keys
    window_settings_file: Path | None = None  # None: the user's native settings location
    idle_tick_ms: int = 5000
    clock: Callable[[], float] = time.monotonic


class AppContext(QObject):
    profile_changed = Signal()
    lock_changed = Signal(bool)  # True when unlocked
    connection_changed = Signal()
    activity_added = Signal(object)  # ActivityEntry
    notice = Signal(str, str)  # level ("info", "error"), text
    passing_notice = Signal(str, int)  # text, milliseconds it stays true (a wait it describes)
    theme_changed = Signal(str)  # "light" or "dark"
    dialog_opened = Signal(object)  # every dialog the app opens (tests drive them)

    def __init__(self, options: AppOptions) -> None:
        super().__init__()
        self.options = options
        self.store = ProfileStore(options.data_dir)
        self.settings = AppSettings()
        self.profile: AppProfile | None = None
        self.wallet_lock = WalletLock(600, options.clock)
        self.wallet_lock.subscribe(self.lock_changed.emit)
        self.activity: ActivityLog | None = None
        self.connection: ServiceConnection | None = None
        self.sandbox: SandboxProcess | None = None
        self.sandbox_starting = False
        # The app or a profile is starting (its keys, sandbox, clients): not connected yet.
        self.connecting = not options.offline
        # The first-run dialog waits for the user's choice: nothing connects until it is made.
        self.choosing_profile = False
        self.watch_only = False  # the active profile's key holds no secret
        self.session_api_keys: dict[str, str] = {}  # only when there is no system keychain
        self._vault: Vault | None = None
        self._api_keys: ApiKeyStore | None = None
        self._unsubscribe_activity: Callable[[], None] | None = None
        self._settings_lock = asyncio.Lock()

    # -- lazily opened stores (their first use may touch the keychain: executor) -------------

    async def vault(self) -> Vault:
        if self._vault is None:
            self._vault = await run_blocking(self.options.vault_factory, self.options.data_dir)
        return self._vault

    async def api_keys(self) -> ApiKeyStore:
        if self._api_keys is None:
            self._api_keys = await run_blocking(self.options.api_keys_factory)
        return self._api_keys

    async def api_key_for(self, profile: AppProfile) -> str | None:
        if profile.name in self.session_api_keys:
            return self.session_api_keys[profile.name]
        store = await self.api_keys()
        return await run_blocking(store.get, profile.name)

    # -- profiles ---------------------------------------------------------------------------

    async def update_settings(self, change: Callable[[AppSettings], AppSettings]) -> None:
        """Apply `change` to the settings as they are when this write's turn comes, write the
        result (atomically, with fsyncs: in the executor, one write at a time, in order), then
        make it current. Settings computed before waiting would undo a write made meanwhile
        (a theme chosen while the demo wallet's key was saved came back as System). A failed
        write raises (so does `change`) and changes nothing."""
        async with self._settings_lock:
            settings = change(self.settings)
            if settings != self.settings:
                await run_blocking(self.store.save, settings)
            self.settings = settings
        if self.profile is not None:
            self.profile = settings.get(self.profile.name) or self.profile
            self.wallet_lock.timeout_s = self.profile.lock_timeout_s
        self.profile_changed.emit()

    def set_profile(self, profile: AppProfile | None) -> None:
        """Make `profile` current: its activity log, its lock timeout."""
        if self._unsubscribe_activity is not None:
            self._unsubscribe_activity()
            self._unsubscribe_activity = None
        self.profile = profile
        self.activity = None
        if profile is not None:
            self.wallet_lock.timeout_s = profile.lock_timeout_s
            self.activity = ActivityLog.in_dir(self.store.profile_dir(profile))
            self._unsubscribe_activity = self.activity.subscribe(self._emit_activity)
        self.profile_changed.emit()

    def _emit_activity(self, entry: ActivityEntry) -> None:
        self.activity_added.emit(entry)

    def profile_dir(self) -> Path | None:
        return None if self.profile is None else self.store.profile_dir(self.profile)

    def window_settings(self) -> QSettings:
        """QSettings for window state only (geometry, splitter and tab positions)."""
        fmt = QSettings.Format.IniFormat
        if self.options.window_settings_file is not None:
            return QSettings(str(self.options.window_settings_file), fmt)
        return QSettings(fmt, QSettings.Scope.UserScope, strings.ORG_NAME, "bidwallet")

    def info(self, text: str) -> None:
        self.notice.emit("info", text)

    def error(self, text: str) -> None:
        self.notice.emit("error", text)

    def info_for(self, text: str, seconds: float) -> None:
        """`text` in the status bar for about `seconds` (the wait it describes), not longer."""
        self.passing_notice.emit(text, PASSING_NOTICE_GRACE_MS + max(0, round(seconds * 1000)))

    # -- connection -------------------------------------------------------------------------

    async def close_connection(self) -> None:
        """Close the network clients and stop the sandbox, if any."""
        services, self.connection = self.connection, None
        if services is not None:
            await services.aclose()
        sandbox, self.sandbox = self.sandbox, None
        if sandbox is not None:
            await sandbox.stop()
        if services is not None or sandbox is not None:
            self.connection_changed.emit()

    async def shutdown(self) -> None:
        self.wallet_lock.lock()
        await self.close_connection()
