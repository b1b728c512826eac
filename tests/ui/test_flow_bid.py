"""A collection bid through the Bid tab against the real sandbox: the collection is offered
for completion, the live preview shows the bids, the pool and whether it fits, and the exact
message to be signed; Place signs, verifies and sends; the bids are listed by the service and
appear in the Open bids tab and the Wallet tab's pool chart."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.pools import bid_cost
from app.services.sandbox_process import SandboxProcess
from app.ui.profile_session import profile_session
from app.ui.tabs.open_bids_tab import OpenBidsTab
from app.ui.tabs.wallet_tab import WalletTab
from tests.ui.conftest import AppHarness, OptionsFactory
from tests.ui.flows import (
    bid_tab_ready,
    fill_collection_bid,
    fund_bidding_wallet,
    open_funded_app,
    place_from_bid_tab,
)
from tests.ui.gui_thread import GuiThreadWatch

FUNDS = 500_000
PRICE = 20_000
QUANTITY = 3


def test_collection_bid_preview_place_and_listed(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app, keys, slug = funded.app, funded.keys, funded.assets.collection_slug
    fund_bidding_wallet(app, qloop, FUNDS)
    gui_thread.start()
    tab = bid_tab_ready(qtbot, app, slug)
    assert not tab.place_button.isEnabled()  # nothing entered yet

    fill_collection_bid(qtbot, tab, slug, "20,000", QUANTITY)
    assert tab.form.traits.isEnabled()  # the demo collection lists traits

    preview = tab.last_preview
    assert preview.placeable, preview.errors
    assert tab.count_label.text() == f"This request places {QUANTITY} bids for 60,000 sats in all."
    fee = profile_session(app.context).maker_fee
    assert tab.pools.rowCount() == 1
    cells = [tab.pools.item(0, c).text() for c in range(tab.pools.columnCount())]
    assert cells == [slug, "0", f"{QUANTITY * bid_cost(PRICE, fee):,}", f"{FUNDS:,}", "yes"]
    message = tab.message.toPlainText()
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
    place_from_bid_tab(qtbot, app, tab)
    qtbot.waitUntil(lambda: tab.result.text().startswith("Placed:"), timeout=30_000)
    assert tab.result.text() == (
        f"Placed: {QUANTITY} bids in {slug}. Accepted at the first attempt."
    )
    qtbot.waitUntil(lambda: tab.state.loads > loads, timeout=20_000)  # refreshed after it

    # The new bids show in the Open bids tab and in the Wallet tab's pool chart.
    open_bids = app.window.tab("open_bids")
    assert isinstance(open_bids, OpenBidsTab)
    qtbot.waitUntil(lambda: open_bids.model.rowCount() == QUANTITY, timeout=20_000)
    wallet = app.window.tab("wallet")
    assert isinstance(wallet, WalletTab)
    (bar,) = wallet.chart.bars()
    assert (bar.label, bar.bids, bar.balance) == (slug, QUANTITY, FUNDS)
    assert bar.committed == QUANTITY * bid_cost(PRICE, fee)
    # The preview now counts the open bids in the pool.
    assert tab.pools.item(0, 1).text() == f"{bar.committed:,}"
    gui_thread.assert_not_blocked()

    with gui_thread.paused(), httpx.Client(base_url=funded.root_url, timeout=30) as http:
        listed = http.get("/v1/address/bids", params={"address": keys.ordinals.address}).json()
    rows = listed["data"]["results"]
    assert len(rows) == QUANTITY
    assert {(r.get("collectionSlug") or r.get("collection_slug"), r["price"]) for r in rows} == {
        (slug, PRICE)
    }
    placed = [e for e in app.context.activity.entries() if e.action == "bid.place"]  # type: ignore[union-attr]
    assert len(placed) == 1 and placed[0].ok
