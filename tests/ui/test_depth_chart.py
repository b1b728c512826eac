"""The depth chart's drawing, read from its geometry (no pixels): the cumulative bids step up
to the left from the top bid and the listings to the right from the floor, on one count
scale; thousands of levels make at most a step per pixel column; our bids are dots on the
bids' line; a snapshot with no orders, or none at all, is drawn as words."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.core.market_snapshot import MarketBid, MarketListing, MarketSnapshot, build_snapshot
from app.core.pools import PoolKey
from app.ui.widgets.depth_chart import DepthChart, price_range

POOL = PoolKey("punks")


def snapshot(bids: list[tuple[int, int, str]], asks: list[int]) -> MarketSnapshot:
    """`bids`: (price, units, bidder); "me" is ours."""
    return build_snapshot(
        POOL,
        [
            MarketBid(f"b{i}", p, u, who, "collection", None, None)
            for i, (p, u, who) in enumerate(bids)
        ],
        [MarketListing(f"l{i}", f"{i:064x}i0", p, f"s{i}") for i, p in enumerate(asks)],
        own_addresses=frozenset({"me"}),
        own_bid_ids=frozenset(),
        fetched_at_ms=0,
    )


def chart_of(qtbot: QtBot, market: MarketSnapshot | None, message: str = "") -> DepthChart:
    chart = DepthChart()
    qtbot.addWidget(chart)
    chart.resize(400, 200)
    chart.set_snapshot(market, message)
    return chart


def test_bids_step_down_from_the_top_and_listings_up_from_the_floor(qtbot: QtBot) -> None:
    market = snapshot([(10_000, 1, "a"), (9_000, 2, "me"), (8_000, 3, "b")], [12_000, 13_000])
    chart = chart_of(qtbot, market)
    geometry = chart.chart_geometry()
    assert geometry is not None
    assert (geometry.low, geometry.high) == price_range(market)
    assert geometry.low < 8_000 and geometry.high > 13_000  # both sides whole, with room
    assert geometry.max_units == 6 and geometry.count_label == "6 items"  # the listings: 2
    assert geometry.ticks and all(t.label.endswith(" sats") for t in geometry.ticks)
    plot = geometry.plot

    def y_of(units: int) -> float:
        return plot.bottom() - (plot.height() - 1) * units / 6

    bids = [geometry.bids.elementAt(i) for i in range(geometry.bids.elementCount())]
    # From the top bid on the axis, up 1 at 10,000, 3 at 9,000, 6 at 8,000, out to the left.
    xs = [round(geometry.x_of(p)) for p in (10_000, 9_000, 8_000)]
    steps = [(round(e.x), round(e.y, 3)) for e in bids]
    assert steps[0] == (xs[0], round(y_of(0), 3))
    assert steps[-1] == (plot.left(), round(y_of(6), 3))
    for x, units in zip(xs, (1, 3, 6), strict=True):
        assert (x, round(y_of(units), 3)) in steps
    asks = [geometry.asks.elementAt(i) for i in range(geometry.asks.elementCount())]
    assert round(asks[0].x) == round(geometry.x_of(12_000)) and asks[-1].x == plot.right()
    assert round(asks[-1].y, 3) == round(y_of(2), 3)
    # Ours: one dot, on the bids' line at 9,000 (3 units deep).
    (dot,) = geometry.ours
    assert round(dot.x()) == xs[1] and round(dot.y(), 3) == round(y_of(3), 3)
    # The typed price only moves its line: the paths are the same objects.
    chart.set_typed_price(9_500)
    assert chart.chart_geometry() is geometry and chart.typed_price() == 9_500


def test_thousands_of_levels_make_a_step_per_pixel_column_at_most(qtbot: QtBot) -> None:
    bids = [(100_000 - i * 7, 1, f"r{i}") for i in range(5_000)]
    chart = chart_of(qtbot, snapshot(bids, [101_000]))
    geometry = chart.chart_geometry()
    assert geometry is not None
    assert geometry.bids.elementCount() <= 2 * geometry.plot.width() + 3
    in_range = sum(1 for price, _, _ in bids if price >= geometry.low)
    assert geometry.max_units == in_range  # the depth at the chart's left edge


def test_no_orders_or_no_snapshot_are_said_in_words(qtbot: QtBot) -> None:
    assert chart_of(qtbot, snapshot([], [])).message() == "No bids and no listings in this pool."
    chart = chart_of(qtbot, None, "Reading the market…")
    assert chart.message() == "Reading the market…" and chart.chart_geometry() is None
