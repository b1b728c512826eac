"""A trait bid on three traits through the Bid tab: the traits come from the collection's
list (searched and ticked with the keyboard, non-ASCII values included), the preview counts
one bid per trait and item and one pool per trait, the message carries the sorted traits, and
the service lists every bid with its trait."""

from __future__ import annotations

from collections import Counter

import httpx

from app.ui.qa.app import App
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.sandbox import fund_bidding_wallet

TRAITS = (
    ("Gold", "Background: Ünïcødé Gold"),
    ("Fire", "Eyes: 🔥 Fire"),
    ("Crown", "Hat: Crown"),
)
QUANTITY = 2


def test_trait_bid_with_three_traits(bidwallet_app: App, gui_thread: GuiThreadWatch) -> None:
    app = bidwallet_app
    keys, assets = app.keys, app.assets
    assert keys is not None and assets is not None and app.root_url is not None
    slug = assets.collection_slug
    fund_bidding_wallet(app.harness, app.loop, 300_000)
    gui_thread.start()
    bid = app.bid.ready(slug)
    tab = bid.tab
    bid.fill_collection_bid(slug, "12,000", QUANTITY)
    picker = tab.form.traits
    assert picker.isEnabled() and picker.available() == 9  # the demo collection's 3 x 3
    for search, label in TRAITS:
        bid.tick_trait(label, search)
    picker.search.clear()
    assert [f"{t}: {v}" for t, v in picker.selected()] == [label for _, label in TRAITS]
    assert picker.count_label.text() == "3 of at most 50 selected: one bid per trait and item."

    preview = tab.last_preview
    assert preview.placeable, preview.errors
    assert preview.bid_count == 3 * QUANTITY
    assert bid.count_text == "This request places 6 bids for 72,000 sats in all."
    pools = sorted(row[0] for row in bid.pools())
    assert pools == [
        f"{slug} [Background: Ünïcødé Gold]",
        f"{slug} [Eyes: 🔥 Fire]",
        f"{slug} [Hat: Crown]",
    ]
    first, kind, attributes = bid.message.split("\n")
    parts = first.split(":")
    assert parts[0] == keys.payment.address and parts[2] == keys.ordinals.address
    assert (parts[3], parts[4], parts[6]) == ("12000", str(QUANTITY), slug)
    assert kind == "Type: ordinals"
    assert attributes == (
        'Attributes: [{"trait_type":"Background","value":"Ünïcødé Gold"},'
        '{"trait_type":"Eyes","value":"🔥 Fire"},{"trait_type":"Hat","value":"Crown"}]'
    )

    placed = bid.place()
    assert placed.ok and placed.said.startswith("Placed: 6 bids in "), placed.said
    for label in (label for _, label in TRAITS):
        assert f"[{label}]" in placed.said
    gui_thread.assert_not_blocked()

    with gui_thread.paused(), httpx.Client(base_url=app.root_url, timeout=30) as http:
        body = http.get("/v1/address/bids", params={"address": keys.ordinals.address})
    rows = body.json()["data"]["results"]
    traits = Counter(f"{r['attribute']['trait_type']}: {r['attribute']['value']}" for r in rows)
    assert traits == {label: QUANTITY for _, label in TRAITS}
    assert {r["price"] for r in rows} == {12_000}
