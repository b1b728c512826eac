"""Start the desktop app: QApplication, the one qasync loop, error reporting, the window.

`bidwallet` opens the main window; `--sandbox` goes straight to the sandbox profile;
`--offline` opens the offline signer, which never constructs a network client.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from logging.handlers import RotatingFileHandler
from pathlib import Path
from typing import TYPE_CHECKING

import qasync
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from app.services.profiles import ProfileFileError, Theme, default_data_dir
from app.ui import strings
from app.ui.context import AppContext, AppOptions
from app.ui.controller import AppController
from app.ui.error_reporting import ErrorReporter
from app.ui.icons import app_icon
from app.ui.main_window import MainWindow
from app.ui.profile_session import SERVICE_MODULES
from app.ui.sandbox_setup import adopt_early
from app.ui.startup_probe import install_startup_probe
from app.ui.tabs import tabs_for
from app.ui.theme import apply_theme

if TYPE_CHECKING:
    from app.services.sandbox_early import SpawnedSandbox

log = logging.getLogger(__name__)


def build_window(context: AppContext) -> MainWindow:
    """The main window (or the offline signer's) with its controller, not yet shown."""
    holder: list[MainWindow] = []
    controller = AppController(
        context, lambda: holder[0] if holder else None, warm_modules=SERVICE_MODULES
    )
    window = MainWindow(context, controller, tabs_for(context.options.offline))
    holder.append(window)
    return window


def setup_logging(data_dir: Path) -> Path:
    log_dir = data_dir / "logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    log_path = log_dir / "bidwallet.log"
    handler = RotatingFileHandler(log_path, maxBytes=1_000_000, backupCount=3, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.setLevel(logging.INFO)
    root.addHandler(handler)
    logging.getLogger("httpx").setLevel(logging.WARNING)  # app.net logs requests without queries
    console = logging.StreamHandler()
    console.setLevel(logging.WARNING)
    root.addHandler(console)
    return log_path


def create_application() -> QApplication:
    QGuiApplication.setHighDpiScaleFactorRoundingPolicy(
        QGuiApplication.highDpiScaleFactorRoundingPolicy().PassThrough
    )
    app = QApplication([sys.argv[0] if sys.argv else "bidwallet"])
    app.setApplicationName("bidwallet")
    app.setOrganizationName(strings.ORG_NAME)
    app.setApplicationDisplayName(strings.APP_NAME)
    app.setDesktopFileName("io.bidwallet.Bidwallet")  # the .desktop file's id
    app.setWindowIcon(app_icon())
    app.setQuitOnLastWindowClosed(False)  # the main coroutine ends the app after cleanup
    return app


def run(
    *,
    offline: bool,
    sandbox: bool,
    smoke_test: bool = False,
    early_sandbox: SpawnedSandbox | None = None,
) -> int:
    """The app until its window closes; its exit code. `smoke_test` (only with `sandbox`):
    the window is driven through one bid by `app.ui.smoke_test`, whose result is the code.
    `early_sandbox`: the sandbox child spawned before Qt loaded, for the start to take."""
    data_dir = default_data_dir()
    log_path = setup_logging(data_dir)
    app = create_application()
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    options = AppOptions(data_dir=data_dir, offline=offline, sandbox=sandbox)
    with loop:
        code: int = loop.run_until_complete(
            _main(app, loop, options, log_path, smoke_test, early_sandbox)
        )
    return code


async def _main(
    app: QApplication,
    loop: asyncio.AbstractEventLoop,
    options: AppOptions,
    log_path: Path,
    smoke_test: bool = False,
    early_sandbox: SpawnedSandbox | None = None,
) -> int:
    context = AppContext(options)
    reporter = ErrorReporter(log_path)
    reporter.install(loop)
    try:
        theme = context.store.load().theme
    except ProfileFileError:
        theme = Theme.SYSTEM  # the controller reports the damaged file
    apply_theme(app, theme)
    if early_sandbox is not None:  # spawned before Qt loaded (app/__main__.py)
        await adopt_early(context, early_sandbox)
    window = build_window(context)
    reporter.set_parent_widget(window)
    closed = asyncio.Event()
    window.close_requested.connect(closed.set)
    smoke = None
    if smoke_test and options.sandbox:  # before the start: it must see `ready` and every dialog
        from app.ui.smoke_test import start_smoke_test

        smoke = start_smoke_test(window, reporter)
    window.show()
    install_startup_probe(window)  # benchmarks only (BIDWALLET_STARTUP_PROBE)
    start = window.run(window.controller.start())  # its errors reach the error dialog
    await closed.wait()
    if not start.done():
        start.cancel()
    await window.controller.shutdown()
    log.info("bidwallet closed")
    if smoke is not None:
        from app.ui.smoke_test import exit_code

        return exit_code(smoke)
    return 0
