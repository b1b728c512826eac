"""The Bid tab's message box keeps the user's selection and scroll while what it says stays
the same: the preview is redrawn on a 15 s clock tick and on every reading of the bids (the
timer's, the live updates'), and each redraw set the same text again, which dropped a
selection being copied and scrolled the box back to its top."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.profiles import open_prepared_app
from app.ui.tabs.bid_tab import BidTab


def test_a_redraw_saying_the_same_keeps_the_selection(
    qtbot: QtBot,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    app = open_prepared_app(qtbot, open_app, make_options())
    app.window.show_tab("bid")
    tab = app.window.tab("bid")
    assert isinstance(tab, BidTab)
    box = tab.message
    said = box.toPlainText()
    assert said  # locked: why no message can be shown yet
    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)  # to copy it
    assert box.textCursor().selectedText() == said

    tab.clock_tick.timeout.emit()  # the clock's redraw: nothing changed
    assert box.toPlainText() == said and box.textCursor().selectedText() == said
