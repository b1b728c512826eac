"""The rune field's suggestion list and the keys: with the list open and nothing highlighted,
Return commits what is typed (Qt's unfiltered completer made the first row current without
highlighting it, so Return put that name in the field: `AB.` became a rune holding `AB`);
Down highlights the first suggestion, Return then puts it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QLineEdit
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


def _typed_with_list_open(
    qtbot: QtBot, edit: QLineEdit, completion: RuneCompletion, typed: str
) -> QAbstractItemView:
    """`typed` keyed into the field, then its suggestion list once shown."""
    qtbot.keyClicks(edit, typed)
    popup = completion.completer.popup()
    assert popup is not None
    qtbot.waitUntil(popup.isVisible)
    return popup


def _down_then_return(
    qtbot: QtBot, edit: QLineEdit, completion: RuneCompletion, typed: str
) -> list[str]:
    """`typed`, then Down and Return in its suggestion list: the names the field chose."""
    chosen: list[str] = []
    completion.chosen.connect(chosen.append)
    popup = _typed_with_list_open(qtbot, edit, completion, typed)
    qtbot.keyClick(popup, Qt.Key.Key_Down)
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    return chosen


def test_return_with_nothing_picked_commits_the_typed_text(qtbot: QtBot) -> None:
    edit, completion = _field(qtbot)
    committed: list[str] = []
    edit.editingFinished.connect(lambda: committed.append(edit.text()))
    popup = _typed_with_list_open(qtbot, edit, completion, "AB.")
    assert completion.suggestions() == ["UNCOMMON•XABYZQW•GOODS"]

    qtbot.keyClick(popup, Qt.Key.Key_Return)

    assert committed == ["AB."]
    assert edit.text() == "AB."
    assert not popup.isVisible()


def test_return_on_a_picked_name_still_puts_that_name(qtbot: QtBot) -> None:
    edit, completion = _field(qtbot)
    assert _down_then_return(qtbot, edit, completion, "xab") == ["UNCOMMON•XABYZQW•GOODS"]
    assert edit.text() == "UNCOMMON•XABYZQW•GOODS"


def test_down_goes_to_the_first_suggestion(qtbot: QtBot) -> None:
    edit, completion = _field(qtbot)
    completion.set_names(["AAA•B", "AAA•C", "AAA•D"])
    assert _down_then_return(qtbot, edit, completion, "aaa") == ["AAA•B"]
