"""The rune field's suggestion list and the keys: with the list open and nothing highlighted,
Return commits what is typed (Qt's unfiltered completer made the first row current without
highlighting it, so Return put that name in the field: `AB.` became a rune holding `AB`);
Down highlights the first suggestion, Return then puts it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from app.ui.tabs.bid_rune_completion import RuneCompletion


def _field(qtbot: QtBot) -> tuple[QLineEdit, RuneCompletion]:
    edit = QLineEdit()
    qtbot.addWidget(edit)
    edit.show()
    edit.setFocus()
    completion = RuneCompletion(edit)
    completion.active = True
    completion.set_names(["UNCOMMON•XABYZQW•GOODS", "BIDWALLET•DEMO"])
    return edit, completion


def test_return_with_nothing_picked_commits_the_typed_text(qtbot: QtBot) -> None:
    edit, completion = _field(qtbot)
    committed: list[str] = []
    edit.editingFinished.connect(lambda: committed.append(edit.text()))
    qtbot.keyClicks(edit, "AB.")
    popup = completion.completer.popup()
    assert popup is not None
    assert completion.suggestions() == ["UNCOMMON•XABYZQW•GOODS"]
    qtbot.waitUntil(popup.isVisible)

    qtbot.keyClick(popup, Qt.Key.Key_Return)

    assert committed == ["AB."]
    assert edit.text() == "AB."
    assert not popup.isVisible()


def test_return_on_a_picked_name_still_puts_that_name(qtbot: QtBot) -> None:
    edit, completion = _field(qtbot)
    chosen: list[str] = []
    completion.chosen.connect(chosen.append)
    qtbot.keyClicks(edit, "xab")
    popup = completion.completer.popup()
    assert popup is not None
    qtbot.waitUntil(popup.isVisible)

    qtbot.keyClick(popup, Qt.Key.Key_Down)
    qtbot.keyClick(popup, Qt.Key.Key_Return)

    assert chosen == ["UNCOMMON•XABYZQW•GOODS"]
    assert edit.text() == "UNCOMMON•XABYZQW•GOODS"


def test_down_goes_to_the_first_suggestion(qtbot: QtBot) -> None:
    edit, completion = _field(qtbot)
    completion.set_names(["AAA•B", "AAA•C", "AAA•D"])
    chosen: list[str] = []
    completion.chosen.connect(chosen.append)
    qtbot.keyClicks(edit, "aaa")
    popup = completion.completer.popup()
    assert popup is not None
    qtbot.waitUntil(popup.isVisible)

    qtbot.keyClick(popup, Qt.Key.Key_Down)
    qtbot.keyClick(popup, Qt.Key.Key_Return)

    assert chosen == ["AAA•B"]
