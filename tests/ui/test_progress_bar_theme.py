"""A progress bar's track shows in both themes (in the dark one Fusion drew it in the input
colour with an outline darker than the window: the QR scan's empty bar was not there), and its
text reads over the chunk and over the track. Checked on the pixels of a bar drawn under the
theme, and on the theme's colours (WCAG contrast)."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QProgressBar
from pytestqt.qtbot import QtBot

from app.services.profiles import Theme
from app.ui.theme import COLORS, apply_theme
from tests.ui.test_pool_chart import _contrast


def _lightness_gap(a: QColor, b: QColor) -> int:
    return abs(a.lightness() - b.lightness())


@pytest.mark.parametrize("theme", [Theme.LIGHT, Theme.DARK])
def test_an_empty_bar_shows_its_track_and_the_text_reads_on_both_parts(
    qtbot: QtBot, qapp: QApplication, theme: Theme
) -> None:
    colors = COLORS[apply_theme(qapp, theme)]
    bar = QProgressBar()
    qtbot.addWidget(bar)
    bar.setTextVisible(False)
    bar.setRange(0, 4)
    bar.setValue(0)
    bar.resize(300, 20)
    bar.show()
    qtbot.waitExposed(bar)
    image = bar.grab().toImage()
    window = QColor(colors["window"])
    middle = image.pixelColor(150, image.height() // 2)
    edge = image.pixelColor(150, 0)
    assert _lightness_gap(edge, window) >= 25, (edge.name(), window.name())  # its outline
    assert middle != window  # and its inside, in the buttons' colour
    assert _contrast(colors["text"], colors["progress"]) >= 4.3
    assert _contrast(colors["text"], colors["button"]) >= 4.5
