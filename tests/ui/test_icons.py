"""Themed icons: drawn at each size for the ratios of the screens present (1x always), in the
colour asked; themed buttons follow the theme, and a theme change after a button's C++ side
is gone (a dialog closed and deleted) leaves it alone instead of touching freed memory."""

from __future__ import annotations

import shiboken6
from PySide6.QtGui import QColor, QGuiApplication
from PySide6.QtWidgets import QApplication, QPushButton

from app.ui.icons import _screen_scales, icon, refresh_themed_icons, set_themed_icon
from app.ui.theme import ThemeState


def test_icons_are_drawn_at_each_size_for_the_screens_ratios(qapp: QApplication) -> None:
    ratios = {screen.devicePixelRatio() for screen in QGuiApplication.screens()}
    assert _screen_scales() == tuple(sorted({1.0} | ratios))
    drawn = icon("wallet", "#c03030")
    assert {(s.width(), s.height()) for s in drawn.availableSizes()} == {
        (n, n) for n in (16, 24, 32, 48)
    }
    image = drawn.pixmap(48, 48).toImage()
    inked = {
        image.pixelColor(x, y).name()
        for x in range(image.width())
        for y in range(image.height())
        if image.pixelColor(x, y).alpha() == 255
    }
    assert QColor("#c03030").name() in inked  # currentColor became the colour asked


def test_a_themed_icon_is_redrawn_in_the_new_colour(qtbot) -> None:
    button = QPushButton("Refresh")
    qtbot.addWidget(button)
    set_themed_icon(button, "refresh")
    before = button.icon().cacheKey()
    saved = dict(ThemeState.colors)
    try:
        ThemeState.colors = saved | {"text": "#ff00ff" if saved["text"] != "#ff00ff" else "#00ff00"}
        refresh_themed_icons()
        assert button.icon().cacheKey() != before
    finally:
        ThemeState.colors = saved
        refresh_themed_icons()


def test_a_deleted_button_is_skipped(qtbot) -> None:
    kept, gone = QPushButton("Kept"), QPushButton("Gone")
    qtbot.addWidget(kept)
    set_themed_icon(kept, "copy")
    set_themed_icon(gone, "copy")
    shiboken6.delete(gone)  # Python still holds the wrapper; its widget is freed
    assert not shiboken6.isValid(gone)
    refresh_themed_icons()  # no crash, no error
    assert not kept.icon().isNull()
