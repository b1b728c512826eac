"""Speed of the Bid tab's depth chart (`app.ui.widgets.depth_chart.DepthChart`): a pool of
10,000 competing bids at as many distinct prices (50 of them ours) and 1,000 listings, drawn
into an offscreen QImage at the panel's size, antialiased, in both themes:
- a repaint (what a frame costs: the typed price moved, a window uncovered);
- a new snapshot (its paths computed, then painted: what a market update costs).

The snapshot is built before the clock starts; the figures are medians of the rounds.

Run: ./dev bench depth_chart [--rounds 50] [--bids 10000] [--listings 1000]
Target: a redraw in <= 16 ms (one frame at 60 Hz).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPoint
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication

from app.core.market_snapshot import MarketBid, MarketListing, MarketSnapshot, build_snapshot
from app.core.pools import PoolKey
from app.services.profiles import Theme
from app.ui.theme import apply_theme
from app.ui.widgets.depth_chart import DepthChart

TARGET_MS = 16.0
SIZE = (420, 380)  # the Market page's chart at 1024x700
OURS = "bc1qours"


def make_snapshot(bids: int, listings: int, rng: random.Random) -> MarketSnapshot:
    market_bids = [
        MarketBid(
            f"bid{i}",
            rng.uniform(5_000, 400_000),  # distinct prices: one level per bid, the worst case
            rng.randint(1, 3),
            OURS if i % 200 == 0 else f"bc1qbidder{i % 700}",
            "collection",
            None,
            None,
        )
        for i in range(bids)
    ]
    market_listings = [
        MarketListing(f"ask{i}", f"{i:064x}i0", rng.uniform(300_000, 2_000_000), f"bc1p{i}")
        for i in range(listings)
    ]
    return build_snapshot(
        PoolKey("bench"),
        market_bids,
        market_listings,
        own_addresses=frozenset({OURS}),
        own_bid_ids=frozenset(),
        fetched_at_ms=0,
    )


def timed(rounds: int, action: Callable[[], None]) -> list[float]:
    timings = []
    for _ in range(rounds):
        started = time.perf_counter()
        action()
        timings.append((time.perf_counter() - started) * 1000)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--bids", type=int, default=10_000)
    parser.add_argument("--listings", type=int, default=1_000)
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])
    rng = random.Random(16)
    snapshots = [make_snapshot(args.bids, args.listings, rng) for _ in range(2)]
    chart = DepthChart()
    chart.resize(*SIZE)
    image = QImage(chart.size(), QImage.Format.Format_ARGB32_Premultiplied)

    def paint() -> None:
        painter = QPainter(image)
        chart.render(painter, QPoint())
        painter.end()

    turn = [0]

    def new_snapshot() -> None:
        turn[0] += 1
        chart.set_snapshot(snapshots[turn[0] % 2])
        paint()

    load_before = os.getloadavg()
    print(f"{'measure':<58} {'median':>10} {'max':>10}  target")
    for theme in (Theme.LIGHT, Theme.DARK):
        apply_theme(app, theme)  # type: ignore[arg-type]
        chart.set_snapshot(snapshots[0])
        chart.set_typed_price(150_000)
        paint()  # the first paint computes the paths
        repaint = timed(args.rounds, paint)
        update = timed(args.rounds, new_snapshot)
        for what, timings in (("repaint", repaint), ("new snapshot: paths + paint", update)):
            median = statistics.median(timings)
            verdict = "within" if median <= TARGET_MS else "OVER"
            label = f"{theme.value}: {what}"
            print(f"{label:<58} {median:7.2f} ms {max(timings):7.2f} ms  <= 16 ms ({verdict})")
    geometry = chart.chart_geometry()
    assert geometry is not None
    load_after = os.getloadavg()
    snapshot = snapshots[0]
    print(
        f"({args.rounds} rounds at {SIZE[0]}x{SIZE[1]} px; {len(snapshot.bid_levels):,} bid "
        f"levels, {len(snapshot.ask_levels):,} listing levels, {len(geometry.ours)} dots of ours; "
        f"{geometry.bids.elementCount() + geometry.asks.elementCount():,} path points drawn; "
        f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after)"
    )


if __name__ == "__main__":
    main()
