"""Themed icons: drawn at each size for the ratios of the screens present (1x always), in the
colour asked."""

from __future__ import annotations

from PySide6.QtGui import QColor, QGuiApplication
from PySide6.QtWidgets import QApplication

from app.ui.icons import _screen_scales, icon


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
