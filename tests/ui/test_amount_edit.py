"""Every amount field (AmountEdit: Withdraw's, Fund's, the Bid tab's price, ...) groups the
digits of a sats amount as it is typed, keeps the cursor where the user types, and leaves any
other text (BTC, a unit typed, a mistake) as typed so its error can say what is wrong."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.ui.widgets.amount_edit import AmountEdit


def _edit(qtbot: QtBot) -> AmountEdit:
    amount = AmountEdit()
    qtbot.addWidget(amount)
    amount.show()
    amount.edit.setFocus()
    return amount


def test_digits_are_grouped_as_they_are_typed(qtbot: QtBot) -> None:
    amount = _edit(qtbot)
    qtbot.keyClicks(amount.edit, "100000")
    assert amount.edit.text() == "100,000" and amount.value() == 100_000
    assert amount.edit.cursorPosition() == len("100,000")
    qtbot.keyClicks(amount.edit, "0")
    assert amount.edit.text() == "1,000,000"


def test_typing_in_the_middle_keeps_the_cursor_after_the_digit_typed(qtbot: QtBot) -> None:
    amount = _edit(qtbot)
    qtbot.keyClicks(amount.edit, "10000")  # "10,000"
    amount.edit.setCursorPosition(1)  # after the "1"
    qtbot.keyClicks(amount.edit, "5")
    assert amount.edit.text() == "150,000"
    assert amount.edit.text()[: amount.edit.cursorPosition()] == "15"


def test_backspace_over_a_separator_deletes_the_digit_before_it(qtbot: QtBot) -> None:
    amount = _edit(qtbot)
    qtbot.keyClicks(amount.edit, "1234567")  # "1,234,567"
    amount.edit.setCursorPosition(2)  # after "1,"
    qtbot.keyClick(amount.edit, Qt.Key.Key_Backspace)
    assert amount.edit.text() == "234,567" and amount.edit.cursorPosition() == 0
    amount.edit.setCursorPosition(3)  # before ","
    qtbot.keyClick(amount.edit, Qt.Key.Key_Delete)
    assert amount.edit.text() == "23,467"


def test_other_text_is_left_as_typed(qtbot: QtBot) -> None:
    amount = _edit(qtbot)
    qtbot.keyClicks(amount.edit, "20000 sats")  # grouped while digits, then left alone
    assert amount.edit.text() == "20,000 sats" and amount.value() == 20_000
    amount.edit.clear()
    qtbot.keyClicks(amount.edit, "2.5")
    assert amount.edit.text() == "2.5" and amount.error()  # not sats: said, not rewritten
    amount.edit.clear()
    qtbot.keyClicks(amount.edit, "12abc")
    assert amount.edit.text() == "12abc" and amount.error()
    amount.edit.clear()
    amount.unit.setCurrentIndex(amount.unit.findData("btc"))
    qtbot.keyClicks(amount.edit, "0.00012345")
    assert amount.edit.text() == "0.00012345" and amount.value() == 12_345
