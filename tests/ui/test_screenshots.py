"""Screenshots of each tab and the main dialogs on a real X server (Xvfb, xcb platform),
saved to artifacts/screenshots/ for people to look at. Skipped without Xvfb."""

from __future__ import annotations

from pathlib import Path

from tests.ui.screenshots import assert_drawn, shoot_under_xvfb


def test_screenshots_of_each_tab_and_dialog(xvfb_display: str, tmp_path: Path) -> None:
    saved = shoot_under_xvfb("tests.ui.screenshot_app", xvfb_display, tmp_path, timeout_s=180)
    names = {path.name for path in saved}
    for theme in ("light", "dark"):
        for tab in ("activity", "settings"):
            assert f"{theme}-tab-{tab}.png" in names
        assert f"{theme}-dialog-key-import.png" in names
    for path in saved:
        assert_drawn(path, 300, 100)
