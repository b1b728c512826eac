"""The Activity tab: requests and results with errorCode and message, txids copied with the
button, a filter; the log persists across a window restart and holds no secret."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from app.net.errors import HttpError
from app.ui import strings
from app.ui.models.activity_model import COL_CODE, COL_MESSAGE, COL_RESULT, COL_TXID
from app.ui.tabs.activity_tab import ActivityTab
from tests.ui.conftest import AppHarness, OptionsFactory, close_app
from tests.ui.flows import ABANDON, PASSWORD, click, prepare_profile
from tests.ui.gui_thread import GuiThreadWatch
from tests.ui.helpers import MemoryKeyring, run_async

TXID = "b5ec3d107f6c57510ee779f318ab1fdf9b080fbd2e715575aa836688b43c42e0"
API_KEY = "sk-live-not-for-logs-42"
WIF = "cMcfH8sRgBgDMfpBNG6H3haaxLkaYXgqMRef8Nev6tWyBSNr6c3n"


async def place_and_fail(app: AppHarness) -> None:
    """What a use case does: track each request; one succeeds, one is refused."""
    activity = app.context.activity
    assert activity is not None
    async with activity.track("bid.place", collection="pixel-punks") as result:
        result.txid = TXID
        result.message = "bid placed"
    with pytest.raises(HttpError):
        async with activity.track("bid.cancel", password=PASSWORD):
            raise HttpError(
                "marketplace",
                400,
                f"refused {ABANDON} / {WIF} / key {API_KEY}",
                "BID_NOT_CANCELLABLE",
            )


def texts(tab: ActivityTab, column: int) -> list[str]:
    proxy = tab.proxy
    return [proxy.index(row, column).data() for row in range(proxy.rowCount())]


def test_activity_persists_across_restart_without_secrets(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    data_dir: Path,
    keychain: MemoryKeyring,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    gui_thread: GuiThreadWatch,
) -> None:
    profile = prepare_profile(data_dir, keychain=keychain)
    keychain.set_password("bidwallet-api-key", profile.name, API_KEY)
    app = open_app(make_options(keychain=keychain))
    gui_thread.start()
    qtbot.waitSignal(app.window.controller.ready, timeout=30_000).wait()
    run_async(qloop, place_and_fail(app))

    tab = app.window.tab("activity")
    assert isinstance(tab, ActivityTab)
    app.window.show_tab("activity")
    assert texts(tab, COL_RESULT) == [strings.ACTIVITY_ERROR, strings.ACTIVITY_OK]  # newest first
    assert texts(tab, COL_CODE) == ["BID_NOT_CANCELLABLE", ""]
    assert texts(tab, COL_TXID) == ["", TXID]
    message = texts(tab, COL_MESSAGE)[0]
    assert message.startswith("refused") and "(HTTP 400)" in message
    for secret in ("abandon", WIF, API_KEY):
        assert secret not in message

    assert not tab.copy_button.isEnabled()
    tab.table.selectRow(1)
    click(qtbot, tab.copy_button)
    assert QGuiApplication.clipboard().text() == TXID
    click(qtbot, tab.errors_only)
    assert texts(tab, COL_CODE) == ["BID_NOT_CANCELLABLE"]
    click(qtbot, tab.errors_only)
    qtbot.keyClicks(tab.filter, "PLACE")
    assert texts(tab, COL_TXID) == [TXID]

    close_app(app, qloop)
    again = open_app(make_options(keychain=keychain))
    qtbot.waitSignal(again.window.controller.ready, timeout=30_000).wait()
    reopened = again.window.tab("activity")
    assert isinstance(reopened, ActivityTab)
    assert texts(reopened, COL_TXID) == ["", TXID]
    assert texts(reopened, COL_CODE) == ["BID_NOT_CANCELLABLE", ""]
    log_text = again.context.activity.path.read_text()  # type: ignore[union-attr]
    for secret in ("abandon abandon", WIF, API_KEY, PASSWORD):
        assert secret not in log_text
    gui_thread.assert_not_blocked()
