"""Unlock with the password (a wrong one is said so, in place), lock after the idle time of
the profile (the clock is driven, not waited for), user input restarting the countdown, and the
keyboard shortcuts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.ui import strings
from app.ui.dialogs.unlock import UnlockDialog
from app.ui.qa.actions import click, type_into, wait_dialog
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.loop import FakeClock
from app.ui.qa.profiles import PASSWORD, open_prepared_app, prepare_profile

TIMEOUT_S = 120


def test_wrong_password_then_unlock_then_idle_lock(
    qtbot: QtBot,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    gui_thread: GuiThreadWatch,
) -> None:
    prepare_profile(data_dir, lock_timeout_s=TIMEOUT_S)
    clock = FakeClock()
    app = open_app(make_options(clock=clock, idle_tick_ms=20))
    gui_thread.start()
    qtbot.waitSignal(app.window.controller.ready, timeout=30_000).wait()
    window, context = app.window, app.context
    assert not context.wallet_lock.unlocked
    assert window.status.lock_button.text() == strings.STATUS_LOCKED

    qtbot.keyClick(window, Qt.Key.Key_U, Qt.KeyboardModifier.ControlModifier)
    dialog = wait_dialog(qtbot, app, UnlockDialog)
    type_into(qtbot, dialog.password, "not the password")
    click(qtbot, dialog.unlock_button)
    qtbot.waitUntil(lambda: dialog.error.text() == strings.WRONG_PASSWORD, timeout=10_000)
    assert dialog.isVisible() and not context.wallet_lock.unlocked
    dialog.password.clear()
    type_into(qtbot, dialog.password, PASSWORD)
    with qtbot.waitSignal(context.lock_changed, timeout=10_000) as changed:
        qtbot.keyClick(dialog.password, Qt.Key.Key_Return)
    assert changed.args == [True]
    assert window.status.lock_button.text() == strings.STATUS_UNLOCKED
    assert dialog.password.text() == ""  # the password does not stay in the widget

    # Input restarts the countdown: a key press just before the timeout keeps it unlocked.
    clock.advance(TIMEOUT_S - 1)
    qtbot.keyClick(window.tabs.tabBar(), Qt.Key.Key_Right)
    clock.advance(TIMEOUT_S - 1)
    qtbot.waitSignal(window.idle_lock.timer.timeout, timeout=5_000).wait()
    assert context.wallet_lock.unlocked
    # Idle past the timeout: the next tick locks and says why.
    clock.advance(2)
    with qtbot.waitSignal(window.idle_lock.locked_by_idle, timeout=5_000):
        pass
    assert not context.wallet_lock.unlocked
    assert window.status.lock_button.text() == strings.STATUS_LOCKED
    assert window.status.currentMessage() == strings.LOCKED_AFTER_IDLE.format(minutes=2)
    gui_thread.assert_not_blocked()


def test_lock_shortcut_and_status_button(
    qtbot: QtBot,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    app = open_prepared_app(qtbot, open_app, make_options())
    window = app.window
    click(qtbot, window.status.lock_button)  # locked: the button unlocks
    dialog = wait_dialog(qtbot, app, UnlockDialog)
    type_into(qtbot, dialog.password, PASSWORD)
    with qtbot.waitSignal(app.context.lock_changed, timeout=10_000):
        click(qtbot, dialog.unlock_button)
    assert window.lock_action.isEnabled() and not window.unlock_action.isEnabled()
    window.activateWindow()  # the user is back in the main window
    qtbot.waitUntil(window.isActiveWindow)
    with qtbot.waitSignal(app.context.lock_changed) as changed:
        qtbot.keyClick(window, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    assert changed.args == [False] and not app.context.wallet_lock.unlocked
