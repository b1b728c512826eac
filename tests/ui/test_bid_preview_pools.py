"""The Bid preview's pools table at 1024x700: every pool's whole name is readable (it wraps in
its cell, within a word too where a word is wider than the cell; never "UN…DS"), the figures
beside it are whole on one line, and the table does not scroll sideways (nor does the tab:
tests/ui/test_window_fit.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.profiles import open_prepared_app
from app.ui.tabs.bid_preview import BidPreview, PoolLine
from app.ui.tabs.bid_tab import BidTab
from app.ui.widgets.wrap_delegate import WrapAnywhereDelegate, text_layout

SMALL_LAPTOP = QSize(1024, 700)
LINES = (
    PoolLine("UNCOMMON•GOODS", 1_250_000, 50_000, 1_400_000, 0),
    PoolLine("ordinal-maxi-biz [Background: 黒]", 120_000, 30_000, 100_000, 50_000),
    PoolLine("pixel-punks [Hat: Crown] [Eyes: Laser]", 0, 90_000, 1_400_000, 0),
)
CELL_PADDING = 8  # px a cell keeps around its text, both sides together


def test_pool_names_are_whole_and_figures_on_one_line_at_1024(
    qtbot: QtBot,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    app = open_prepared_app(qtbot, open_app, make_options())
    window = app.window
    window.resize(SMALL_LAPTOP)
    window.show_tab("bid")
    tab = window.tab("bid")
    assert isinstance(tab, BidTab)
    tab.clock_tick.stop()  # the preview stays the one given here
    tab._show_pools(BidPreview(pools=LINES))
    QApplication.processEvents()
    table = tab.pools
    metrics = table.fontMetrics()
    assert isinstance(table.itemDelegateForColumn(0), WrapAnywhereDelegate)
    assert not table.horizontalScrollBar().isVisible()
    assert table.horizontalHeader().length() <= table.viewport().width()
    for row, line in enumerate(LINES):
        cell = table.visualRect(table.model().index(row, 0))
        room = cell.width() - CELL_PADDING
        layout, height = text_layout(line.pool, table.font(), room)  # as the cell draws it
        widths = [layout.lineAt(i).naturalTextWidth() for i in range(layout.lineCount())]
        assert max(widths) <= room and height <= cell.height(), line.pool
        assert metrics.height() * 3 > cell.height()  # two lines at most, at this width
        for column in (1, 2):  # the figures: whole on one line
            text = table.item(row, column).text()
            figure = table.visualRect(table.model().index(row, column))
            assert metrics.horizontalAdvance(text) <= figure.width() - CELL_PADDING, text
        fits = table.item(row, 4).text()  # "no: 50,000 sats short" may take two lines
        cell = table.visualRect(table.model().index(row, 4))
        flags = Qt.TextFlag.TextWordWrap
        needed = metrics.boundingRect(QRect(0, 0, cell.width() - CELL_PADDING, 10_000), flags, fits)
        assert needed.height() <= cell.height(), fits
    # The balance, the same for every pool, is said once under the table.
    assert table.isColumnHidden(3)
    assert (
        tab.pools_balance.text() == "Each pool is checked against your balance of 1,400,000 sats."
    )
