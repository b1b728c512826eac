"""What the scan dialog shows once it is open (the status line and Write to a folder… once an
export is complete, or a refused code's list) gets room: every wrapped line keeps its height,
every button, field and bar its own, as the dialog grows to fit (Qt alone grew it only to its
minimum: the intro's last line went under the buttons, the progress bar thinned, when an export
was complete)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QLabel, QLineEdit, QProgressBar, QPushButton
from pytestqt.qtbot import QtBot

from app.core.animated_qr import PayloadKind
from app.services.profiles import Theme
from app.ui import strings
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
