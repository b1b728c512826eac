"""The review of a secure rune listing the sandbox built with a runestone (an edict), shot under
Xvfb on a fresh profile, light theme (`screenshot_review_runes_sandbox`, which also checks that
its facts, tables, legend and buttons show without scrolling)."""

from __future__ import annotations

from pathlib import Path

from tests.ui.screenshot_review_runes_sandbox import NAME
from tests.ui.screenshots import assert_drawn, shoot_under_xvfb


def test_the_review_of_a_rune_listing_with_an_edict(xvfb_display: str, tmp_path: Path) -> None:
    module = "tests.ui.screenshot_review_runes_sandbox"
    saved = shoot_under_xvfb(module, xvfb_display, tmp_path, timeout_s=300)
    assert [path.name for path in saved] == [NAME]
    assert_drawn(saved[0], 600, 400)
