"""The app's flow around the window: first run, the sandbox child process, key setup, unlock,
switching profiles. Every step is a coroutine on the one qasync loop; blocking work goes to
the executor; every dialog is announced on `context.dialog_opened` before it is shown."""

from __future__ import annotations

import asyncio
import importlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QDialog, QWidget

from app.services.profiles import (
    ApiKeyStore,
    ApiKeyUnavailableError,
    AppProfile,
    AppSettings,
    ProfileFileError,
    ProfileSettingsError,
    ServiceKind,
)
from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.async_tools import exec_dialog, run_blocking
from app.ui.context import AppContext
from app.ui.dialogs.first_run import FirstRunChoice, FirstRunDialog, unique_name
from app.ui.sandbox_setup import discard_early_launch, start_profile_sandbox
from app.ui.service_connection import ServiceConnection

log = logging.getLogger(__name__)

# Imported in the executor before the first use: importing httpx or embit takes a few hundred
# milliseconds, which on the GUI thread would freeze the window.
PRELOAD_MODULES = ("app.services.session", "app.services.key_vault", "app.services.key_setup")
PRELOAD_ONLINE_MODULES = ("app.services.connection", "app.services.sandbox_demo")


def preload(names: tuple[str, ...]) -> None:
    for name in names:
        importlib.import_module(name)


def initial_profile(settings: AppSettings, *, sandbox: bool) -> tuple[AppProfile | None, bool]:
    """The profile a start opens, and whether it is new (to be saved): with --sandbox the
    first sandbox profile, or a new one; else the active profile."""
    if sandbox:
        existing = settings.first_of_kind(ServiceKind.SANDBOX)
        if existing is not None:
            return existing, False
        name = unique_name("Sandbox", {p.name for p in settings.profiles})
        return AppProfile.sandbox(name), True
    return settings.active_profile, False


def _log_warm_failure(task: asyncio.Future[Any]) -> None:
    # Not fatal: the first use tries again and reports what fails.
    if not task.cancelled() and task.exception() is not None:
        log.warning("opening ahead of use failed: %r", task.exception())


class AppController(QObject):
    ready = Signal()  # start() finished: a profile is active (or none could be)

    def __init__(
        self,
        context: AppContext,
        parent_widget: Callable[[], QWidget | None] = lambda: None,
        warm_modules: tuple[str, ...] = (),
    ) -> None:
        super().__init__()
        self.context = context
        self._parent = parent_widget
        # Imported in the executor while a profile opens: the first refresh needs them.
        self._warm_modules = warm_modules
        self._warming: asyncio.Future[None] | None = None
        self._keychain: asyncio.Future[ApiKeyStore] | None = None
        # Awaited first at shutdown, while the connection is still open (the window adds
        # the strategies' close: their engines stop after their step).
        self.before_shutdown: list[Callable[[], Awaitable[None]]] = []

    # -- dialogs ----------------------------------------------------------------------------

    async def show_dialog(self, dialog: QDialog) -> bool:
        self.context.dialog_opened.emit(dialog)
        try:
            return await exec_dialog(dialog) == QDialog.DialogCode.Accepted
        finally:
            dialog.deleteLater()

    async def ask_new_profile(self) -> FirstRunChoice | None:
        if self._keychain is not None:  # opened at the start: one keychain, not two
            await asyncio.gather(self._keychain, return_exceptions=True)
        keychain = (await self.context.api_keys()).available
        taken = {p.name for p in self.context.settings.profiles}
        dialog = FirstRunDialog(taken, self._parent(), keychain=keychain)
        return dialog.choice if await self.show_dialog(dialog) else None

    # -- start ------------------------------------------------------------------------------

    async def start(self) -> None:
        # The context starts "connecting" (when online): true until this ends.
        try:
            await self._start()
        finally:
            self._connecting_ended()

    def _connecting_ended(self) -> None:
        context = self.context
        context.connecting = False
        if context.connection is None:  # it ended without one: "not connected" is true now
            context.connection_changed.emit()

    async def _start(self) -> None:
        context = self.context
        online = () if context.options.offline else PRELOAD_ONLINE_MODULES
        await run_blocking(preload, PRELOAD_MODULES + online)
        if online:
            if self._warm_modules:
                warming = self._warming = asyncio.ensure_future(
                    run_blocking(preload, self._warm_modules)
                )
                warming.add_done_callback(_log_warm_failure)
            # Opening the keychain finds its backend (up to a second on a busy machine): done
            # while the profile's sandbox and keys open, not after them.
            keychain = self._keychain = asyncio.ensure_future(context.api_keys())
            keychain.add_done_callback(_log_warm_failure)
        try:
            context.settings = await run_blocking(context.store.load)
        except ProfileFileError as exc:
            context.error(strings.PROFILE_FILE_DAMAGED.format(details=exc))
            await discard_early_launch(context)
            self.ready.emit()
            return
        profile = await self._initial_profile(context.settings)
        if profile is None and not context.options.offline:
            choice = await self._ask_first_profile()
            if choice is not None:
                profile = await self._add(choice)
        if profile is None:
            context.error(
                strings.OFFLINE_NO_PROFILES
                if context.options.offline
                else strings.NO_PROFILE_CONFIGURED
            )
        else:
            await self.activate(profile)
        await discard_early_launch(context)
        self.ready.emit()

    async def _ask_first_profile(self) -> FirstRunChoice | None:
        """The first-run dialog; while it waits, nothing is connecting (the status bar and
        the tabs say no profile is chosen yet, not "Connecting…")."""
        context = self.context
        context.connecting, context.choosing_profile = False, True
        context.connection_changed.emit()
        try:
            return await self.ask_new_profile()
        finally:
            context.choosing_profile = False

    async def _initial_profile(self, settings: AppSettings) -> AppProfile | None:
        options = self.context.options
        profile, new = initial_profile(settings, sandbox=options.sandbox and not options.offline)
        if new and profile is not None:
            await self.context.update_settings(lambda s: s.with_profile(profile))
        return profile

    async def _add(self, choice: FirstRunChoice) -> AppProfile:
        context = self.context
        if choice.api_key:
            await self._store_api_key(choice.profile.name, choice.api_key)
        await context.update_settings(lambda s: s.with_profile(choice.profile))
        return choice.profile

    async def _store_api_key(self, profile_name: str, api_key: str) -> None:
        store = await self.context.api_keys()
        try:
            await run_blocking(store.set, profile_name, api_key)
        except ApiKeyUnavailableError:
            self.context.session_api_keys[profile_name] = api_key
            self.context.error(strings.API_KEY_NOT_STORED)

    # -- profiles ---------------------------------------------------------------------------

    async def add_profile(self) -> None:
        choice = await self.ask_new_profile()
        if choice is not None:
            await self.activate(await self._add(choice))

    async def switch_profile(self, name: str) -> None:
        profile = self.context.settings.get(name)
        if profile is not None:
            await self.activate(profile)

    async def activate(self, profile: AppProfile) -> None:
        """Make `profile` the active one: stop the old connection, start the sandbox if it is
        one, set up or unlock its keys, and connect (never when offline)."""
        context = self.context
        # Until this ends, "not connected" is not true yet: the tabs say "connecting".
        context.connecting = True
        try:
            await self._activate(profile)
        finally:
            self._connecting_ended()

    async def _activate(self, profile: AppProfile) -> None:
        context = self.context
        await context.close_connection()
        context.wallet_lock.lock()
        context.watch_only = False
        await context.update_settings(lambda s: s.with_profile(profile).with_active(profile.name))
        context.set_profile(profile)
        sandbox: SandboxProcess | None = None
        if profile.kind is ServiceKind.SANDBOX and not context.options.offline:
            outcome = await start_profile_sandbox(context, profile)
            if outcome is None:
                return
            sandbox, profile = outcome
        elif profile.key_name is None and not context.options.offline:
            profile = await self._setup_keys(profile)
        elif profile.key_name is not None and profile.kind is not ServiceKind.SANDBOX:
            await self._unlock_remembered(profile)
        await self._note_watch_only(profile)
        if not context.options.offline:
            await self._connect(profile, sandbox)

    async def _note_watch_only(self, profile: AppProfile) -> None:
        watch_only = False
        if profile.key_name is not None:
            from app.services.key_vault import has_secret

            vault = await self.context.vault()
            try:
                watch_only = not await run_blocking(has_secret, vault, profile.key_name)
            except Exception as exc:  # a missing or damaged entry: unlock will say what
                log.warning("cannot read the key of %r: %s", profile.name, type(exc).__name__)
        self.context.watch_only = watch_only
        self.context.profile_changed.emit()

    async def _connect(self, profile: AppProfile, sandbox: SandboxProcess | None) -> None:
        context = self.context
        if self._keychain is not None:  # opened at the start: one keychain, not two
            await asyncio.gather(self._keychain, return_exceptions=True)
        api_key = await context.api_key_for(profile)
        if api_key and context.activity is not None:
            context.activity.add_known_secret(api_key)
        try:
            connection = ServiceConnection.open(profile, api_key=api_key, sandbox=sandbox)
        except ProfileSettingsError as exc:  # e.g. an API key for plain http: nothing sent
            context.error(strings.NOT_CONNECTED_SETTINGS.format(reason=exc))
            return
        context.connection = connection
        context.connection.tell_rate_limit_waits(context.info_for)
        context.connection_changed.emit()
        context.info(strings.CONNECTED.format(url=context.connection.marketplace_url))

    async def reconnect(self) -> None:
        """Activate the profile again, from its keys on (a change they depend on: the
        network): the wallet locks."""
        if self.context.profile is not None:
            await self.activate(self.context.profile)

    async def reopen_clients(self) -> None:
        """New clients for the active profile's saved URLs and request rate. Its keys are the
        same, so the wallet stays as it was (unlocked or not) and a sandbox keeps running; a
        profile that is not connected yet is activated instead."""
        context = self.context
        profile = context.profile
        if profile is None or context.options.offline:
            return
        old = context.connection
        if old is None:
            await self.activate(profile)
            return
        context.connection = None
        await old.aclose()
        await self._connect(profile, context.sandbox)

    async def remove_profile(self, name: str) -> None:
        context = self.context
        if context.profile is not None and context.profile.name == name:
            context.error(strings.SETTINGS_REMOVE_ACTIVE)
            return
        await context.update_settings(lambda s: s.without(name))
        store = await context.api_keys()
        await run_blocking(store.delete, name)

    # -- keys -------------------------------------------------------------------------------

    async def _setup_keys(self, profile: AppProfile) -> AppProfile:
        from app.services.key_vault import key_names
        from app.ui.dialogs.key_setup import KeySetupDialog

        vault = await self.context.vault()
        key_name = unique_name(profile.name, set(await run_blocking(key_names, vault)))
        dialog = KeySetupDialog(vault, key_name, profile.name, profile.network, self._parent())
        if not await self.show_dialog(dialog) or dialog.result_value is None:
            return profile
        result = dialog.result_value
        profile = replace(profile, key_name=result.key_name)
        await self.context.update_settings(lambda s: s.with_profile(profile))
        if result.keys is not None:
            self.context.wallet_lock.unlock(result.keys, result.key_name)
        return profile

    async def _unlock_remembered(self, profile: AppProfile) -> None:
        from app.services.key_vault import unlock_remembered

        assert profile.key_name is not None
        vault = await self.context.vault()
        try:
            keys = await run_blocking(unlock_remembered, vault, profile.key_name)
        except Exception as exc:  # a locked keychain or damaged entry: unlock by hand later
            log.warning("no unlock with the remembered key: %s", type(exc).__name__)
            return
        if keys is not None:
            self.context.wallet_lock.unlock(keys, profile.key_name)

    async def unlock(self) -> bool:
        """Ask for the password of the active profile's keys; True when unlocked."""
        from app.services.key_vault import has_secret
        from app.ui.dialogs.unlock import UnlockDialog

        context = self.context
        profile = context.profile
        if profile is None or profile.key_name is None:
            context.error(strings.NO_PROFILE_CONFIGURED)
            return False
        if context.wallet_lock.unlocked:
            return True
        vault = await context.vault()
        if not await run_blocking(has_secret, vault, profile.key_name):
            context.error(strings.WATCH_ONLY_NO_UNLOCK)
            return False
        if profile.sandbox_only:
            from app.services.sandbox_demo import unlock_demo_key

            keys = await run_blocking(unlock_demo_key, vault, profile.key_name)
            context.wallet_lock.unlock(keys, profile.key_name)
            return True
        dialog = UnlockDialog(vault, profile.key_name, profile.name, self._parent())
        if await self.show_dialog(dialog) and dialog.keys is not None:
            context.wallet_lock.unlock(dialog.keys, profile.key_name)
            dialog.keys = None
            return True
        return False

    def lock(self) -> None:
        self.context.wallet_lock.lock()

    async def shutdown(self) -> None:
        for close in self.before_shutdown:
            await close()
        await discard_early_launch(self.context)
        await self.context.shutdown()
