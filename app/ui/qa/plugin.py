"""Bidwallet's pytest plugin (the `bidwallet` pytest11 entry point; install the package with its
`qa` extra): fixtures that start the sandbox on loopback, open the app's window on it with a
fresh profile, and catch blocking work on the GUI thread. docs/qa.md shows how to use them.

Nothing here is imported until a test asks for a fixture: loading the plugin costs a test run
that does not use it nothing (no Qt, no sandbox).

- `bidwallet_loop` (session): the one qasync loop; `bidwallet_on_loop` makes it the running
  loop for a test (the window's async work runs on it).
- `bidwallet_sandbox` (session): a real sandbox process on 127.0.0.1 with a temporary data dir,
  as a `Sandbox` controller (`.url`, `.process`, the scenario API: app/ui/qa/sandbox.py).
- `bidwallet_faults`: the sandbox's faults for one test (`error`, `timeout`, `rate_limit`,
  `tamper`, ..., `fired()`), all removed when the test ends; the request journal
  (`bidwallet_sandbox.requests(path=..., method=...)`) is forgotten when it starts and ends.
- `bidwallet_data_dir`, `bidwallet_keychain`, `bidwallet_options`: a fresh data directory (the
  app's and the sandbox cache's environment variables pointed at it), an in-memory keychain,
  and the app's options on them (a cheap vault KDF, a window-state file of its own).
- `bidwallet_open_app`: `open_app(options)` shows a window and starts it; every window opened
  is closed the way the app exits at the end of the test.
- `bidwallet_app`: an `App` (app/ui/qa/app.py) on the session sandbox with a fresh profile,
  unlocked by typing its password and funded (`app.assets`: 5 BTC, a demo collection's
  inscriptions, a rune balance); `bidwallet_app_factory()` opens another such window (its own
  data directory), e.g. a second user.
- `bidwallet_gui_thread`: the stall detector (`start()`, then `assert_not_blocked()`).
- `bidwallet_xvfb`: a fresh Xvfb display for screenshots (skips without Xvfb).
- `bidwallet_screenshot`: `shot(name, widget=None)` saves the window (or a dialog) as a PNG in
  `--bidwallet-screenshots DIR` (default: the test's tmp_path), named after the test.

Without a display (no DISPLAY or WAYLAND_DISPLAY) and no QT_QPA_PLATFORM chosen, Qt runs on its
offscreen platform: a scenario runs headless as it is; under `xvfb-run` it uses the X server.
"""

from __future__ import annotations

import asyncio
import os
import select
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pytestqt.qtbot import QtBot

    from app.services.qa_vault import MemoryKeyring
    from app.ui.qa.app import App
    from app.ui.qa.gui_thread import GuiThreadWatch
    from app.ui.qa.harness import AppHarness, OptionsFactory
    from app.ui.qa.sandbox import Sandbox
    from app.ui.qa.sandbox_faults import SandboxFaults

XVFB_SCREEN = "1024x700x24"  # the smallest screen the window is made for
XVFB_START_TIMEOUT_S = 30
SCREENSHOTS_OPTION = "--bidwallet-screenshots"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("bidwallet").addoption(
        SCREENSHOTS_OPTION,
        metavar="DIR",
        default=None,
        help="where bidwallet_screenshot saves its PNGs (default: each test's tmp_path)",
    )


def pytest_configure(config: pytest.Config) -> None:
    # Headless by default: Qt's xcb platform aborts the process without a display.
    has_display = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    if not has_display:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(scope="session")
def bidwallet_loop(qapp: object) -> Iterator[asyncio.AbstractEventLoop]:
    from app.ui.qa.loop import session_loop

    loop, executor = session_loop(qapp)
    yield loop
    executor.shutdown(wait=True)


@pytest.fixture
def bidwallet_on_loop(bidwallet_loop: asyncio.AbstractEventLoop) -> Iterator[None]:
    from app.ui.qa.loop import running

    with running(bidwallet_loop):
        yield


@pytest.fixture(scope="session")
def bidwallet_sandbox(
    bidwallet_loop: asyncio.AbstractEventLoop, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Sandbox]:
    """The `Sandbox` controller (app/ui/qa/sandbox.py) of the session's sandbox process:
    `.url`, `.process`, and the scenario API (fund, mine, clock, items, the market)."""
    from app.services.sandbox_process import start_sandbox
    from app.ui.qa.loop import run_async
    from app.ui.qa.sandbox import Sandbox

    data = tmp_path_factory.mktemp("bidwallet-sandbox") / "data"
    process = run_async(bidwallet_loop, start_sandbox(data))
    sandbox = Sandbox(process, bidwallet_loop)
    yield sandbox
    sandbox.close()
    run_async(bidwallet_loop, process.stop())


@pytest.fixture
def bidwallet_faults(bidwallet_sandbox: Sandbox) -> Iterator[SandboxFaults]:
    """The session sandbox's faults for one test (also `bidwallet_sandbox.faults` meanwhile):
    none armed when it starts, every one removed when it ends; the request journal forgotten
    at both. Outside it `sandbox.faults` refuses, so no fault outlives its test on the
    shared sandbox."""
    with bidwallet_sandbox.fault_scope() as faults:
        yield faults


@pytest.fixture
def bidwallet_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "data"
    monkeypatch.setenv("BIDWALLET_DATA_DIR", str(path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # the sandbox's chain cache
    return path


@pytest.fixture
def bidwallet_keychain() -> MemoryKeyring:
    from app.services.qa_vault import MemoryKeyring

    return MemoryKeyring()


@pytest.fixture
def bidwallet_options(bidwallet_data_dir: Path, tmp_path: Path) -> OptionsFactory:
    """`make(offline=False, sandbox=False, keychain=None, clock=None, idle_tick_ms=60000)`."""
    from app.ui.qa.harness import options_factory

    return options_factory(bidwallet_data_dir, tmp_path / "window.ini")


@pytest.fixture
def bidwallet_open_app(
    qtbot: QtBot, bidwallet_loop: asyncio.AbstractEventLoop, bidwallet_on_loop: None
) -> Iterator[Callable[..., AppHarness]]:
    """`open_app(options)`: the window shown and its startup running."""
    from app.ui.qa.harness import close_app, open_window

    opened: list[AppHarness] = []

    def open_(options: object) -> AppHarness:
        harness = open_window(options, bidwallet_loop)  # type: ignore[arg-type]
        opened.append(harness)
        return harness

    yield open_
    # The newest first: each one's settle then waits only for its own tasks, not for those of
    # an app opened after it and still running (its live updates never end by themselves).
    for harness in reversed(opened):
        close_app(harness, bidwallet_loop)


@pytest.fixture
def bidwallet_app_factory(
    qtbot: QtBot,
    bidwallet_loop: asyncio.AbstractEventLoop,
    bidwallet_sandbox: Sandbox,
    bidwallet_options: OptionsFactory,
    bidwallet_open_app: Callable[..., AppHarness],
    tmp_path: Path,
) -> Callable[..., App]:
    """`open_funded(service_root=None)`: a window on a fresh funded, unlocked profile of the
    session sandbox (`service_root`: what the profile talks to, e.g. a proxy in front of it).
    The first uses the test's data directory, each next one a directory of its own."""
    from app.ui.qa.app import App
    from app.ui.qa.harness import options_factory
    from app.ui.qa.profiles import open_funded_app

    opened: list[App] = []

    def open_funded(service_root: str | None = None) -> App:
        if opened:
            n = len(opened)
            options = options_factory(tmp_path / f"data-{n}", tmp_path / f"window-{n}.ini")()
        else:
            options = bidwallet_options()
        funded = open_funded_app(
            qtbot,
            bidwallet_open_app,
            options,
            bidwallet_sandbox.process,
            bidwallet_loop,
            service_root,
        )
        app = App(funded.app, qtbot, bidwallet_loop, funded.root_url, funded.assets)
        opened.append(app)
        return app

    return open_funded


@pytest.fixture
def bidwallet_app(bidwallet_app_factory: Callable[..., App]) -> App:
    """A window on a fresh funded, unlocked profile of the session sandbox."""
    return bidwallet_app_factory()


@pytest.fixture
def bidwallet_gui_thread(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> Iterator[GuiThreadWatch]:
    """Not started: a scenario calls `start()` once its own preparation is done (the test's
    synchronous set-up is not the app's) and `assert_not_blocked()` at the end."""
    from app.ui.qa.gui_thread import GuiThreadWatch

    watch = GuiThreadWatch(monkeypatch)
    yield watch
    watch.stop()


@pytest.fixture
def bidwallet_xvfb() -> Iterator[str]:
    """A fresh Xvfb on a free display number (it picks one and writes it to -displayfd); the
    display's name (":N")."""
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (apt-get install xvfb)")
    read_fd, write_fd = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", XVFB_SCREEN, "-nolisten", "tcp"],
        pass_fds=(write_fd,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_fd)
    try:
        ready, _, _ = select.select([read_fd], [], [], XVFB_START_TIMEOUT_S)
        assert ready, "Xvfb did not report its display"
        number = os.read(read_fd, 32).decode().strip()
        yield f":{number}"
    finally:
        os.close(read_fd)
        server.terminate()
        server.wait(timeout=XVFB_START_TIMEOUT_S)


@pytest.fixture
def bidwallet_screenshot(
    request: pytest.FixtureRequest, tmp_path: Path, bidwallet_on_loop: None
) -> Callable[..., Path]:
    """`shot(name, widget=None) -> Path`: `widget` (by default the newest window shown) drawn
    as it is on screen, saved as `<test>-<name>.png`."""
    from app.ui.qa.screenshots import save_screenshot

    chosen = request.config.getoption(SCREENSHOTS_OPTION)
    folder = Path(chosen) if chosen else tmp_path
    test = request.node.name

    def shot(name: str, widget: object = None) -> Path:
        return save_screenshot(folder / f"{test}-{name}.png", widget)

    return shot
