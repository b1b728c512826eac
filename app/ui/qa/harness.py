"""The app's window in a test: options on a temporary data directory (a cheap vault KDF, an
in-memory or absent keychain, a window-state file of its own, an injectable clock), the window
opened with its startup running, and closed the way the app exits."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from keyring.backends.fail import Keyring as FailKeyring

from app.services.profiles import ApiKeyStore
from app.services.qa_vault import MemoryKeyring, Vault, file_vault, keychain_vault
from app.ui.context import AppContext, AppOptions
from app.ui.launch import build_window
from app.ui.main_window import MainWindow
from app.ui.qa.loop import FakeClock, run_async

OptionsFactory = Callable[..., AppOptions]
SETTLE_TIMEOUT_S = 10


def options_factory(data_dir: Path, window_settings_file: Path) -> OptionsFactory:
    """`make(offline=False, sandbox=False, keychain=None, clock=None, idle_tick_ms=60000)`;
    without a keychain the vault is the vault file and API keys cannot be stored."""

    def make(
        *,
        offline: bool = False,
        sandbox: bool = False,
        keychain: MemoryKeyring | None = None,
        clock: FakeClock | None = None,
        idle_tick_ms: int = 60_000,
    ) -> AppOptions:
        def vault_factory(directory: Path) -> Vault:
            return file_vault(directory) if keychain is None else keychain_vault(keychain)

        def api_keys_factory() -> ApiKeyStore:
            return ApiKeyStore(keychain if keychain is not None else FailKeyring())

        extra = {} if clock is None else {"clock": clock}
        return AppOptions(
            data_dir=data_dir,
            offline=offline,
            sandbox=sandbox,
            vault_factory=vault_factory,
            api_keys_factory=api_keys_factory,
            window_settings_file=window_settings_file,
            idle_tick_ms=idle_tick_ms,
            **extra,
        )

    return make


@dataclass
class AppHarness:
    """An opened window: `dialogs` lists every dialog it opened, in order."""

    window: MainWindow
    start_task: asyncio.Task[None]
    tasks_before: set[asyncio.Task[object]]
    dialogs: list[object] = field(default_factory=list, repr=False)  # some deleted already
    closed: bool = False

    @property
    def context(self) -> AppContext:
        return self.window.context


def open_window(options: AppOptions, loop: asyncio.AbstractEventLoop) -> AppHarness:
    """The window built and shown, its startup running (wait on `controller.ready`)."""
    context = AppContext(options)
    window = build_window(context)
    before = asyncio.all_tasks(loop)
    harness = AppHarness(window, loop.create_task(window.controller.start()), before)
    context.dialog_opened.connect(harness.dialogs.append)
    window.show()
    return harness


def close_app(harness: AppHarness, loop: asyncio.AbstractEventLoop) -> None:
    """What the app does on exit: close the window, cancel startup, stop everything."""
    if harness.closed:
        return
    harness.closed = True
    if harness.window.isVisible():
        harness.window.close()
    if not harness.start_task.done():
        harness.start_task.cancel()
    run_async(loop, harness.window.controller.shutdown())
    run_async(loop, settle(harness.tasks_before))
    harness.window.deleteLater()


async def settle(before: set[asyncio.Task[object]]) -> None:
    """Let every task the window started finish (or take its cancellation) before the next
    test, so none is left pending on the session loop."""
    current = asyncio.current_task()
    pending = [t for t in asyncio.all_tasks() if t is not current and t not in before]
    if pending:
        await asyncio.wait(pending, timeout=SETTLE_TIMEOUT_S)
