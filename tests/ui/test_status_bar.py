"""A notice in the status bar is never cut: at 1024 px a long one makes the profile, network
and service labels step aside while it shows (the least needed first), and they come back once
it goes; a short one leaves them all. An error longer than the whole bar never widens the window
(it did: its label's width became the window's minimum): it is cut at its end, whole in its
tooltip."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.services.profiles import AppProfile
from app.ui import strings
from app.ui.qa.harness import AppHarness, OptionsFactory


def test_a_long_notice_is_shown_whole_and_the_labels_come_back(
    qtbot: QtBot, make_options: OptionsFactory, open_app: Callable[..., AppHarness]
) -> None:
    app = open_app(make_options(offline=True))
    qtbot.waitSignal(app.window.controller.ready, timeout=30_000).wait()
    window, status = app.window, app.window.status
    window.resize(1024, 700)
    app.context.set_profile(AppProfile.sandbox())  # profile and network shown
    labels = (status.profile_label, status.network_label, status.service_label)
    assert all(not label.isHidden() for label in labels)

    short = "Txid copied to the clipboard."
    app.context.info(short)
    assert status.currentMessage() == short
    assert all(not label.isHidden() for label in labels)  # room enough: nothing moves

    long = strings.DEMO_WALLET_READY.format(btc=5, inscriptions=3, rune="BIDWALLET•DEMO")
    long += " " + strings.CONNECTED.format(url="http://127.0.0.1:43327/v1")
    app.context.info(long)
    assert status.currentMessage() == long
    needed = status.fontMetrics().horizontalAdvance(long)
    assert status.room_for_notices() >= needed
    assert status.network_label.isHidden()  # the least needed stepped aside first
    assert not status.lock_button.isHidden()  # the lock state always shows

    status.clearMessage()
    assert all(not label.isHidden() for label in labels)

    app.context.error(long * 2)  # an error too, longer than the window: it never widens it
    QApplication.processEvents()
    assert window.width() == 1024 and window.minimumSizeHint().width() < 1024
    assert status.network_label.isHidden() and status.profile_label.isHidden()
    shown = status.error_label.text()
    assert shown.endswith("…") and (long * 2).startswith(shown[:-1])  # cut at its end only
    assert status.error_label.toolTip() == long * 2  # whole in the tooltip
