"""The scan dialog's geometry. What it shows once it is open (the status line and Write to a
folder… once an export is complete, or a refused code's list) gets room: every wrapped line
keeps its height, every button, field and bar its own, as the dialog grows to fit (Qt alone grew
it only to its minimum: the intro's last line went under the buttons, the progress bar thinned,
when an export was complete). And it steps off the screen region it reads (it would hide the
code), or asks to be moved when the screen has no room."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, QSize
from PySide6.QtWidgets import QApplication, QLabel, QLineEdit, QProgressBar, QPushButton
from pytestqt.qtbot import QtBot

from app.core.animated_qr import PayloadKind
from app.services.profiles import Theme
from app.ui import strings
from app.ui.dialogs.qr_region_overlay import aside_of
from app.ui.dialogs.qr_scan_dialog import QrScanDialog
from app.ui.theme import apply_theme
from app.ui.widgets import set_message


def _assert_roomy(dialog: QrScanDialog) -> None:
    QApplication.sendPostedEvents()
    QApplication.processEvents()
    for label in dialog.findChildren(QLabel):
        if label.isVisible() and label.wordWrap():
            assert label.height() >= label.heightForWidth(label.width()), label.text()
    for kind in (QPushButton, QLineEdit, QProgressBar):
        for widget in dialog.findChildren(kind):
            if widget.isVisible():
                assert widget.height() >= widget.sizeHint().height(), kind.__name__


@pytest.mark.parametrize("theme", [Theme.LIGHT, Theme.DARK])
@pytest.mark.parametrize("shown", ["complete", "refused"])
def test_lines_shown_after_opening_get_their_room(
    qapp: QApplication, qtbot: QtBot, theme: Theme, shown: str
) -> None:
    apply_theme(qapp, theme)  # its style sheet's sizes are the ones squeezed
    dialog = QrScanDialog(frozenset(PayloadKind))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    _assert_roomy(dialog)
    if shown == "complete":
        complete = strings.counted(strings.QR_SCAN_COMPLETE_EXPORT, 77)
        set_message(dialog.status, complete, "ok")
        dialog.write_button.setVisible(True)
    else:
        dialog.refusals.addItem(strings.QR_SCAN_REFUSED_TYPE.format(reason="a URL"))
        dialog.refusals.setVisible(True)
    _assert_roomy(dialog)


SCREEN = QRect(0, 0, 1024, 700)


def test_aside_of_moves_a_window_off_the_region_inside_the_screen() -> None:
    window = QRect(5, 300, 680, 262)
    code = QRect(262, 36, 300, 300)
    corner = aside_of(window, code, SCREEN)
    moved = QRect(corner, window.size())
    assert SCREEN.contains(moved)
    assert not moved.intersects(code)
    clear = QRect(700, 0, 300, 200)
    assert aside_of(window, clear, SCREEN) == window.topLeft()  # nothing to move off


def test_aside_of_covers_the_least_it_can_when_nothing_clears() -> None:
    window = QRect(5, 300, 680, 262)
    middle = QRect(100, 100, 824, 500)
    moved = QRect(aside_of(window, middle, SCREEN), window.size())
    overlap = moved.intersected(middle)
    assert SCREEN.contains(moved)
    assert overlap.height() == 162  # at the screen's foot: over its last 162 rows
    assert moved.top() == SCREEN.bottom() + 1 - window.height()


def test_the_dialog_steps_off_the_region_it_reads_or_says_so(qtbot: QtBot) -> None:
    dialog = QrScanDialog(frozenset(PayloadKind))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    available = dialog.screen().availableGeometry()
    dialog.move(available.topLeft())
    region = QRect(available.topLeft(), QSize(200, 200))
    dialog.keep_clear_of(region)
    assert not dialog.frameGeometry().intersects(region)
    assert dialog.status.text() == ""
    dialog.keep_clear_of(available)  # the whole screen: no room to step aside
    assert dialog.status.text() == strings.QR_SCAN_REGION_COVERED
