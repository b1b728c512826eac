"""The Bid tab's market page at 1024x700, in the light and the dark theme (issue 16): a pool's
market as the panel draws it (a snapshot from `app.core.market_snapshot` with long figures,
a rank far down and a typed price) fits the page without scrolling sideways: every line's
text whole in its width, the "Price from market" button inside the page, the depth chart a
real picture (its paths, our dots, round prices under it); the preview page keeps its line
for the market above a whole Place button. The chart's colours are the theme's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.core.market_snapshot import MarketBid, MarketListing, build_snapshot
from app.core.pools import PoolKey
from app.services.market import PoolMarket
from app.services.profiles import Theme
from app.ui import strings
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.profiles import open_prepared_app
from app.ui.tabs.bid_tab import BidTab
from app.ui.theme import COLORS, apply_theme
from app.ui.widgets.depth_chart import CHART_MIN_HEIGHT

POOL = PoolKey("ordinal-maxi-biz")
OURS = "bc1qours"


def busy_market() -> PoolMarket:
    """1,200 rival bids (6 a level) from 1,234,000 sats down, ours 40 levels down; 300 listings."""
    bids = [
        MarketBid(f"b{i}", 1_234_000 - (i % 400) * 1_000, 1 + i % 3, f"rival{i}", "collection",
                  None, None)
        for i in range(1_200)
    ] + [MarketBid("ours", 1_194_000, 1, OURS, "collection", None, None)]  # fmt: skip
    listings = [
        MarketListing(f"l{i}", f"{i:064x}i0", 1_300_000 + i * 2_000, f"seller{i}")
        for i in range(300)
    ]
    snapshot = build_snapshot(
        POOL, bids, listings, own_addresses=frozenset({OURS}), own_bid_ids=frozenset(),
        fetched_at_ms=0,
    )  # fmt: skip
    return PoolMarket(POOL, snapshot)


@pytest.mark.parametrize("theme", [Theme.LIGHT, Theme.DARK])
def test_the_market_page_fits_1024_by_700_in_both_themes(
    qtbot: QtBot,
    qapp: QApplication,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    theme: Theme,
) -> None:
    apply_theme(qapp, theme)
    app = open_prepared_app(qtbot, open_app, make_options())
    window = app.window
    window.resize(QSize(1024, 700))
    window.show_tab("bid")
    tab = window.tab("bid")
    assert isinstance(tab, BidTab)
    panel = tab.market
    held = busy_market()
    panel.held = lambda: held  # type: ignore[method-assign]  # the market, as MarketState holds it
    panel.show_pool(POOL, 1)
    panel._show()
    tab.form.price.set_value(1_201_000)  # typed: the panel hears it through the preview
    tab.side.setCurrentWidget(panel)
    QApplication.processEvents()

    assert panel.summary() == (
        "Floor: 1,300,000 sats · Top bid: 1,234,000 sats · Spread: 66,000 sats"
    )
    assert panel.yours().startswith("Your best bid: 241st of 2,401; 40,000 sats below")
    assert panel.typed.text().startswith("At 1,201,000 sats: 199th of 2,402; 33,000 sats below")
    width = panel.heading.fontMetrics().horizontalAdvance(panel.heading.text())
    assert width <= panel.heading.width(), panel.heading.text()
    for label in (panel.figures, panel.typed):  # wrapped at their width, within their lines
        room = label.fontMetrics().boundingRect(
            label.contentsRect(), Qt.TextFlag.TextWordWrap, label.text()
        )
        assert room.height() <= label.contentsRect().height(), label.text()
    button = panel.price_button.geometry()
    assert button.right() < panel.width() and button.bottom() < panel.height()
    assert button.top() >= panel.typed.geometry().bottom()
    chart = panel.chart
    assert chart.height() >= CHART_MIN_HEIGHT and chart.geometry().bottom() < panel.height()
    geometry = chart.chart_geometry()
    assert geometry is not None and len(geometry.ours) == 1 and len(geometry.ticks) >= 2
    assert not geometry.bids.isEmpty() and not geometry.asks.isEmpty()
    assert all(geometry.plot.contains(p.toPoint()) for p in geometry.ours)

    # The chart's pixels carry the theme's colours: the bids' line, our dot.
    image = QImage(chart.size(), QImage.Format.Format_ARGB32)
    image.fill(0)
    chart.render(image)
    colours = {
        image.pixelColor(x, y).name() for x in range(image.width()) for y in range(image.height())
    }
    palette = COLORS[theme.value]
    assert palette["ok"] in colours and palette["accent"] in colours

    # The preview page: the market's line first, the Place button whole below the message.
    tab.side.setCurrentIndex(0)
    QApplication.processEvents()
    line = tab.market.line
    assert line.text() == "Market — at 1,201,000 sats: 199th of 2,402" and line.isVisible()
    assert line.fontMetrics().horizontalAdvance(line.text()) <= line.width()
    place, message = tab.place_button.geometry(), tab.message.geometry()
    assert place.top() >= message.bottom() and place.bottom() < tab.side.currentWidget().height()


def test_a_locked_wallet_says_why_no_market_is_read(
    qtbot: QtBot, data_dir: Path, make_options: OptionsFactory, open_app: Callable[..., AppHarness]
) -> None:
    app = open_prepared_app(qtbot, open_app, make_options())
    app.window.show_tab("bid")
    tab = app.window.tab("bid")
    assert isinstance(tab, BidTab)
    tab.market.show_pool(POOL, 1)
    assert not tab.market.state.running  # nothing to read with: the keys are locked away
    assert tab.market.chart.message() == strings.UNLOCK_FIRST_HINT
    assert tab.market.line.text() == "" and tab.market.summary() == ""


def test_a_rune_pool_speaks_in_sats_per_unit(
    qtbot: QtBot, data_dir: Path, make_options: OptionsFactory, open_app: Callable[..., AppHarness]
) -> None:
    app = open_prepared_app(qtbot, open_app, make_options())
    app.window.show_tab("bid")
    tab = app.window.tab("bid")
    assert isinstance(tab, BidTab)
    rune = PoolKey("DOG•GO•TO•THE•MOON")
    bids = [
        MarketBid("r1", 0.5, 100_000, "rival", "rune", None, None),
        MarketBid("r2", 0.25, 200_000, "rival2", "rune", None, None),
    ]
    asks = [MarketListing("l1", "", 0.8, "seller", units=50_000)]
    market = build_snapshot(
        rune, bids, asks, own_addresses=frozenset(), own_bid_ids=frozenset(), fetched_at_ms=0
    )
    panel = tab.market
    panel.held = lambda: PoolMarket(rune, market)  # type: ignore[method-assign]
    panel.show_pool(rune, 1)
    panel.set_typed(60_000, 100_000, rune=True)  # 60,000 sats in all for 100,000 units

    assert panel.summary() == (
        "Floor: 0.8 sats per unit · Top bid: 0.5 sats per unit · Spread: 0.3 sats per unit"
    )
    assert panel.yours() == "You have no bid in this pool."
    assert panel.typed.text() == "At 0.6 sats per unit: 1st of 400,000 units, the top bid"
    assert panel.chart.typed_price() == 0.6
    geometry = panel.chart.chart_geometry()
    assert geometry is not None and geometry.count_label == "300,000 units"
    # No bid step for a rune unit: the shortcuts have no price to offer.
    assert set(panel.shortcut_prices().values()) == {None}
    assert not panel.price_button.isEnabled()
