"""A bid is signed only after a question showing what will be signed (pools, price, quantity,
expiry, fee rate and the message): Cancel signs and sends nothing; "Don't ask again" is kept in
the app settings and later bids are placed without the question, until Settings turns it back
on."""

from __future__ import annotations

import json

from app.ui import strings
from app.ui.qa.actions import click, widget_top
from app.ui.qa.app import App
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.pages.bid import BidPage, retype
from app.ui.qa.sandbox import fund_bidding_wallet
from app.ui.tabs.bid_confirm import BidConfirmDialog
from app.ui.tabs.settings_tab import SettingsTab


def test_the_question_before_signing_and_dont_ask_again(
    bidwallet_app: App, gui_thread: GuiThreadWatch
) -> None:
    app, qtbot = bidwallet_app, bidwallet_app.qtbot
    assert app.assets is not None
    slug = app.assets.collection_slug
    data_dir = app.context.options.data_dir
    fund_bidding_wallet(app.harness, app.loop, 300_000)
    gui_thread.start()
    bid = app.bid.ready(slug)
    tab = bid.tab
    form = tab.form
    bid.fill_collection_bid(slug, "12,000", 2)
    assert tab.last_preview.placeable, tab.last_preview.errors
    assert app.context.settings.confirm_bids
    activity: list[object] = []
    app.context.activity_added.connect(activity.append)

    def placed(page: BidPage, count: int) -> None:
        outcome = page.outcome()
        assert outcome.ok and outcome.said.startswith("Placed:"), outcome.said
        qtbot.waitUntil(
            lambda: tab.state.view is not None and len(tab.state.view.bids) == count,
            timeout=20_000,
        )

    # The question says what is signed; Cancel (also Enter: the default) signs nothing.
    place_at = widget_top(tab.place_button)
    bid.press_place()
    question = bid.question()
    asked = question.asked
    assert asked.values["pools"] == f"{slug}: 2 bids"
    assert asked.values["price"] == "12,000 sats per item"
    assert asked.values["quantity"] == "up to 2 items"
    assert asked.values["fee_rate"] == tab.fee_rate_label.text()
    # The preview's message, but for the moments of its expiry (set on Place) and timestamp.
    signed, shown = asked.message.split(":"), bid.message.split(":")
    assert (signed[:5], signed[6]) == (shown[:5], shown[6])
    assert signed[6] == slug and signed[3:5] == ["12000", "2"]
    assert question.dialog.cancel_button.isDefault()
    question.cancel()
    cancelled = bid.outcome()
    assert cancelled.said == strings.BID_CONFIRM_CANCELLED and not cancelled.ok
    assert cancelled.asked == asked
    assert not activity  # nothing signed, nothing sent
    assert tab.place_button.isEnabled()
    assert widget_top(tab.place_button) == place_at  # the result line did not move it

    # Sign, with "Don't ask again": placed, and the choice kept in the settings file.
    bid.press_place()
    bid.question().sign(dont_ask_again=True)
    placed(bid, 2)
    assert widget_top(tab.place_button) == place_at
    assert not app.context.settings.confirm_bids
    saved = json.loads((data_dir / "profiles.json").read_text(encoding="utf-8"))
    assert saved["confirm_bids"] is False

    # The next bid goes without the question.
    before = len(app.harness.dialogs)
    retype(qtbot, form.price.edit, "13,000")
    outcome = bid.place()
    assert outcome.ok and outcome.asked is None, outcome.said
    qtbot.waitUntil(
        lambda: tab.state.view is not None and len(tab.state.view.bids) == 4, timeout=20_000
    )
    assert not any(isinstance(d, BidConfirmDialog) for d in app.harness.dialogs[before:])

    # Settings shows it off; ticking it turns the question back on.
    settings = app.window.tab("settings")
    assert isinstance(settings, SettingsTab)
    box = settings.confirm_bids.check
    assert not box.isChecked()
    app.window.show_tab("settings")
    click(qtbot, box)
    qtbot.waitUntil(lambda: app.context.settings.confirm_bids, timeout=10_000)
    saved = json.loads((data_dir / "profiles.json").read_text(encoding="utf-8"))
    assert saved["confirm_bids"] is True
    retype(qtbot, form.price.edit, "14,000")  # the page shows the Bid tab again
    outcome = bid.place(confirm=False)
    assert outcome.said == strings.BID_CONFIRM_CANCELLED and outcome.asked is not None
    assert tab.state.view is not None and len(tab.state.view.bids) == 4

    # The shortest expiry still places after the question: a preset counts from the click with
    # time to spare for answering and sending (the service wants 15 minutes from arrival).
    # Locked meanwhile: the password is asked first, then the question; never an error after.
    app.context.wallet_lock.lock()
    qtbot.waitUntil(lambda: app.window.status.lock_button.text() == strings.STATUS_LOCKED)
    form.expiry_preset.setCurrentIndex(0)  # 15 minutes
    before = len(app.harness.dialogs)
    bid.press_place()
    unlock = app.unlock_prompt(before)
    assert not any(isinstance(d, BidConfirmDialog) for d in app.harness.dialogs[before:])
    assert unlock.unlock() is None
    question = bid.question()
    assert app.context.wallet_lock.unlocked
    question.sign()
    placed(bid, 6)
    gui_thread.assert_not_blocked()
