"""A fee picker keeps what the user chose when new estimates arrive: the estimates are read
again once a minute old (`FeeEstimateState`) and refill the presets; a user who had just picked
Custom, and not typed a rate yet, was put back on the default preset by a reading that
differed, the custom field hidden under the cursor. Custom only because no preset could be
shown (before any estimate) still gives way to the default preset once one can."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.ui.widgets.fee_picker import CUSTOM, FeePicker


def test_custom_picked_stays_custom_when_the_estimates_change(qtbot: QtBot) -> None:
    picker = FeePicker()
    qtbot.addWidget(picker)
    picker.show()
    assert picker.choice.currentData() == CUSTOM  # no estimate yet: no preset to show
    picker.set_estimates({1: 10.0, 3: 5.0, 6: 2.0})
    assert picker.choice.currentData() == 1  # the default preset, once it can be shown

    picker.choice.setFocus()
    qtbot.keyClick(picker.choice, Qt.Key.Key_End)  # the user picks Custom (the last)
    assert picker.choice.currentData() == CUSTOM and picker.custom.isVisible()
    picker.set_estimates({1: 12.0, 3: 6.0, 6: 3.0})  # the mempool moved: read again
    assert picker.choice.currentData() == CUSTOM and picker.custom.isVisible()
