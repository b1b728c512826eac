"""The pool's market in the window against the real sandbox (issue 16). The Bid tab's market
band: the chosen pool's floor, top bid, spread and our rank, the depth chart, the rank the
typed price would get, the shortcuts that fill the price; the market moves through the
sandbox's scenario API (a competitor outbids us, the floor drops) and the band follows with no
Refresh clicked. Market data that cannot be read leaves the band saying so while a bid is
still placed by hand. The Open bids tab's Rank column, and whether each bid is the top bid,
following the market the same way."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.core.poll_schedule import PollTiming
from app.services.bids import BidSpec, place_bid
from app.services.pacing import AsyncioSleeper
from app.ui.models.bids_model import COL_RANK
from app.ui.profile_session import profile_session
from app.ui.qa.actions import type_into, widget_top
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.loop import run_async
from app.ui.qa.pages.bid import bid_tab_ready, place_from_bid_tab
from app.ui.qa.profiles import open_funded_app
from app.ui.qa.sandbox import Sandbox, fund_bidding_wallet, new_collection, sandbox_post
from app.ui.qa.sandbox_faults import SandboxFaults
from app.ui.state.market_state import MarketState
from app.ui.tabs.bid_tab import BidTab
from app.ui.tabs.open_bids_tab import OpenBidsTab

# The reader reads the watched pool again every fraction of a second (the host's pace still
# applies): the test waits for what the panel shows, never for a duration.
QUICK = PollTiming(start_ms=0, fast_ms=100, fast_polls=1_000, base_ms=100, idle_max_ms=200)
TRAITS = {"Hat": ["Cap", "Crown"]}


def market(root: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = sandbox_post(root, f"/sandbox/market/{path}", body)["data"]
    return data


def competing_bid(root: str, slug: str, price: int, quantity: int = 1) -> str:
    body = {"kind": "collection", "slug": slug, "price": price, "quantity": quantity,
            "bidder": f"rival-{secrets.token_hex(6)}", "fundSats": 10_000_000}  # fmt: skip
    return str(market(root, "bids", body)["bidIds"][0])


def place(app: AppHarness, loop: asyncio.AbstractEventLoop, slug: str, price: int) -> None:
    session = profile_session(app.context)
    expiry = session.clock.now_ms() + 3_600_000
    run_async(
        loop, place_bid(session.signing_context(), BidSpec.collection(slug, price, 1, expiry))
    )


def arrange_market(root: str, slug: str) -> None:
    """Listings at 30,000 and 25,000; rival bids: 2 at 5,000, 1 at 8,000."""
    market(root, "listings", {"slug": slug, "price": 30_000})
    market(root, "listings", {"slug": slug, "price": 25_000})
    competing_bid(root, slug, 5_000, quantity=2)
    competing_bid(root, slug, 8_000)


def quick_market(app: AppHarness) -> MarketState:
    state = MarketState.of(app.context)
    state.use_time(AsyncioSleeper(), QUICK)
    return state


def test_the_panel_shows_the_pool_fills_the_price_and_follows_the_market(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: Sandbox,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app, root = funded.app, funded.root_url
    slug = new_collection(root, TRAITS)  # a market of its own (the demo's is shared)
    fund_bidding_wallet(app, qloop, 500_000)
    arrange_market(root, slug)
    place(app, qloop, slug, 6_000)
    quick_market(app)
    gui_thread.start()
    tab = bid_tab_ready(qtbot, app, slug)
    panel = tab.market
    assert (
        panel.pool is None
        and panel.chart.message() == "Choose a collection or a rune to see its market."
    )

    type_into(qtbot, tab.form.slug, slug)
    summary = "Floor: 25,000 sats · Top bid: 8,000 sats · Spread: 17,000 sats"
    qtbot.waitUntil(lambda: panel.summary() == summary, timeout=20_000)
    assert panel.heading.text() == f"Market: {slug}"
    assert panel.heading.toolTip() == panel.heading.text()  # nothing failed
    assert panel.yours() == "Your best bid: 2nd of 4; 2,000 sats below the top bid"
    assert panel.typed.text() == ""  # nothing typed: the preview's line says the figures
    assert panel.line.text() == "Market — floor 25,000 sats · top bid 8,000 sats"
    # The shortcuts say what they fill in: the floor less 2, 5, 10, 20 % down to the step,
    # one step above the top bid.
    assert panel.shortcut_prices() == {
        "Floor − 2 %": 24_000,
        "Floor − 5 %": 23_000,
        "Floor − 10 %": 22_000,
        "Floor − 20 %": 20_000,
        "Top bid + step": 9_000,
    }
    assert panel.top_plus.text() == "Top bid + step: 9,000 sats"
    geometry = panel.chart.chart_geometry()
    assert geometry is not None and len(geometry.ours) == 1  # our 6,000-sat bid, a dot
    assert geometry.low < 5_000 and geometry.high > 30_000

    # "Top bid + step": one step above the rival's 8,000, and where that would rank.
    panel.top_plus.trigger()  # chosen in the "Price from market" menu
    assert tab.form.price.edit.text() == "9,000"
    assert panel.typed.text() == "At 9,000 sats: 1st of 5, the top bid"
    assert panel.line.text() == "Market — at 9,000 sats: 1st of 5 · top bid"
    assert panel.chart.typed_price() == 9_000
    # "Floor − 10 %": 22,500 rounded down to the 1,000-sat step.
    panel.floor_minus[10].trigger()
    assert tab.form.price.edit.text() == "22,000"
    assert tab.last_preview.bid_count == 1  # the preview took the price as typed

    # The market moves: a rival outbids us, the floor drops; no click anywhere, and nothing
    # moves under the cursor.
    def places() -> list[QPoint]:
        shown = (panel.chart, panel.price_button, tab.place_button, tab.message, tab.pools)
        return [widget.mapTo(tab, QPoint(0, 0)) for widget in shown]

    before = places()
    competing_bid(root, slug, 7_000)
    market(root, "floor", {"slug": slug, "price": 20_000})
    moved = "Floor: 20,000 sats · Top bid: 8,000 sats · Spread: 12,000 sats"
    qtbot.waitUntil(lambda: panel.summary() == moved, timeout=20_000)
    qtbot.waitUntil(
        lambda: panel.yours() == "Your best bid: 3rd of 5; 2,000 sats below the top bid",
        timeout=20_000,
    )
    assert places() == before

    # The floor fell below the 22,000 typed: buying the cheapest listing costs less, and the
    # page, the preview's line and the question before signing say so (a lying top bid or
    # floor cannot walk the user past it unwarned).
    qtbot.waitUntil(tab.place_button.isEnabled, timeout=10_000)
    pays = "Buying at the floor (20,000 sats) costs no more."
    assert panel.typed.text() == f"At 22,000 sats: 1st of 6, the top bid\n{pays}"
    assert panel.typed.property("role") == "warning"
    assert panel.line.text() == "Market — at or above the floor (20,000 sats)"
    # Each line whole at 1024x700, bold as it is, on its page (the Market page, the Preview).
    app.window.resize(1024, 700)
    for page, label in ((tab.market, panel.typed), (tab.side.widget(0), panel.line)):
        tab.side.setCurrentWidget(page)
        QApplication.processEvents()
        widget_top(label)  # the layouts settled at that size
        for line in label.text().split("\n"):
            assert label.fontMetrics().horizontalAdvance(line) <= label.contentsRect().width()
    shown = place_from_bid_tab(qtbot, app, tab)
    assert shown["market"] == f"At 22,000 sats: 1st of 6, the top bid\n{pays}"
    qtbot.waitUntil(lambda: tab.result.text().startswith("Placed"), timeout=30_000)


def test_market_data_unavailable_never_blocks_a_bid(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: Sandbox,
    bidwallet_faults: SandboxFaults,
) -> None:
    down = bidwallet_faults.reply(
        "GET", "/v1/activity/*", 503, {"message": "market down"}, times=None
    )
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app, root = funded.app, funded.root_url
    slug = new_collection(root, TRAITS)
    fund_bidding_wallet(app, qloop, 300_000)
    quick_market(app)
    tab: BidTab = bid_tab_ready(qtbot, app, slug)
    panel = tab.market

    type_into(qtbot, tab.form.slug, slug)
    qtbot.waitUntil(
        lambda: panel.figures.text().startswith("Market data unavailable"), timeout=20_000
    )
    assert panel.figures.text().endswith("You can still place a bid.")
    assert panel.chart.message() == "No depth to draw." and not panel.price_button.isEnabled()
    assert panel.line.text() == "Market data unavailable (see the Market page)."
    type_into(qtbot, tab.form.price.edit, "20,000")
    qtbot.waitUntil(tab.place_button.isEnabled, timeout=10_000)
    shown = place_from_bid_tab(qtbot, app, tab)
    assert shown["message"] and shown["market"] == ""  # no rank to tell: no row
    qtbot.waitUntil(lambda: tab.result.text().startswith("Placed"), timeout=30_000)

    # The market answers again: the panel shows it, our new bid ranked, with no click.
    bidwallet_faults.remove(down.id)
    qtbot.waitUntil(lambda: panel.yours().startswith("Your best bid: 1st of 1"), timeout=30_000)
    assert panel.summary() == "Floor: none · Top bid: none"
    assert panel.heading.text() == f"Market: {slug}"

    # It fails again: the figures stay, the title says since when.
    bidwallet_faults.reply("GET", "/v1/activity/*", 503, {"message": "down"}, times=None)
    qtbot.waitUntil(lambda: "not updated since" in panel.heading.text(), timeout=30_000)
    assert panel.yours().startswith("Your best bid: 1st of 1")
    assert panel.heading.toolTip().startswith("The last reading failed: ")


def test_open_bids_show_each_bids_rank_and_follow_the_market(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: Sandbox,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app, root = funded.app, funded.root_url
    slug = new_collection(root, TRAITS)
    fund_bidding_wallet(app, qloop, 500_000)
    arrange_market(root, slug)
    place(app, qloop, slug, 6_000)
    place(app, qloop, slug, 9_000)
    quick_market(app)
    gui_thread.start()
    app.window.show_tab("open_bids")
    tab = app.window.tab("open_bids")
    assert isinstance(tab, OpenBidsTab)

    def ranks() -> dict[int, str]:
        column = COL_RANK
        return {
            tab.model.entry(r).price or 0: tab.model.index(r, column).data()
            for r in range(tab.model.rowCount())
        }

    assert tab.model.headerData(COL_RANK, Qt.Orientation.Horizontal) == "Rank"
    # Ours never outrank each other: the 9,000 bid is the top, the 6,000 one is behind the
    # rival's 8,000 (of 5 bids in all).
    qtbot.waitUntil(
        lambda: ranks() == {9_000: "1st of 5 · top bid", 6_000: "2nd of 5"}, timeout=20_000
    )
    row = next(r for r in range(tab.model.rowCount()) if tab.model.entry(r).price == 6_000)
    tip = tab.model.index(row, COL_RANK).data(Qt.ItemDataRole.ToolTipRole)
    assert tip == "2nd of 5; 2,000 sats below the top bid"

    # A rival outbids our top bid: both rows follow, with no Refresh clicked.
    competing_bid(root, slug, 10_000)
    qtbot.waitUntil(lambda: ranks() == {9_000: "2nd of 6", 6_000: "3rd of 6"}, timeout=20_000)
