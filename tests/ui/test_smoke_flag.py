"""`bidwallet --sandbox --smoke-test` (the bundle's GUI smoke step) from the source tree, as a
subprocess on the offscreen platform with a throw-away HOME and data folder and no D-Bus:
it places one bid through the window and exits 0; the sandbox, started again on the same
data, lists that bid. Without --sandbox the flag is refused (exit 2); a sandbox that cannot
start gives one `smoke-test failed:` line and exit 1."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from app.__main__ import SMOKE_TEST_NEEDS_SANDBOX, main
from app.services.activity import ActivityLog
from app.services.profiles import AppProfile, ProfileStore, ServiceKind
from app.services.sandbox_process import start_sandbox
from app.ui import strings
from app.ui.context import AppContext
from app.ui.launch import build_window
from app.ui.main_window import MainWindow
from app.ui.qa.harness import OptionsFactory
from app.ui.qa.loop import run_async
from app.ui.smoke_test import SmokeTestDriver

REPO = Path(__file__).resolve().parents[2]
RUN_TIMEOUT_S = 280  # the app's own deadline is 240 s
START_FAILED = strings.SANDBOX_FAILED.split("{", 1)[0]  # the status bar's own sentence
OK_LINE = re.compile(r"^smoke-test ok bid=([0-9a-f]{24})$")


def isolated_env(tmp_path: Path) -> dict[str, str]:
    """Offscreen Qt, a temp HOME and data folder, no display and no D-Bus session (so the
    vault file is used, never the developer's keychain)."""
    drop = ("DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "BIDWALLET_STARTUP_PROBE")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    home = tmp_path / "home"
    runtime = tmp_path / "run"
    home.mkdir()
    runtime.mkdir(mode=0o700)
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_RUNTIME_DIR=str(runtime),
        BIDWALLET_DATA_DIR=str(tmp_path / "data"),
        QT_QPA_PLATFORM="offscreen",
    )
    return env


def run_app(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        cwd=REPO,
        env=isolated_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_S,
        check=False,
    )


@pytest.mark.slow
def test_smoke_test_places_one_bid_the_sandbox_lists(
    tmp_path: Path, qloop: asyncio.AbstractEventLoop
) -> None:
    result = run_app(tmp_path, "--sandbox", "--smoke-test")
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    matches = [m for m in map(OK_LINE.match, lines) if m]
    assert len(matches) == 1, result.stdout
    bid_id = matches[0].group(1)
    assert "smoke-test failed" not in result.stderr

    data = tmp_path / "data"
    store = ProfileStore(data)
    profile = store.load().first_of_kind(ServiceKind.SANDBOX)
    assert profile is not None and profile.sandbox_only  # the demo wallet was provisioned
    entries = ActivityLog.in_dir(store.profile_dir(profile)).entries()
    assert [e.action for e in entries if not e.ok] == []
    assert [e.action for e in entries].count("fund.broadcast") == 1  # through the Fund panel
    assert [e.action for e in entries].count("bid.place") == 1  # ONE bid, by the Bid tab
    log_text = (data / "logs" / "bidwallet.log").read_text()
    assert "stopped (exit code 0)" in log_text  # the app stopped its sandbox child cleanly

    # The sandbox, started again on the profile's data, lists the bid for the demo wallet.
    inscription = next(e for e in entries if e.action == "sandbox.inscribe").message.split()[-1]
    sandbox = run_async(qloop, start_sandbox(store.profile_dir(profile) / "sandbox"))
    try:
        with httpx.Client(base_url=sandbox.url, timeout=30) as http:
            owner = http.get(f"/ord/inscription/{inscription}").json()["address"]
            listed = http.get("/v1/address/bids", params={"address": owner}).json()
    finally:
        run_async(qloop, sandbox.stop())
    rows = listed["data"]["results"]
    assert [_bid_id(r) for r in rows] == [bid_id]
    assert rows[0]["price"] == 10_000


def _bid_id(row: dict[str, object]) -> object:
    value = row["bid_id"]
    return value["$oid"] if isinstance(value, dict) else value


def test_smoke_test_without_sandbox_is_refused(tmp_path: Path) -> None:
    result = run_app(tmp_path, "--smoke-test")
    assert result.returncode == 2
    assert result.stdout == ""
    assert SMOKE_TEST_NEEDS_SANDBOX in result.stderr
    assert not (tmp_path / "data").exists()  # nothing was started or written


@pytest.mark.parametrize(
    "argv",
    [
        ["--offline", "--smoke-test"],
        ["--smoke-test", "sandbox", "serve", "--port", "0", "--data", "x"],
    ],
)
def test_smoke_test_is_refused_outside_the_sandbox_window(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert SMOKE_TEST_NEEDS_SANDBOX in err


def test_smoke_test_is_hidden_from_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "smoke" not in capsys.readouterr().out


def test_a_sandbox_that_cannot_start_fails_the_smoke_test(tmp_path: Path) -> None:
    """The profile's sandbox folder is a file: one clear line on stderr, exit 1, no hang."""
    blocked = ProfileStore(tmp_path / "data").profile_dir(AppProfile.sandbox()) / "sandbox"
    blocked.parent.mkdir(parents=True)
    blocked.write_text("not a folder")
    result = run_app(tmp_path, "--sandbox", "--smoke-test")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "smoke-test ok" not in result.stdout
    failed = [line for line in result.stderr.splitlines() if line.startswith("smoke-test failed")]
    assert len(failed) == 1, result.stderr
    assert failed[0].startswith("smoke-test failed: the sandbox is not running: " + START_FAILED)
    assert "Traceback" not in result.stderr


# -- the driver's failures, in process on a window whose startup never runs -------------------


@pytest.fixture
def idle_window(make_options: OptionsFactory, qtbot: QtBot) -> Callable[..., MainWindow]:
    """`idle_window(sandbox=True)`: a shown window whose controller never starts (no `ready`
    unless a test emits it)."""

    def make(*, sandbox: bool = True) -> MainWindow:
        window = build_window(AppContext(make_options(sandbox=sandbox)))
        qtbot.addWidget(window)
        window.show()
        return window

    return make


def failure_line(capsys: pytest.CaptureFixture[str]) -> str:
    out, err = capsys.readouterr()
    assert "smoke-test ok" not in out
    lines = [line for line in err.splitlines() if line.startswith("smoke-test failed: ")]
    assert len(lines) == 1, err
    return lines[0].removeprefix("smoke-test failed: ")


def test_the_driver_refuses_a_window_not_on_the_sandbox(
    idle_window: Callable[..., MainWindow],
    qloop: asyncio.AbstractEventLoop,
    capsys: pytest.CaptureFixture[str],
) -> None:
    window = idle_window(sandbox=False)
    assert run_async(qloop, SmokeTestDriver(window).run_and_close()) == 1
    assert failure_line(capsys) == "the smoke test runs only with --sandbox"
    assert not window.isVisible()  # closed: the app then stops everything and exits


def test_the_deadline_ends_the_run_with_the_step_it_waited_for(
    idle_window: Callable[..., MainWindow],
    qloop: asyncio.AbstractEventLoop,
    capsys: pytest.CaptureFixture[str],
) -> None:
    window = idle_window()
    assert run_async(qloop, SmokeTestDriver(window).run_and_close(deadline_s=0.2)) == 1
    assert failure_line(capsys) == (
        "no result within 0.2 s, waiting for the sandbox profile to start"
    )
    assert not window.isVisible()


def test_ready_without_a_running_sandbox_fails_with_the_reason(
    idle_window: Callable[..., MainWindow],
    qloop: asyncio.AbstractEventLoop,
    capsys: pytest.CaptureFixture[str],
) -> None:
    window = idle_window()
    driver = SmokeTestDriver(window)
    window.context.error("The sandbox could not start. Details: port taken")
    window.controller.ready.emit()
    assert run_async(qloop, driver.run_and_close()) == 1
    assert failure_line(capsys) == (
        "no sandbox profile is active: The sandbox could not start. Details: port taken"
    )


def test_an_unexpected_dialog_is_rejected_and_fails_the_run(
    idle_window: Callable[..., MainWindow],
    qloop: asyncio.AbstractEventLoop,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Nothing but the funding review is ever confirmed: any other dialog is cancelled."""
    window = idle_window()
    driver = SmokeTestDriver(window)
    dialog = QDialog(window)
    dialog.setWindowTitle("Unlock")
    dialog.open()
    window.context.dialog_opened.emit(dialog)
    assert run_async(qloop, driver.run_and_close()) == 1
    assert failure_line(capsys) == (
        "unexpected dialog QDialog 'Unlock' (while waiting for the app to start)"
    )
    assert dialog.result() == QDialog.DialogCode.Rejected and not dialog.isVisible()
