"""A rune bid through the Bid tab: Runes changes the form (total price, units, no target
range, no traits), the preview counts one bid for all the units in the rune's pool once ord
gave the rune's etched spelling, and the service lists one rune bid with the total price and
the units. A name ord refuses leaves nothing to sign; switching back to ordinals empties what
changes meaning, and the last result goes once the form changes."""

from __future__ import annotations

import httpx
from PySide6.QtCore import Qt

from app.services.sandbox_demo import DEMO_RUNE
from app.ui import strings
from app.ui.qa.actions import paste_into, set_spin, type_into
from app.ui.qa.app import App
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.sandbox import fund_bidding_wallet

TOTAL = 50_000
UNITS = 2_500


def test_rune_bid_total_price_for_its_units(bidwallet_app: App, gui_thread: GuiThreadWatch) -> None:
    app, qtbot, keys = bidwallet_app, bidwallet_app.qtbot, bidwallet_app.keys
    assert keys is not None and app.root_url is not None
    fund_bidding_wallet(app.harness, app.loop, 200_000)
    gui_thread.start()
    bid = app.bid.ready()
    tab = bid.tab
    form = tab.form
    bid.choose_runes()
    assert form.runes and not form.scope.isEnabled() and not form.traits.isEnabled()
    assert form.labels["price"].text() == strings.BID_RUNE_PRICE
    assert form.labels["quantity"].text() == strings.BID_UNITS
    assert form.slug.placeholderText() == strings.BID_RUNE_PLACEHOLDER

    typed = DEMO_RUNE.replace("•", "").lower()  # as a user may type it
    paste_into(qtbot, form.slug, typed)
    assert form.slug.text() == typed and not tab.place_button.isEnabled()
    assert tab.message.toPlainText() == strings.BID_PREVIEW_RUNE_PENDING
    type_into(qtbot, form.price.edit, f"{TOTAL:,}")
    assert tab.pools.rowCount() == 0  # not under the typed spelling: under the etched one
    assert not tab.place_button.isEnabled()
    # Enter (or leaving the field) looks the rune up in ord: the field takes its etched name.
    qtbot.keyClick(form.slug, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: form.slug.text() == DEMO_RUNE, timeout=20_000)
    assert form.slug_hint.text() == strings.BID_RUNE_ETCHED.format(name=DEMO_RUNE)
    set_spin(qtbot, form.quantity, UNITS)
    preview = tab.last_preview
    assert preview.placeable, preview.errors
    assert tab.count_label.text() == "This request places 1 bid for 50,000 sats in all."
    assert tab.pools.rowCount() == 1 and tab.pools.item(0, 0).text() == DEMO_RUNE
    message = tab.message.toPlainText()
    assert f":{TOTAL}:{UNITS}:" in message and f":{DEMO_RUNE}:" in message
    assert "\n" not in message  # no traits: the colon line alone

    placed = bid.place()
    assert placed.asked is not None and placed.asked.values["quantity"] == "2,500 units"
    assert placed.said == f"Placed: 1 bid in {DEMO_RUNE}. Accepted at the first attempt."
    gui_thread.assert_not_blocked()

    with gui_thread.paused(), httpx.Client(base_url=app.root_url, timeout=30) as http:
        body = http.get("/v1/address/bids", params={"address": keys.ordinals.address})
    (row,) = body.json()["data"]["results"]
    assert row["type"] == "rune"
    assert (row["price"], row["quantity"]) == (TOTAL, UNITS)

    # A name ord does not know, then one its rules refuse: nothing to count, sign or place.
    for name, reason in (
        ("nosuchrunehere", strings.BID_RUNE_UNKNOWN.format(name="nosuchrunehere")),
        ("abc..d", "“abc..d” is not a rune name: a rune name cannot have two spacers in a row."),
    ):
        form.slug.clear()
        type_into(qtbot, form.slug, name)
        assert bid.result == ""  # the form changed: the last result is gone
        qtbot.keyClick(form.slug, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda said=reason: form.slug_hint.text() == said, timeout=20_000)
        assert tab.message.toPlainText() == strings.BID_PREVIEW_NOTHING_TO_SIGN.format(
            reason=reason
        )
        assert tab.pools.rowCount() == 0 and tab.count_label.text() == ""
        assert not tab.place_button.isEnabled()

    # Back to ordinals: 50,000 sats for 2,500 units is no price per item for 2,500 items.
    bid.choose_ordinals()
    assert form.slug.text() == "" and form.price.value() is None and form.quantity.value() == 1
    assert tab.count_label.text() == "" and not tab.place_button.isEnabled()
