"""A bid is signed only after a question showing what will be signed (pools, price, quantity,
expiry, fee rate and the message): Cancel signs and sends nothing; "Don't ask again" is kept in
the app settings and later bids are placed without the question, until Settings turns it back
on."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.dialogs.unlock import UnlockDialog
from app.ui.tabs.bid_confirm import BidConfirmDialog
from app.ui.tabs.settings_tab import SettingsTab
from tests.ui.conftest import AppHarness, OptionsFactory
from tests.ui.flows import (
    PASSWORD,
    bid_tab_ready,
    click,
    fill_collection_bid,
    fund_bidding_wallet,
    open_funded_app,
    type_into,
    wait_new_dialog,
    widget_top,
)
from tests.ui.gui_thread import GuiThreadWatch


def test_the_question_before_signing_and_dont_ask_again(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    options = make_options()
    funded = open_funded_app(qtbot, open_app, options, sandbox, qloop)
    app, slug = funded.app, funded.assets.collection_slug
    fund_bidding_wallet(app, qloop, 300_000)
    gui_thread.start()
    tab = bid_tab_ready(qtbot, app, slug)
    form = tab.form
    fill_collection_bid(qtbot, tab, slug, "12,000", 2)
    assert tab.last_preview.placeable, tab.last_preview.errors
    assert app.context.settings.confirm_bids
    activity: list[object] = []
    app.context.activity_added.connect(activity.append)

    def ask() -> BidConfirmDialog:
        before = len(app.dialogs)
        click(qtbot, tab.place_button)
        return wait_new_dialog(qtbot, app, BidConfirmDialog, before, timeout=10_000)

    def placed(count: int) -> None:
        def done() -> bool:
            text = tab.result.text()
            return (
                text.startswith(("Placed:", "Not placed:"))
                and text != strings.BID_CONFIRM_CANCELLED
            )

        qtbot.waitUntil(done, timeout=30_000)
        assert tab.result.text().startswith("Placed:"), tab.result.text()
        qtbot.waitUntil(
            lambda: tab.state.view is not None and len(tab.state.view.bids) == count,
            timeout=20_000,
        )

    # The question says what is signed; Cancel (also Enter: the default) signs nothing.
    place_at = widget_top(tab.place_button)
    dialog = ask()
    assert dialog.values["pools"] == f"{slug}: 2 bids"
    assert dialog.values["price"] == "12,000 sats per item"
    assert dialog.values["quantity"] == "up to 2 items"
    assert dialog.values["fee_rate"] == tab.fee_rate_label.text()
    # The preview's message, but for the moments of its expiry (set on Place) and timestamp.
    signed, shown = dialog.message.toPlainText().split(":"), tab.message.toPlainText().split(":")
    assert (signed[:5], signed[6]) == (shown[:5], shown[6])
    assert signed[6] == slug and signed[3:5] == ["12000", "2"]
    assert dialog.cancel_button.isDefault()
    click(qtbot, dialog.cancel_button)
    qtbot.waitUntil(lambda: tab.result.text() == strings.BID_CONFIRM_CANCELLED)
    assert not activity  # nothing signed, nothing sent
    assert tab.place_button.isEnabled()
    assert widget_top(tab.place_button) == place_at  # the result line did not move it

    # Sign, with "Don't ask again": placed, and the choice kept in the settings file.
    dialog = ask()
    dialog.dont_ask.setChecked(True)
    click(qtbot, dialog.sign_button)
    placed(2)
    assert widget_top(tab.place_button) == place_at
    assert not app.context.settings.confirm_bids
    saved = json.loads((options.data_dir / "profiles.json").read_text(encoding="utf-8"))
    assert saved["confirm_bids"] is False

    # The next bid goes without the question.
    before = len(app.dialogs)
    form.price.edit.clear()
    type_into(qtbot, form.price.edit, "13,000")
    click(qtbot, tab.place_button)
    placed(4)
    assert not any(isinstance(d, BidConfirmDialog) for d in app.dialogs[before:])

    # Settings shows it off; ticking it turns the question back on.
    settings = app.window.tab("settings")
    assert isinstance(settings, SettingsTab)
    box = settings.confirm_bids.check
    assert not box.isChecked()
    app.window.show_tab("settings")
    click(qtbot, box)
    qtbot.waitUntil(lambda: app.context.settings.confirm_bids, timeout=10_000)
    saved = json.loads((options.data_dir / "profiles.json").read_text(encoding="utf-8"))
    assert saved["confirm_bids"] is True
    app.window.show_tab("bid")
    form.price.edit.clear()
    type_into(qtbot, form.price.edit, "14,000")
    dialog = ask()
    click(qtbot, dialog.cancel_button)
    qtbot.waitUntil(lambda: tab.result.text() == strings.BID_CONFIRM_CANCELLED)
    assert tab.state.view is not None and len(tab.state.view.bids) == 4

    # The shortest expiry still places after the question: a preset counts from the click with
    # time to spare for answering and sending (the service wants 15 minutes from arrival).
    # Locked meanwhile: the password is asked first, then the question; never an error after.
    app.context.wallet_lock.lock()
    qtbot.waitUntil(lambda: app.window.status.lock_button.text() == strings.STATUS_LOCKED)
    form.expiry_preset.setCurrentIndex(0)  # 15 minutes
    before = len(app.dialogs)
    click(qtbot, tab.place_button)
    unlock = wait_new_dialog(qtbot, app, UnlockDialog, before, timeout=10_000)
    assert not any(isinstance(d, BidConfirmDialog) for d in app.dialogs[before:])
    type_into(qtbot, unlock.password, PASSWORD)
    qtbot.keyClick(unlock.password, Qt.Key.Key_Return)
    dialog = wait_new_dialog(qtbot, app, BidConfirmDialog, before, timeout=10_000)
    assert app.context.wallet_lock.unlocked
    click(qtbot, dialog.sign_button)
    placed(6)
    gui_thread.assert_not_blocked()
