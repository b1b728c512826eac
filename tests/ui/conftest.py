"""GUI test fixtures (pytest-qt, offscreen).

- `qloop`: ONE qasync loop for the whole session (function-scoped loops fail: see
  notes/qt-wallet-anchors.md section 4); each UI test runs with it as the running loop.
- `gui_thread`: catches blocking work on the GUI thread; scenarios `start()` it and end with
  `assert_not_blocked()`.
- `sandbox`: a real sandbox process (session), started through app/services/sandbox_process.
- `make_options` / `open_app`: the app on a temporary data directory with a fast vault KDF,
  an in-memory or absent keychain, a window-state file of its own and an injectable clock.
"""

from __future__ import annotations

import asyncio
import gc
import os
import select
import shutil
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import qasync
from keyring.backends.fail import Keyring as FailKeyring
from pytestqt.qtbot import QtBot

from app.services.profiles import ApiKeyStore
from app.services.sandbox_process import SandboxProcess, start_sandbox
from app.ui.context import AppContext, AppOptions
from app.ui.launch import build_window
from app.ui.main_window import MainWindow
from app.wallet.keyring_store import KeyringStore
from app.wallet.vault import Vault
from app.wallet.vault_file_store import FileStore
from tests.support.vaults import FAST_KDF as FAST_KDF  # a tiny Argon2id cost
from tests.ui.gui_thread import GuiThreadWatch
from tests.ui.helpers import FakeClock, MemoryKeyring, run_async, running


@pytest.fixture(scope="session")
def qloop(qapp: object) -> Iterator[asyncio.AbstractEventLoop]:
    # Earlier test packages leave a large heap; a full collection walking it would show up as
    # a GUI stall that the app itself never has. Freeze it out of later collections.
    gc.collect()
    gc.freeze()
    loop = qasync.QEventLoop(qapp, already_running=True)
    asyncio.events._set_running_loop(None)  # set per UI test only (other suites use their own)
    executor = qasync.QThreadExecutor(4)
    loop.set_default_executor(executor)
    yield loop
    executor.shutdown(wait=True)  # QThreads left running abort the interpreter at exit


@pytest.fixture(autouse=True)
def _on_qloop(qloop: asyncio.AbstractEventLoop) -> Iterator[None]:
    with running(qloop):
        yield


@pytest.fixture
def gui_thread(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> Iterator[GuiThreadWatch]:
    """Not started: a scenario calls `gui_thread.start()` once its own preparation is done
    (the test's synchronous set-up is not the app's) and `gui_thread.assert_not_blocked()` at
    the end."""
    watch = GuiThreadWatch(monkeypatch)
    yield watch
    watch.stop()


@pytest.fixture(scope="session")
def sandbox(
    qloop: asyncio.AbstractEventLoop, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[SandboxProcess]:
    process = run_async(qloop, start_sandbox(tmp_path_factory.mktemp("ui-sandbox") / "data"))
    yield process
    run_async(qloop, process.stop())


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "data"
    monkeypatch.setenv("BIDWALLET_DATA_DIR", str(path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # the sandbox's chain cache
    return path


@pytest.fixture
def keychain() -> MemoryKeyring:
    return MemoryKeyring()


OptionsFactory = Callable[..., AppOptions]


@pytest.fixture
def make_options(data_dir: Path, tmp_path: Path) -> OptionsFactory:
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
            if keychain is None:
                return Vault(FileStore(directory), FAST_KDF)
            return Vault(KeyringStore(keychain, service="bidwallet-test"), FAST_KDF)

        def api_keys_factory() -> ApiKeyStore:
            return ApiKeyStore(keychain if keychain is not None else FailKeyring())

        extra = {} if clock is None else {"clock": clock}
        return AppOptions(
            data_dir=data_dir,
            offline=offline,
            sandbox=sandbox,
            vault_factory=vault_factory,
            api_keys_factory=api_keys_factory,
            window_settings_file=tmp_path / "window.ini",
            idle_tick_ms=idle_tick_ms,
            **extra,
        )

    return make


@dataclass
class AppHarness:
    window: MainWindow
    start_task: asyncio.Task[None]
    tasks_before: set[asyncio.Task[object]]
    dialogs: list[object] = field(default_factory=list)
    closed: bool = False

    @property
    def context(self) -> AppContext:
        return self.window.context


@pytest.fixture
def open_app(qtbot: QtBot, qloop: asyncio.AbstractEventLoop) -> Iterator[Callable[..., AppHarness]]:
    """`open_app(options)`: the window shown and its startup running (wait on `ready`)."""
    opened: list[AppHarness] = []

    def open_(options: AppOptions) -> AppHarness:
        context = AppContext(options)
        window = build_window(context)
        before = asyncio.all_tasks(qloop)
        harness = AppHarness(window, qloop.create_task(window.controller.start()), before)
        context.dialog_opened.connect(harness.dialogs.append)
        window.show()
        opened.append(harness)
        return harness

    yield open_
    # The newest first: each one's settle then waits only for its own tasks, not for those of
    # an app opened after it and still running (its live updates never end by themselves).
    for harness in reversed(opened):
        close_app(harness, qloop)


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
        await asyncio.wait(pending, timeout=10)


@pytest.fixture
def xvfb_display() -> Iterator[str]:
    """A fresh Xvfb on a free display number (it picks one and writes it to -displayfd), the
    size of the smallest screen the window is made for (tests/ui/screenshots.SCREEN)."""
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (apt-get install xvfb)")
    read_fd, write_fd = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "1024x700x24", "-nolisten", "tcp"],
        pass_fds=(write_fd,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_fd)
    try:
        ready, _, _ = select.select([read_fd], [], [], 30)
        assert ready, "Xvfb did not report its display"
        number = os.read(read_fd, 32).decode().strip()
        yield f":{number}"
    finally:
        os.close(read_fd)
        server.terminate()
        server.wait(timeout=30)
