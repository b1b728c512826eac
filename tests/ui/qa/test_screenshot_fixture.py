"""bidwallet_screenshot: the window (or a widget) saved as a PNG named after the test, in
--bidwallet-screenshots DIR or the test's tmp_path."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.profiles import prepare_profile


def test_a_shot_of_the_window_and_of_a_widget(
    qtbot: QtBot,
    bidwallet_options: OptionsFactory,
    bidwallet_data_dir: Path,
    bidwallet_open_app: Callable[..., AppHarness],
    bidwallet_screenshot: Callable[..., Path],
    tmp_path: Path,
) -> None:
    prepare_profile(bidwallet_data_dir)
    app = bidwallet_open_app(bidwallet_options())
    qtbot.waitSignal(app.window.controller.ready, timeout=30_000).wait()

    window = bidwallet_screenshot("window", app.window)
    assert window == tmp_path / "test_a_shot_of_the_window_and_of_a_widget-window.png"
    image = QImage(str(window))
    assert (image.width(), image.height()) == (app.window.width(), app.window.height())

    label = QLabel("a widget of its own")
    qtbot.addWidget(label)
    label.show()
    assert QImage(str(bidwallet_screenshot("label", label))).width() == label.width()


def test_a_popup_is_not_the_window_shot(
    qtbot: QtBot, bidwallet_screenshot: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A completer's list, open or just closed, is not what a shot without a widget saves:
    under X the list is the active window while open and a moment after (the shot came out
    as a blank strip). The offscreen platform never makes a popup active: X's answer is
    given here by hand."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication, QWidget

    window = QLabel("the window")
    qtbot.addWidget(window)
    window.resize(300, 200)
    window.show()
    qtbot.waitExposed(window)
    popup = QWidget(window, Qt.WindowType.Popup)
    popup.resize(120, 20)
    popup.show()
    monkeypatch.setattr(QApplication, "activeWindow", staticmethod(lambda: popup))
    shot = QImage(str(bidwallet_screenshot("with-popup")))
    assert (shot.width(), shot.height()) == (300, 200)
    popup.hide()
    shot = QImage(str(bidwallet_screenshot("popup-closed")))
    assert (shot.width(), shot.height()) == (300, 200)


def test_no_window_shown_is_said(bidwallet_screenshot: Callable[..., Path]) -> None:
    from PySide6.QtWidgets import QApplication

    if any(w.isVisible() for w in QApplication.topLevelWidgets()):
        pytest.skip("a window of another test is still shown")
    with pytest.raises(LookupError, match="no window is shown"):
        bidwallet_screenshot("nothing")
