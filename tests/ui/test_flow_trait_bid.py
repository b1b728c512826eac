"""A trait bid on three traits through the Bid tab: the traits come from the collection's
list (searched and ticked with the keyboard, non-ASCII values included), the preview counts
one bid per trait and item and one pool per trait, the message carries the sorted traits, and
the service lists every bid with its trait."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable

import httpx
from pytestqt.qtbot import QtBot

from app.services.sandbox_process import SandboxProcess
from tests.ui.conftest import AppHarness, OptionsFactory
from tests.ui.flows import (
    bid_tab_ready,
    fund_bidding_wallet,
    open_funded_app,
    place_from_bid_tab,
    set_spin,
    tick_trait,
    type_into,
)
from tests.ui.gui_thread import GuiThreadWatch

TRAITS = (
    ("Gold", "Background: Ünïcødé Gold"),
    ("Fire", "Eyes: 🔥 Fire"),
    ("Crown", "Hat: Crown"),
)
QUANTITY = 2


def test_trait_bid_with_three_traits(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app, slug = funded.app, funded.assets.collection_slug
    fund_bidding_wallet(app, qloop, 300_000)
    gui_thread.start()
    tab = bid_tab_ready(qtbot, app, slug)
    type_into(qtbot, tab.form.slug, slug)
    picker = tab.form.traits
    assert picker.isEnabled() and picker.available() == 9  # the demo collection's 3 x 3
    for search, label in TRAITS:
        tick_trait(qtbot, tab, search, label)
    picker.search.clear()
    assert [f"{t}: {v}" for t, v in picker.selected()] == [label for _, label in TRAITS]
    assert picker.count_label.text() == "3 of at most 50 selected: one bid per trait and item."
    type_into(qtbot, tab.form.price.edit, "12,000")
    set_spin(qtbot, tab.form.quantity, QUANTITY)

    preview = tab.last_preview
    assert preview.placeable, preview.errors
    assert preview.bid_count == 3 * QUANTITY
    assert tab.count_label.text() == "This request places 6 bids for 72,000 sats in all."
    pools = sorted(tab.pools.item(row, 0).text() for row in range(tab.pools.rowCount()))
    assert pools == [
        f"{slug} [Background: Ünïcødé Gold]",
        f"{slug} [Eyes: 🔥 Fire]",
        f"{slug} [Hat: Crown]",
    ]
    first, kind, attributes = tab.message.toPlainText().split("\n")
    parts = first.split(":")
    assert parts[0] == funded.keys.payment.address and parts[2] == funded.keys.ordinals.address
    assert (parts[3], parts[4], parts[6]) == ("12000", str(QUANTITY), slug)
    assert kind == "Type: ordinals"
    assert attributes == (
        'Attributes: [{"trait_type":"Background","value":"Ünïcødé Gold"},'
        '{"trait_type":"Eyes","value":"🔥 Fire"},{"trait_type":"Hat","value":"Crown"}]'
    )

    place_from_bid_tab(qtbot, app, tab)
    qtbot.waitUntil(lambda: tab.result.text().startswith("Placed:"), timeout=30_000)
    assert tab.result.text().startswith("Placed: 6 bids in ")
    for label in (label for _, label in TRAITS):
        assert f"[{label}]" in tab.result.text()
    gui_thread.assert_not_blocked()

    with gui_thread.paused(), httpx.Client(base_url=funded.root_url, timeout=30) as http:
        body = http.get("/v1/address/bids", params={"address": funded.keys.ordinals.address})
    rows = body.json()["data"]["results"]
    traits = Counter(f"{r['attribute']['trait_type']}: {r['attribute']['value']}" for r in rows)
    assert traits == {label: QUANTITY for _, label in TRAITS}
    assert {r["price"] for r in rows} == {12_000}
