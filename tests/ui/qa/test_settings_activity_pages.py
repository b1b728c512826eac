"""The Settings and Activity page objects on a profile whose service is never contacted: the
form read, typed into and saved (a refusal, a save, the same save again answered again, a maker
fee of the profile's own), the theme chosen with the keyboard; an Activity entry waited for as
a flow records it, its txid copied; and failures in words naming the page, the action, what was
expected and what the page showed instead."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.core.pools import MakerFee
from app.services.profiles import ProfileStore, Theme
from app.ui import strings
from app.ui.qa.app import App
from app.ui.qa.expect import ScenarioFailure
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.profiles import DUMMY_URL, READY_TIMEOUT_MS, prepare_profile

TXID = "b5ec3d107f6c57510ee779f318ab1fdf9b080fbd2e715575aa836688b43c42e0"


@pytest.fixture
def app(
    qtbot: QtBot,
    bidwallet_loop: asyncio.AbstractEventLoop,
    bidwallet_data_dir: Path,
    bidwallet_options: OptionsFactory,
    bidwallet_open_app: Callable[..., AppHarness],
) -> App:
    prepare_profile(bidwallet_data_dir)
    harness = bidwallet_open_app(bidwallet_options())
    qtbot.waitSignal(harness.window.controller.ready, timeout=READY_TIMEOUT_MS).wait()
    return App(harness, qtbot, bidwallet_loop)


def test_settings_page_types_saves_and_chooses_the_theme(
    app: App, bidwallet_data_dir: Path
) -> None:
    page = app.settings.open("Main")
    shown = page.form()
    assert (shown.name, shown.esplora_url, shown.request_rate) == (
        "Main",
        f"{DUMMY_URL}/esplora",
        "",
    )
    assert page.profiles() == ["Main" + strings.SETTINGS_ACTIVE_SUFFIX]

    page.set_fee_bounds(min_rate=5, max_rate=3)
    said = page.save()
    assert said.startswith("Not saved: ") and "minimum <= maximum" in said
    page.set_fee_bounds(max_rate=50, max_fee=20_000)
    page.set_lock_minutes(3)
    assert page.save() == strings.SETTINGS_SAVED
    assert page.save() == strings.SETTINGS_SAVED  # the same line, the answer to this press
    page.set_maker_fee(2_500, 50)
    assert page.save() == strings.SETTINGS_SAVED
    saved = ProfileStore(bidwallet_data_dir).load().get("Main")
    assert saved is not None and saved.lock_timeout_s == 180
    bounds = saved.fee_bounds
    assert (bounds.min_sat_vb, bounds.max_sat_vb, bounds.max_fee_sats) == (5, 50, 20_000)
    assert saved.maker_fee == MakerFee(50, 2_500)
    shown = page.form()
    assert (shown.maker_fee_default, shown.maker_fee_sats, shown.maker_fee_bps) == (
        False,
        2_500,
        50,
    )

    page.set_theme(strings.SETTINGS_THEMES["dark"])
    assert page.theme == "Dark" and app.context.settings.theme is Theme.DARK
    assert ProfileStore(bidwallet_data_dir).load().theme is Theme.DARK

    with pytest.raises(ScenarioFailure) as failure:
        page.choose_profile("Elsewhere")
    assert str(failure.value) == (
        "Settings page, choose_profile: no profile 'Elsewhere' among"
        f" ['Main{strings.SETTINGS_ACTIVE_SUFFIX}']"
    )


def test_activity_page_waits_for_an_entry_and_fails_in_words(app: App) -> None:
    page = app.activity.open()
    with pytest.raises(ScenarioFailure) as failure:
        page.expect_entry("bid placed", timeout_ms=200)
    assert str(failure.value) == (
        "Activity page, expect_entry: expected an entry saying 'bid placed' within 0.2 s;"
        f" it shows: hint {strings.ACTIVITY_EMPTY!r}"
    )

    activity = app.context.activity
    assert activity is not None

    async def place() -> None:  # what a use case records as it ends
        async with activity.track("bid.place") as result:
            result.txid = TXID
            result.message = "bid placed"

    task = app.loop.create_task(place())  # runs while the page waits
    row = page.expect_entry("bid placed")
    assert task.done() and (row.action, row.result, row.txid) == ("Place a bid", "OK", TXID)
    assert page.copy_txid(0) == TXID
    assert page.filter("cancel") == [] and page.filter("") == [row]

    with pytest.raises(ScenarioFailure) as failure:
        page.expect_entry("bid cancelled", timeout_ms=200)
    assert str(failure.value).endswith(
        "within 0.2 s; it shows: no message;"
        f" newest entries: 'Place a bid · OK · bid placed · {TXID}'"
    )
