"""The fee rate a bid asks to be filled at, in the Bid tab: the service's named rates with the
network's estimates (choosable before any estimate is known), or a custom sat/vB; the preview
says it, the placed bid carries it, and the sandbox fills the bid at it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.bid_fee_rate import BidFeeRate, FeeRateName
from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.qa.actions import type_into
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.pages.bid import bid_tab_ready, place_from_bid_tab
from app.ui.qa.profiles import open_funded_app
from app.ui.qa.sandbox import fund_bidding_wallet, new_collection, sandbox_post
from app.ui.tabs.bid_form import BID_FEE_PRESETS
from app.ui.widgets.fee_picker import FeePicker

FUNDS = 300_000
PRICE = 60_000
RATE = 12


def test_the_service_names_are_choosable_before_and_after_the_estimates(qtbot: QtBot) -> None:
    picker = FeePicker(presets=BID_FEE_PRESETS, default_preset=0, min_rate=1)
    qtbot.addWidget(picker)
    names = [picker.choice.itemText(i) for i in range(picker.choice.count())]
    assert names == [
        "Fastest",
        "Within half an hour",
        "Within an hour",
        "Minimum",
        strings.FEE_CUSTOM,
    ]
    # The service's name for each rate is in its tooltip, not in the words shown.
    tip = picker.choice.itemData(0, Qt.ItemDataRole.ToolTipRole)
    assert "“fastestFee”" in tip and strings.BID_FEE_DEFAULT_TIP in tip
    assert "“hourFee”" in picker.choice.itemData(2, Qt.ItemDataRole.ToolTipRole)
    assert picker.choice.toolTip().startswith(tip)  # the chosen one's, and no estimates yet
    assert picker.preset() is BID_FEE_PRESETS[0] and picker.estimate() is None
    picker.choice.setCurrentIndex(2)  # hourFee
    picker.set_estimates({1: 30.0, 3: 20.0, 6: 11.5, 144: 4.0, 1008: 1.0})
    assert picker.choice.itemText(0) == "Fastest — 30 sat/vB now"
    assert picker.choice.itemText(3) == "Minimum — 1 sat/vB now"
    assert "“minimumFee”" in picker.choice.itemData(3, Qt.ItemDataRole.ToolTipRole)
    assert picker.preset() is BID_FEE_PRESETS[2] and picker.estimate() == 11.5  # kept
    assert picker.custom.minimum() == 1  # the service takes no custom rate below 1 sat/vB


def test_the_fund_picker_still_waits_for_estimates_then_picks_normal(qtbot: QtBot) -> None:
    picker = FeePicker()
    qtbot.addWidget(picker)
    assert picker.choice.count() == 1 and picker.preset() is None  # Custom only
    picker.set_estimates({1: 9.0, 3: 5.0, 6: 3.0})
    assert picker.choice.count() == 4 and picker.choice.currentIndex() == 1
    assert picker.rate() == 5


def test_a_bid_asks_the_chosen_rate_and_fills_at_it(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app, root = funded.app, funded.root_url
    slug = new_collection(root, {})
    with httpx.Client(base_url=root, timeout=30) as http:
        collector = http.get("/sandbox/addresses/collector-1").json()["address"]
    sandbox_post(root, "/sandbox/inscriptions", {"address": collector, "collectionSlug": slug})
    fund_bidding_wallet(app, qloop, FUNDS)
    gui_thread.start()
    tab = bid_tab_ready(qtbot, app, slug)
    picker = tab.form.fee_rate
    qtbot.waitUntil(lambda: picker.estimate() is not None, timeout=20_000)
    type_into(qtbot, tab.form.slug, slug)
    type_into(qtbot, tab.form.price.edit, f"{PRICE:,}")
    assert tab.form.draft(0).fee_rate == BidFeeRate.named(FeeRateName.FASTEST)
    assert tab.fee_rate_label.text().startswith(
        "Asks to be filled at the service's “fastest” rate ("
    )

    picker.choice.setCurrentIndex(picker.choice.count() - 1)  # Custom
    picker.custom.setFocus()
    picker.custom.selectAll()
    qtbot.keyClicks(picker.custom, str(RATE))  # as a user types it
    assert picker.custom.value() == RATE
    assert tab.form.draft(0).fee_rate == BidFeeRate.custom(RATE)
    assert tab.fee_rate_label.text() == f"Asks to be filled at {RATE} sat/vB."
    assert tab.last_preview.placeable, tab.last_preview.errors
    place_from_bid_tab(qtbot, app, tab)
    qtbot.waitUntil(lambda: tab.result.text().startswith("Placed:"), timeout=30_000)
    gui_thread.assert_not_blocked()

    with gui_thread.paused(), httpx.Client(base_url=root, timeout=30) as http:
        listed = http.get("/v1/address/bids", params={"address": funded.keys.ordinals.address})
        [bid] = [b for b in listed.json()["data"]["results"] if b["collectionSlug"] == slug]
        fill = http.post("/sandbox/bids/fill", json={"bidId": bid["bid_id"]["$oid"]}).json()
        fill = fill.get("data", fill)
        tx = http.get(f"/esplora/tx/{fill['txid']}").json()
    assert fill["feeRate"] == RATE
    rate = tx["fee"] / -(-tx["weight"] // 4)
    assert RATE <= rate <= RATE * 1.05  # planned on an upper bound of the signed size
