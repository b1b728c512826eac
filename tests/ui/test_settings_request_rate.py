"""The request rate per profile: the default shown, a bad value refused under its field, a
saved one used by new clients without locking the wallet; a wait for the service's rate limit
is said in the status bar instead of the window looking stuck, the app's own pacing only when
it is long, in other words."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import httpx
from pytestqt.qtbot import QtBot

from app.core.rate_limit import SERVICE_WAIT_JITTER, RateLimit
from app.services.connection import RateLimitWait, WaitCause
from app.services.profiles import ProfileStore
from app.ui import strings
from app.ui.context import PASSING_NOTICE_GRACE_MS
from app.ui.qa.app import App
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.profiles import prepare_profile, unlock_by_typing
from app.ui.service_connection import PACE_NOTICE_AFTER_S, wait_notice


def test_request_rate_saved_used_and_waits_said(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    gui_thread: GuiThreadWatch,
) -> None:
    prepare_profile(data_dir)
    app = open_app(make_options())
    gui_thread.start()
    qtbot.waitSignal(app.window.controller.ready, timeout=30_000).wait()
    page = App(app, qtbot, qloop).settings.open("Main")
    form = page.widget.form
    assert page.form().request_rate == ""
    assert form.request_rate.placeholderText() == strings.SETTINGS_REQUEST_RATE_DEFAULT
    connection = app.context.connection
    assert connection is not None and connection.clients.config.rate_limit == RateLimit(5, 10)

    page.set_request_rate("fast")
    assert page.save() == strings.SETTINGS_INVALID_RATE
    # Why, under the field itself (Save may be far below it), and the field marked.
    assert "not a rate" in page.request_rate_error and form.request_rate.property("invalid")
    assert ProfileStore(data_dir).load().get("Main").request_rate is None  # type: ignore[union-attr]
    page.set_request_rate("2/4")  # editing clears the mark
    assert not page.request_rate_error and not form.request_rate.property("invalid")

    # A new rate reopens the clients; the keys did not change, so the wallet stays unlocked.
    unlock_by_typing(qtbot, app)
    said = page.save()  # once the clients are reopened: no "Reconnecting…" left
    assert app.context.connection not in (None, connection)
    assert app.context.wallet_lock.unlocked
    connection = app.context.connection
    assert connection is not None
    assert said == strings.SETTINGS_SAVED_CONNECTED.format(url=connection.marketplace_url)
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
