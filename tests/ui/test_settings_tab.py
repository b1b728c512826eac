"""Settings: fee bounds and lock timeout saved per profile (bad values refused in place),
URLs changed with a reconnect, the API key in the keychain, theme, profiles added and
removed; the window state is remembered."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from app.services.profiles import ProfileStore, Theme
from app.services.qa_vault import MemoryKeyring
from app.ui import strings
from app.ui.dialogs.first_run import FirstRunDialog
from app.ui.dialogs.key_setup import KeySetupDialog
from app.ui.qa.actions import click, type_into, wait_dialog
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory, close_app
from app.ui.qa.profiles import DUMMY_URL, prepare_profile
from app.ui.tabs.settings_tab import SettingsTab
from app.ui.theme import COLORS


def settings_tab(app: AppHarness) -> SettingsTab:
    tab = app.window.tab("settings")
    assert isinstance(tab, SettingsTab)
    app.window.show_tab("settings")
    return tab


def test_fee_bounds_lock_timeout_urls_and_api_key(
    qtbot: QtBot,
    data_dir: Path,
    keychain: MemoryKeyring,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    gui_thread: GuiThreadWatch,
) -> None:
    prepare_profile(data_dir, keychain=keychain)
    app = open_app(make_options(keychain=keychain))
    gui_thread.start()
    qtbot.waitSignal(app.window.controller.ready, timeout=30_000).wait()
    tab = settings_tab(app)
    form = tab.form
    qtbot.waitUntil(lambda: form.profile is not None and form.profile.name == "Main")
    assert form.esplora_url.text() == f"{DUMMY_URL}/esplora"

    form.min_rate.setValue(5)
    form.max_rate.setValue(3)
    click(qtbot, tab.save_button)
    qtbot.waitUntil(lambda: "minimum <= maximum" in tab.message.text())
    assert ProfileStore(data_dir).load().get("Main").fee_bounds.min_sat_vb == 1  # type: ignore[union-attr]

    form.max_rate.setValue(50)
    form.max_fee.setValue(20_000)
    form.lock_minutes.setValue(3)
    click(qtbot, tab.save_button)
    qtbot.waitUntil(lambda: tab.message.text() == strings.SETTINGS_SAVED)
    saved = ProfileStore(data_dir).load().get("Main")
    assert saved is not None
    assert (saved.fee_bounds.min_sat_vb, saved.fee_bounds.max_sat_vb) == (5, 50)
    assert saved.fee_bounds.max_fee_sats == 20_000 and saved.lock_timeout_s == 180
    assert app.context.wallet_lock.timeout_s == 180

    form.esplora_url.clear()
    type_into(qtbot, form.esplora_url, "http://127.0.0.1:8/esplora")
    with qtbot.waitSignal(app.context.connection_changed, timeout=10_000):
        click(qtbot, tab.save_button)
    qtbot.waitUntil(lambda: app.context.connection is not None)
    assert app.context.connection.clients.config.esplora_url == "http://127.0.0.1:8/esplora"  # type: ignore[union-attr]
    done = strings.SETTINGS_SAVED_CONNECTED.format(url=app.context.connection.marketplace_url)  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: tab.message.text() == done)  # "Reconnecting…" goes once done

    type_into(qtbot, form.api_key, "sk-new-key")
    click(qtbot, form.save_key_button)
    qtbot.waitUntil(lambda: tab.message.text() == strings.SETTINGS_API_KEY_SAVED)
    assert keychain.items[("bidwallet-api-key", "Main")] == "sk-new-key"
    assert form.api_key.text() == "" and "sk-new-key" not in ProfileStore(data_dir).path.read_text()
    qtbot.waitUntil(form.clear_key_button.isEnabled)
    click(qtbot, form.clear_key_button)
    qtbot.waitUntil(lambda: ("bidwallet-api-key", "Main") not in keychain.items)
    gui_thread.assert_not_blocked()


def test_theme_profiles_and_window_state(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    monkeypatch: pytest.MonkeyPatch,
    gui_thread: GuiThreadWatch,
) -> None:
    prepare_profile(data_dir)
    app = open_app(make_options())
    gui_thread.start()
    qtbot.waitSignal(app.window.controller.ready, timeout=30_000).wait()
    tab = settings_tab(app)

    def window_color() -> str:
        return str(QApplication.palette().color(QPalette.ColorRole.Window).name())

    assert window_color() != COLORS["dark"]["window"]  # dark below is this choice's doing
    tab.theme.setCurrentIndex(tab.theme.findData("dark"))
    tab.theme.activated.emit(tab.theme.currentIndex())

    # The choice is written to disk (in the executor), then the app restyles.
    qtbot.waitUntil(lambda: window_color() == COLORS["dark"]["window"], timeout=10_000)
    with gui_thread.paused():
        assert ProfileStore(data_dir).load().theme is Theme.DARK

    # Add a profile: the first-run dialog again, then key setup (cancelled: no key yet).
    click(qtbot, tab.add_button)
    first_run = wait_dialog(qtbot, app, FirstRunDialog)
    assert first_run.custom_name.text() == "Custom"
    click(qtbot, first_run.custom_radio)
    for edit in (first_run.marketplace_url, first_run.esplora_url, first_run.ord_url):
        type_into(qtbot, edit, DUMMY_URL)
    click(qtbot, first_run.continue_button)
    key_setup = wait_dialog(qtbot, app, KeySetupDialog)
    click(qtbot, key_setup.cancel_button)
    qtbot.waitUntil(
        lambda: app.context.profile is not None and app.context.profile.name == "Custom"
    )
    assert app.window.status.lock_button.text() == strings.STATUS_NO_KEY

    # Remove the other one, after confirming.
    items = [tab.profiles.item(i) for i in range(tab.profiles.count())]
    tab.profiles.setCurrentItem(next(i for i in items if i is not None and i.text() == "Main"))
    click(qtbot, tab.remove_button)
    box = wait_dialog(qtbot, app, QMessageBox)
    click(qtbot, box.button(QMessageBox.StandardButton.Yes))
    qtbot.waitUntil(lambda: [p.name for p in app.context.settings.profiles] == ["Custom"])
    assert ProfileStore(data_dir).load().get("Main") is None

    app.window.resize(760, 580)  # above every tab's minimum, within the offscreen screen
    app.window.show_tab("activity")
    close_app(app, qloop)
    again = open_app(make_options())
    with qtbot.waitSignal(again.window.controller.ready, timeout=30_000):
        # The active profile still has no key: its setup is offered again.
        click(qtbot, wait_dialog(qtbot, again, KeySetupDialog).cancel_button)
    assert again.window.current_tab() is again.window.tab("activity")
    assert (again.window.width(), again.window.height()) == (760, 580)
    gui_thread.assert_not_blocked()
