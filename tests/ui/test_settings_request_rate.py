"""The request rate per profile: the default shown, a bad value refused under its field, a
saved one used by new clients without locking the wallet; a wait for the service's rate limit
is said in the status bar instead of the window looking stuck, the app's own pacing only when
it is long, in other words."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
from pytestqt.qtbot import QtBot

from app.core.rate_limit import SERVICE_WAIT_JITTER, RateLimit
from app.services.connection import RateLimitWait, WaitCause
from app.services.profiles import ProfileStore
from app.ui import strings
from app.ui.context import PASSING_NOTICE_GRACE_MS
from app.ui.service_connection import PACE_NOTICE_AFTER_S, wait_notice
from app.ui.tabs.settings_tab import SettingsTab
from tests.ui.conftest import AppHarness, OptionsFactory
from tests.ui.flows import click, prepare_profile, type_into, unlock_by_typing
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
    qtbot.waitUntil(lambda: tab.message.text() == strings.SETTINGS_INVALID_RATE)
    # Why, under the field itself (Save may be far below it), and the field marked.
    assert "not a rate" in form.request_rate_error.text()
    assert form.request_rate_error.isVisibleTo(tab) and form.request_rate.property("invalid")
    assert ProfileStore(data_dir).load().get("Main").request_rate is None  # type: ignore[union-attr]
    form.request_rate.clear()  # editing clears the mark
    type_into(qtbot, form.request_rate, "2/4")
    assert not form.request_rate_error.isVisibleTo(tab) and not form.request_rate.property(
        "invalid"
    )

    # A new rate reopens the clients; the keys did not change, so the wallet stays unlocked.
    unlock_by_typing(qtbot, app)
    click(qtbot, tab.save_button)
    qtbot.waitUntil(lambda: app.context.connection not in (None, connection), timeout=10_000)
    assert app.context.wallet_lock.unlocked
    connection = app.context.connection
    assert connection is not None
    done = strings.SETTINGS_SAVED_CONNECTED.format(url=connection.marketplace_url)
    qtbot.waitUntil(lambda: tab.message.text() == done)  # no "Reconnecting…" once it is done
    assert ProfileStore(data_dir).load().get("Main").request_rate == "2/4"  # type: ignore[union-attr]
    assert connection.clients.config.rate_limit == RateLimit(2, 4)

    # The service answers 429 asking for 2 s: the status bar says the app is waiting.
    pacer = connection.clients.rate_limits.pacer(connection.marketplace_url)
    busy = httpx.Response(429, json={"retryAfterMs": 2000})
    with qtbot.waitSignal(app.context.passing_notice) as notice:
        wait = pacer.wait_after_429(0, busy)
    assert wait is not None and 2.0 <= wait <= 2.0 * (1 + SERVICE_WAIT_JITTER)
    # The line stays as long as the wait lasts, and a moment more: not the usual 10 s.
    assert notice.args[1] == PASSING_NOTICE_GRACE_MS + round(wait * 1000)
    status = app.window.statusBar()
    qtbot.waitUntil(lambda: status.currentMessage().startswith("Waiting for the service's"))
    assert "2." in status.currentMessage()
    gui_thread.assert_not_blocked()


def test_a_wait_is_worded_by_its_cause() -> None:
    host = "http://127.0.0.1:8123"
    service = wait_notice(RateLimitWait(host, 2.04, WaitCause.SERVICE))
    assert service == "Waiting for the service's rate limit (2.0 s)…"
    assert wait_notice(RateLimitWait(host, 0.3, WaitCause.SERVICE)) is not None
    # The app's own pace: said only when it is long, and not as the service's limit.
    assert wait_notice(RateLimitWait(host, 0.8, WaitCause.PACE)) is None
    pace = wait_notice(RateLimitWait(host, PACE_NOTICE_AFTER_S + 1, WaitCause.PACE))
    assert pace == "Pacing requests to the service (3.0 s)…"
