"""Rune names suggested in the Bid form's rune field, from the service's list (ord's `/runes`,
read by `services.rune_names.suggested_rune_names`), matched whatever the spacers: typing
`UNCOMMONGOODS`, `uncommon goods` or `COMMON.GOO` suggests `UNCOMMON•GOODS`, and picking it
puts the etched spelling in the field (the one a bid is signed under). Qt's own completer
compares text as typed, spacers included, so this filters the list itself
(`matching_rune_names`, letters compared by `app.core.rune_names.rune_letters`) and shows the
result unfiltered."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QModelIndex, QObject, QStringListModel, Qt, Signal
from PySide6.QtWidgets import QCompleter, QLineEdit

from app.core.rune_names import rune_letters

MAX_SUGGESTIONS = 50


def matching_rune_names(
    typed: str, names: Sequence[str], limit: int = MAX_SUGGESTIONS
) -> list[str]:
    """The names whose letters hold the typed letters (spacers, case and blanks ignored):
    those that start with them first, each group in alphabetical order; at most `limit`."""
    wanted = rune_letters(typed)
    if not wanted:
        return []
    starts, within = [], []
    for name in sorted(names):
        letters = rune_letters(name)
        if letters.startswith(wanted):
            starts.append(name)
        elif wanted in letters:
            within.append(name)
    return (starts + within)[:limit]


class RuneCompletion(QObject):
    """Suggestions under `edit` while `active()` says the field holds a rune name."""

    chosen = Signal(str)  # the etched spelling the user picked

    def __init__(self, edit: QLineEdit, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.edit = edit
        self.names: tuple[str, ...] = ()
        self.active = False
        self.model = QStringListModel(self)
        self.completer = QCompleter(self.model, self)
        self.completer.setWidget(edit)
        self.completer.setCompletionMode(QCompleter.CompletionMode.UnfilteredPopupCompletion)
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer.setMaxVisibleItems(8)
        self.completer.activated.connect(self._picked)
        edit.textEdited.connect(self._typed)

    def set_names(self, names: Sequence[str]) -> None:
        self.names = tuple(names)

    def suggestions(self) -> list[str]:
        """What the popup offers for the field's text now."""
        return self.model.stringList()

    def _typed(self, text: str) -> None:
        if not self.active:
            return
        found = matching_rune_names(text, self.names)
        if found == [text.strip()]:
            found = []  # the field holds the one name already
        self.model.setStringList(found)
        if found:
            self.completer.complete()
            popup = self.completer.popup()
            if popup is not None:
                # Qt makes the first row current, unhighlighted: Return would put it in the
                # field unasked and Down would go to the second. Nothing current: Return
                # commits what is typed, Down picks the first.
                popup.setCurrentIndex(QModelIndex())
        else:
            self._hide_popup()

    def _picked(self, name: str) -> None:
        self.edit.setText(name)
        self._hide_popup()
        self.chosen.emit(name)

    def _hide_popup(self) -> None:
        popup = self.completer.popup()
        if popup is not None:
            popup.hide()
