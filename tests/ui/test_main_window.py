"""The window frame: tabs come from the registry (adding one is one line), keyboard
shortcuts switch tabs, Tab moves through a tab's controls in reading order, the status bar
names the profile and network."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from app.ui import strings, tabs
from app.ui.context import AppContext
from app.ui.controller import AppController
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.profiles import open_prepared_app
from app.ui.tabs import TabSpec, tabs_for
from app.ui.tabs.activity_tab import ActivityTab


class ProbeTab(QWidget):
    """What a later tab module looks like: a widget taking (context, controller)."""

    def __init__(
        self, context: AppContext, controller: AppController, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.context = context
        QVBoxLayout(self).addWidget(QLabel("probe"))


def test_the_registry_decides_the_tabs() -> None:
    assert [spec.key for spec in tabs_for(offline=False)] == [
        "wallet",
        "bid",
        "open_bids",
        "strategies",
        "withdraw",
        "inscription_bid",
        "listings",
        "activity",
        "settings",
    ]
    assert [spec.key for spec in tabs_for(offline=True)] == ["psbt_files", "activity", "settings"]


def test_a_registered_tab_appears_with_its_shortcut(
    qtbot: QtBot,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    probe = TabSpec("probe", "Probe", "key", "tests.ui.test_main_window:ProbeTab")
    titles = [spec.title for spec in tabs_for(offline=False)]
    monkeypatch.setattr(tabs, "TABS", (probe, *tabs.TABS))
    app = open_prepared_app(qtbot, open_app, make_options())
    window = app.window
    assert [window.tabs.tabText(i) for i in range(window.tabs.count())] == [
        "Probe",
        *titles,
    ]
    probe_tab = window.tab("probe")
    assert isinstance(probe_tab, ProbeTab) and probe_tab.context is app.context
    assert not window.tabs.tabIcon(0).isNull()

    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
    assert window.tabs.currentIndex() == 2
    qtbot.keyClick(window, Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier)
    assert window.tabs.currentIndex() == 3
    window.tabs.setCurrentIndex(window.tabs.count() - 1)
    qtbot.keyClick(window, Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier)
    assert window.tabs.currentIndex() == 0  # Ctrl+Tab wraps around

    assert window.status.profile_label.text() == strings.STATUS_PROFILE.format(name="Main")
    assert window.status.network_label.text() == strings.STATUS_NETWORK.format(network="regtest")
    assert not window.status.badge.isVisible()  # not a sandbox-only key


def test_tab_moves_through_the_activity_controls_in_order(
    qtbot: QtBot,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    app = open_prepared_app(qtbot, open_app, make_options())
    app.window.activateWindow()
    app.window.show_tab("activity")
    tab = app.window.tab("activity")
    assert isinstance(tab, ActivityTab)
    tab.filter.setFocus()
    qtbot.waitUntil(tab.filter.hasFocus)
    order = []
    for _ in range(2):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        order.append(QApplication.focusWidget())
    assert order == [tab.errors_only, tab.table]  # the copy button waits for a txid row
