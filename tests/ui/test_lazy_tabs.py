"""Tabs are built when first shown or asked for, never before: the window opens with only the
tab it shows built (the one it was left on), a tab is built once and kept, inside its place in
the window, whether reached by a click, a shortcut or `window.tab(key)`."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.ui.main_window import MainWindow
from app.ui.qa.harness import AppHarness, OptionsFactory, close_app
from app.ui.qa.profiles import open_prepared_app
from app.ui.tabs.activity_tab import ActivityTab
from app.ui.tabs.settings_tab import SettingsTab


def built(window: MainWindow) -> list[str]:
    """Keys of the tabs built so far."""
    return [
        spec.key
        for index, spec in enumerate(window.tab_specs)
        if getattr(window.tabs.widget(index), "content", None) is not None
    ]


def test_only_the_shown_tab_is_built_and_each_is_built_once(
    qtbot: QtBot,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    app = open_prepared_app(qtbot, open_app, make_options())
    window = app.window
    assert built(window) == ["wallet"]

    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    activity_index = [s.key for s in window.tab_specs].index("activity")
    qtbot.keyClick(
        window, Qt.Key(Qt.Key.Key_1 + activity_index), Qt.KeyboardModifier.ControlModifier
    )
    assert built(window) == ["wallet", "activity"]
    activity = window.current_tab()
    assert isinstance(activity, ActivityTab) and activity.isVisible()
    slot = window.tabs.widget(activity_index)
    assert slot is not None and slot.isAncestorOf(activity)  # built in its place

    settings = window.tab("settings")  # asked for, not shown: built, the shown tab kept
    assert isinstance(settings, SettingsTab) and not settings.isVisible()
    assert built(window) == ["wallet", "activity", "settings"]
    assert window.current_tab() is activity

    window.show_tab("settings")
    assert window.current_tab() is settings and settings.isVisible()
    window.show_tab("activity")
    assert window.current_tab() is activity  # the same widget: built once, kept
    assert built(window) == ["wallet", "activity", "settings"]


def test_the_window_reopens_on_its_last_tab_and_builds_only_that_one(
    qtbot: QtBot,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    qloop: asyncio.AbstractEventLoop,
) -> None:
    options = make_options()
    first = open_prepared_app(qtbot, open_app, options)
    first.window.show_tab("activity")
    close_app(first, qloop)  # closing saves the window state

    again = open_app(options)
    qtbot.waitSignal(again.window.controller.ready, timeout=30_000).wait()
    assert built(again.window) == ["activity"]
    shown: QWidget = again.window.current_tab()
    assert isinstance(shown, ActivityTab) and shown.isVisible()
