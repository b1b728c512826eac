"""A collection bid through the Bid tab against the real sandbox: the collection is offered
for completion, the live preview shows the bids, the pool and whether it fits, and the exact
message to be signed; Place signs, verifies and sends; the bids are listed by the service and
appear in the Open bids tab and the Wallet tab's pool chart."""

from __future__ import annotations

import httpx
from PySide6.QtCore import Qt

from app.core.pools import bid_cost
from app.ui.profile_session import profile_session
from app.ui.qa.app import App
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.sandbox import fund_bidding_wallet
from app.ui.tabs.wallet_tab import WalletTab

FUNDS = 500_000
PRICE = 20_000
QUANTITY = 3


def test_collection_bid_preview_place_and_listed(
    bidwallet_app: App, gui_thread: GuiThreadWatch
) -> None:
    app, qtbot = bidwallet_app, bidwallet_app.qtbot
    keys, assets = app.keys, app.assets
    assert keys is not None and assets is not None and app.root_url is not None
    slug = assets.collection_slug
    fund_bidding_wallet(app.harness, app.loop, FUNDS)
    gui_thread.start()
    bid = app.bid.ready(slug)
    tab = bid.tab
    assert not bid.can_place  # nothing entered yet

    bid.fill_collection_bid(slug, "20,000", QUANTITY)
    assert tab.form.traits.isEnabled()  # the demo collection lists traits

    preview = tab.last_preview
    assert preview.placeable, preview.errors
    assert bid.count_text == f"This request places {QUANTITY} bids for 60,000 sats in all."
    fee = profile_session(app.context).maker_fee
    assert bid.pools() == [[slug, "0", f"{QUANTITY * bid_cost(PRICE, fee):,}", f"{FUNDS:,}", "yes"]]
    message = bid.message
    pubkey = keys.payment.public.public_key.hex()
    head = f"{keys.payment.address}:{pubkey}:{keys.ordinals.address}:{PRICE}:{QUANTITY}:"
    assert message.startswith(head) and f":{slug}:" in message and "\n" not in message

    # The 1,000-sat step: the arrow keys move the price along it.
    tab.form.price.edit.setFocus()
    qtbot.keyClick(tab.form.price.edit, Qt.Key.Key_Up)
    assert tab.form.price.value() == PRICE + 1_000
    qtbot.keyClick(tab.form.price.edit, Qt.Key.Key_Down)
    assert tab.form.price.value() == PRICE

    loads = tab.state.loads
    placed = bid.place()
    assert placed.ok and placed.asked is not None
    assert placed.said == f"Placed: {QUANTITY} bids in {slug}. Accepted at the first attempt."
    assert bid.result == placed.said
    qtbot.waitUntil(lambda: tab.state.loads > loads, timeout=20_000)  # refreshed after it

    # The new bids show in the Open bids tab and in the Wallet tab's pool chart.
    open_bids = app.open_bids.ready(count=QUANTITY)
    assert len(open_bids.rows()) == QUANTITY
    wallet = app.window.tab("wallet")
    assert isinstance(wallet, WalletTab)
    (bar,) = wallet.chart.bars()
    assert (bar.label, bar.bids, bar.balance) == (slug, QUANTITY, FUNDS)
    assert bar.committed == QUANTITY * bid_cost(PRICE, fee)
    # The preview now counts the open bids in the pool.
    assert bid.pools()[0][1] == f"{bar.committed:,}"
    gui_thread.assert_not_blocked()

    with gui_thread.paused(), httpx.Client(base_url=app.root_url, timeout=30) as http:
        listed = http.get("/v1/address/bids", params={"address": keys.ordinals.address}).json()
    rows = listed["data"]["results"]
    assert len(rows) == QUANTITY
    assert {(r.get("collectionSlug") or r.get("collection_slug"), r["price"]) for r in rows} == {
        (slug, PRICE)
    }
    placed_entries = [e for e in app.context.activity.entries() if e.action == "bid.place"]  # type: ignore[union-attr]
    assert len(placed_entries) == 1 and placed_entries[0].ok
