"""A bid on one inscription through the widgets against the real sandbox: bad input is said at
each field, the review says "you pay ... you receive inscription ... at <your ordinals
address>", Sign places it, and once the sandbox's seller accepts it the table shows it filled."""

from __future__ import annotations

import httpx

from app.ui import strings
from app.ui.qa.actions import type_into, widget_top
from app.ui.qa.app import App
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.pages.inscription_bid import FieldErrors

PRICE = 30_000


def seller_inscription(root_url: str, label: str) -> str:
    """An inscription held by a sandbox key (a seller who can accept bids), confirmed."""
    with httpx.Client(base_url=root_url, timeout=60) as http:
        seller = http.get(f"/sandbox/addresses/{label}").json()["address"]
        created = http.post("/sandbox/inscriptions", json={"address": seller})
        assert created.is_success, created.text
        assert http.post("/sandbox/mine", json={"blocks": 1}).is_success
        return str(created.json()["inscriptionId"])


def test_inscription_bid_placed_then_accepted_shows_filled(
    bidwallet_app: App, bidwallet_gui_thread: GuiThreadWatch
) -> None:
    app, gui_thread = bidwallet_app, bidwallet_gui_thread
    assert app.keys is not None and app.root_url is not None
    inscription = seller_inscription(app.root_url, "ui-inscription-seller")

    gui_thread.start()
    page = app.inscription_bid
    tab = page.widget
    assert page.bids() == [] and page.list_hint == strings.INSCRIPTION_BID_NONE

    # Nothing is red before it is touched, nor while it is being typed; each field says what
    # is wrong with it once left, under it, without moving the fields below; Review stays off.
    assert page.field_errors() == FieldErrors("", "")
    app.window.activateWindow()  # focus moves (leaving a field) only in the active window
    app.qtbot.waitUntil(app.window.isActiveWindow)
    price_at = widget_top(tab.price)
    type_into(app.qtbot, tab.inscription, "not-an-id")
    assert not tab.inscription_error.isVisible()  # still typing
    type_into(app.qtbot, tab.price.edit, "9,000")  # the id field is left
    assert tab.inscription_error.text() == strings.INSCRIPTION_BID_ID_INVALID
    assert tab.inscription_error.isVisible() and widget_top(tab.price) == price_at
    assert not tab.price_error.isVisible()
    tab.inscription.setFocus()  # the price field is left
    assert tab.price_error.text() == "Offer at least 10,000 sats for one inscription."
    assert not tab.review_button.isEnabled()
    assert page.fill(inscription, PRICE) == FieldErrors("", "")  # fixed: gone at once
    assert widget_top(tab.price) == price_at

    review = page.review(inscription, PRICE)
    (note, *_rest) = review.notes
    assert note.startswith("You pay ") and f"you receive inscription {inscription}" in note
    assert f"at {app.keys.ordinals.address} (your ordinals address)" in note
    assert review.can_approve
    with app.qtbot.waitSignal(tab.refreshed, timeout=30_000):
        said = review.approve()
    bid_id = tab.last_bid_id
    assert bid_id is not None and bid_id in said and bid_id in page.status
    page.expect_state(bid_id, "open", timeout_ms=10_000)

    with gui_thread.paused(), httpx.Client(base_url=app.root_url, timeout=60) as http:
        accepted = http.post("/sandbox/inscription-bids/accept", json={"bidId": bid_id})
        assert accepted.is_success, accepted.text
    page.refresh()
    assert tab.state_of(bid_id) == "accepted"
    assert page.state_of(bid_id) == strings.INSCRIPTION_BID_STATES["accepted"]
    (row,) = [r for r in page.bids() if r.bid_id == bid_id]
    assert row.inscription_id == inscription
    gui_thread.assert_not_blocked()
