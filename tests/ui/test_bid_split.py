"""The Bid tab at 1024x700: the form/preview split stays where it is whatever the preview
shows (a long pool name in the table, a rune's one-word name in a label, must not narrow the
form)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.profiles import open_prepared_app
from app.ui.tabs.bid_preview import BidPreview, PoolLine
from app.ui.tabs.bid_tab import BidTab

SMALL_LAPTOP = QSize(1024, 700)
WIDE_POOLS = (
    PoolLine("ordinal-maxi-biz [Background: Midnight Blue] [Eyes: Laser]", 120_000, 30_000,
             100_000_000, 50_000_000),
    PoolLine("UNCOMMON•GOODS•AND•MORE•THINGS", 1_250_000_000, 50_000_000, 1_400_000_000, 0),
)  # fmt: skip


def bid_tab_at_1024(
    qtbot: QtBot, make_options: OptionsFactory, open_app: Callable[..., AppHarness]
) -> BidTab:
    app = open_prepared_app(qtbot, open_app, make_options())
    window = app.window
    window.resize(SMALL_LAPTOP)
    window.show_tab("bid")
    tab = window.tab("bid")
    assert isinstance(tab, BidTab)
    tab.clock_tick.stop()  # the preview stays the one given here
    return tab


def test_form_width_does_not_follow_the_preview_content(
    qtbot: QtBot,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    tab = bid_tab_at_1024(qtbot, make_options, open_app)
    layout = tab.layout()
    assert layout is not None
    scroll, preview_box = (layout.itemAt(i).widget() for i in (0, 1))
    assert scroll is not None and preview_box is not None
    tab._show_pools(BidPreview())
    QApplication.processEvents()
    empty = scroll.width()
    tab._show_pools(BidPreview(pools=WIDE_POOLS))
    # A rune or slug is one word: a label holding it must not widen the preview either.
    tab.pools_balance.setText("UNCOMMON•GOODS•AND•MORE•THINGS" * 4)
    tab.pools_balance.setVisible(True)
    layout.activate()
    QApplication.processEvents()
    assert scroll.width() == empty
    # The split is the stretch factors' alone: the preview's content sets no minimum on it.
    assert abs(scroll.width() * 4 - preview_box.width() * 5) <= 9 * 2
