"""The request rate per profile: the default shown, a bad value refused in place, a saved one
used by the reconnected clients; a wait for the service's rate limit is said in the status
bar instead of the window looking stuck."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
from pytestqt.qtbot import QtBot

from app.core.rate_limit import RateLimit
from app.services.profiles import ProfileStore
from app.ui import strings
from app.ui.tabs.settings_tab import SettingsTab
from tests.ui.conftest import AppHarness, OptionsFactory
from tests.ui.flows import click, prepare_profile, type_into
from tests.ui.gui_thread import GuiThreadWatch


def test_request_rate_saved_used_and_waits_said(
    qtbot: QtBot,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    gui_thread: GuiThreadWatch,
) -> None:
    prepare_profile(data_dir)
    app = open_app(make_options())
    gui_thread.start()
    qtbot.waitSignal(app.window.controller.ready, timeout=30_000).wait()
    tab = app.window.tab("settings")
    assert isinstance(tab, SettingsTab)
    app.window.show_tab("settings")
    form = tab.form
    qtbot.waitUntil(lambda: form.profile is not None and form.profile.name == "Main")
    assert form.request_rate.text() == ""
    assert form.request_rate.placeholderText() == strings.SETTINGS_REQUEST_RATE_DEFAULT
    connection = app.context.connection
    assert connection is not None and connection.clients.config.rate_limit == RateLimit(5, 10)

    type_into(qtbot, form.request_rate, "fast")
    click(qtbot, tab.save_button)
    qtbot.waitUntil(lambda: "not a rate" in tab.message.text())
    assert ProfileStore(data_dir).load().get("Main").request_rate is None  # type: ignore[union-attr]

    form.request_rate.clear()
    type_into(qtbot, form.request_rate, "2/4")
    click(qtbot, tab.save_button)
    qtbot.waitUntil(lambda: app.context.connection not in (None, connection), timeout=10_000)
    connection = app.context.connection
    assert connection is not None
    assert ProfileStore(data_dir).load().get("Main").request_rate == "2/4"  # type: ignore[union-attr]
    assert connection.clients.config.rate_limit == RateLimit(2, 4)

    # The service answers 429 asking for 2 s: the status bar says the app is waiting.
    pacer = connection.clients.rate_limits.pacer(connection.marketplace_url)
    busy = httpx.Response(429, json={"retryAfterMs": 2000})
    assert pacer.wait_after_429(0, busy) is not None
    status = app.window.statusBar()
    qtbot.waitUntil(lambda: status.currentMessage().startswith("Waiting for the service's"))
    assert "2." in status.currentMessage()
    gui_thread.assert_not_blocked()
