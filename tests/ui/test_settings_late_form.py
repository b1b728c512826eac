"""Settings: the form shows the profile selected in the list, whatever order its readings end
in. Loading a profile's form waits on the keychain (its API key) and, for the active profile,
on the service's published maker fee; a slow wait for one profile ended after the user had
chosen another, and filled the form with the first while the list showed the second (a Save
then wrote what was typed over the first profile's settings).

The keychain's answer for the active profile is held by hand (a future this test resolves),
so the order of the two loads is the test's, not the machine's."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.services.profiles import AppProfile, AppSettings, ProfileStore
from app.ui import strings
from app.ui.context import AppOptions
from app.ui.qa.app import App
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.pages.settings import SettingsPage
from app.ui.qa.profiles import READY_TIMEOUT_MS, open_prepared_app, prepare_profile
from app.ui.tabs.settings_tab import SettingsTab


def _click_profile(qtbot: QtBot, tab: SettingsTab, name: str) -> None:
    """Click `name` in the list, as a user does; nothing awaited."""
    listed = tab.profiles
    item = next(
        listed.item(r) for r in range(listed.count()) if listed.item(r).text().startswith(name)
    )
    at = listed.visualItemRect(item).center()
    qtbot.mouseClick(listed.viewport(), Qt.MouseButton.LeftButton, pos=at)


def _settings_with_another_profile(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    open_app: Callable[..., AppHarness],
    options: AppOptions,
) -> tuple[SettingsPage, AppProfile]:
    """Settings shown on Main (`prepare_profile`'s, active) with "Other" listed under it (no
    key, a 20-minute lock): the page, and Other."""
    main = prepare_profile(options.data_dir)
    store = ProfileStore(options.data_dir)
    other = replace(main, name="Other", key_name=None, lock_timeout_s=1_200)
    store.save(store.load().with_profile(other))
    harness = open_app(options)
    qtbot.waitSignal(harness.window.controller.ready, timeout=READY_TIMEOUT_MS).wait()
    return App(harness, qtbot, qloop).settings.open("Main"), other


def test_a_late_form_load_does_not_replace_the_profile_chosen_since(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    page, other = _settings_with_another_profile(qtbot, qloop, open_app, make_options())
    tab = page.widget
    page.choose_profile("Other")

    context = page.app.context
    keychain_answer: asyncio.Future[str | None] = qloop.create_future()
    asked: list[str] = []
    api_key_for = context.api_key_for

    async def held_for_main(profile: AppProfile) -> str | None:
        asked.append(profile.name)
        if profile.name == "Main":
            return await keychain_answer
        return await api_key_for(profile)

    context.api_key_for = held_for_main  # type: ignore[method-assign]
    before = asyncio.all_tasks(qloop)
    _click_profile(qtbot, tab, "Main")  # its form waits on the keychain...
    loading_main = [
        t for t in asyncio.all_tasks(qloop) - before if "_load_form" in repr(t.get_coro())
    ]
    assert len(loading_main) == 1
    qtbot.waitUntil(lambda: asked == ["Main"])
    page.choose_profile("Other")  # ...while the user chooses another
    assert tab.form.profile == other

    keychain_answer.set_result(None)  # the keychain answers for Main at last
    qtbot.waitUntil(loading_main[0].done)
    assert tab.selected_name() == "Other"
    assert tab.form.profile == other
    assert tab.form.lock_minutes.value() == 20


def test_a_save_ending_after_another_profile_was_chosen_leaves_its_form(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    """Save writes the settings file (fsynced, in turn): a write ending after the user chose
    another profile made the form say it showed the saved one, under the other's fields, so
    the next Save wrote the other's fields over it."""
    page, other = _settings_with_another_profile(qtbot, qloop, open_app, make_options())
    tab = page.widget
    store = ProfileStore(data_dir)

    context = page.app.context
    written: asyncio.Future[None] = qloop.create_future()
    update_settings = context.update_settings
    writes: list[int] = []

    async def held_write(change: Callable[[AppSettings], AppSettings]) -> None:
        writes.append(1)
        await written
        await update_settings(change)

    context.update_settings = held_write  # type: ignore[method-assign]
    tab.form.lock_minutes.setValue(15)
    tab.save_button.click()
    qtbot.waitUntil(lambda: writes == [1])  # Main's settings being written...
    page.choose_profile("Other")  # ...while the user chooses another profile
    written.set_result(None)
    qtbot.waitUntil(lambda: tab.message.text() == strings.SETTINGS_SAVED)
    assert store.load().get("Main").lock_timeout_s == 15 * 60  # type: ignore[union-attr]
    assert tab.selected_name() == "Other" and tab.form.profile == other

    tab.form.lock_minutes.setValue(25)  # Other's, as the form shows
    tab.save_button.click()
    qtbot.waitUntil(lambda: writes == [1, 1])
    qtbot.waitUntil(lambda: store.load().get("Other").lock_timeout_s == 25 * 60)  # type: ignore[union-attr]
    assert store.load().get("Main").lock_timeout_s == 15 * 60  # type: ignore[union-attr]


def test_saving_the_api_key_keeps_the_fields_being_edited(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    """Save key (or Clear) read the whole form again once the keychain answered, undoing
    the edits not saved yet (the fee bounds, the lock time typed before the key)."""
    harness = open_prepared_app(qtbot, open_app, make_options())
    page = App(harness, qtbot, qloop).settings.open("Main")
    form = page.widget.form
    assert form.lock_minutes.value() == 10
    form.lock_minutes.setValue(15)  # edited, not saved yet
    form.api_key.setText("a-new-api-key")
    form.save_key_button.click()
    qtbot.waitUntil(lambda: form.api_key.placeholderText() == strings.SETTINGS_API_KEY_SET)
    assert form.clear_key_button.isEnabled() and form.api_key.text() == ""
    assert form.lock_minutes.value() == 15
    form.clear_key_button.click()
    qtbot.waitUntil(lambda: not form.clear_key_button.isEnabled())
    assert form.api_key.placeholderText() != strings.SETTINGS_API_KEY_SET
    assert form.lock_minutes.value() == 15
    assert page.save() == strings.SETTINGS_SAVED
    assert ProfileStore(data_dir).load().get("Main").lock_timeout_s == 15 * 60  # type: ignore[union-attr]
