"""Screenshots of the pool's market in the window (issue 16): the Bid tab's Preview with its
market line, its Market page (figures, ranks, depth chart), and the Open bids tab's Rank
column, in light and dark at 1024x700, on a real X server (Xvfb, xcb platform), saved to
artifacts/screenshots/. Skipped without Xvfb. Drawn by `tests.ui.screenshot_market`."""

from __future__ import annotations

from pathlib import Path

from tests.ui.screenshots import assert_drawn, shoot_under_xvfb

SHOTS = ("bid-preview-market-line", "bid-market", "open-bids-rank")


def test_screenshots_of_the_market(xvfb_display: str, tmp_path: Path) -> None:
    saved = shoot_under_xvfb("tests.ui.screenshot_market", xvfb_display, tmp_path, timeout_s=240)
    assert {p.name for p in saved} == {
        f"{theme}-{shot}.png" for theme in ("light", "dark") for shot in SHOTS
    }
    for path in saved:
        assert_drawn(path, 1000, 650)
