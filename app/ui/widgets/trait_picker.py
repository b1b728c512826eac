"""Pick traits of a collection: a search box over a checkable list, at most `limit` ticked.

Each item is one (trait_type, value) pair shown as "trait_type: value". Ticking past the limit
is undone at once and the reason shown under the list. Where the service lists no traits for
the collection, a pair is typed into the search box as "type: value" and added with Enter
(`add_typed`), ticked: free text, never an empty list that looks broken. Until the collection
is known (`set_waiting`), the line under the list says the traits are still to come."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from PySide6.QtCore import QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QColor, QPalette, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLineEdit,
    QListView,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.ui import strings
from app.ui.theme import ThemeState
from app.ui.widgets import message_label, set_message

PAIR_ROLE = Qt.ItemDataRole.UserRole + 1


def _pair_item(pair: tuple[str, str], count: int | None = None) -> QStandardItem:
    """A checkable row showing "trait_type: value", and how many items carry it where the
    service says ("Background: Blue (37)": the rarer the trait, the fewer sellers)."""
    text = f"{pair[0]}: {pair[1]}"
    item = QStandardItem(
        text if count is None else strings.BID_TRAIT_WITH_COUNT.format(trait=text, count=count)
    )
    item.setData(pair, PAIR_ROLE)
    item.setCheckable(True)
    item.setEditable(False)
    return item


class TraitPicker(QWidget):
    changed = Signal()

    def __init__(self, limit: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.limit = limit
        self.model = QStandardItemModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.search = QLineEdit()
        self.search.setPlaceholderText(strings.BID_TRAITS_SEARCH)
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self.proxy.setFilterFixedString)
        self.search.returnPressed.connect(self.add_typed)
        self.clear_button = QPushButton(strings.BID_TRAITS_CLEAR)
        self.clear_button.clicked.connect(self.clear_selection)
        self.view = QListView()
        self.view.setModel(self.proxy)
        self.view.setUniformItemSizes(True)
        self.view.setMinimumHeight(120)
        self.count_label = message_label("hint")
        self.count_label.setVisible(True)
        top = QHBoxLayout()
        top.addWidget(self.search, 1)
        top.addWidget(self.clear_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.count_label)
        self.setFocusProxy(self.search)
        self._checked: list[tuple[str, str]] = []
        self._waiting = False
        self._not_applicable: str | None = None  # why the bid takes no traits (None: it does)
        self.model.itemChanged.connect(self._item_changed)
        self._update_count()
        self.restyle()

    def restyle(self) -> None:
        """Fusion outlines check boxes in the window colour, darkened: invisible on a dark
        list. Give the list a window colour that outlines them visibly in either theme."""
        palette = self.view.palette()
        palette.setColor(QPalette.ColorRole.Window, QColor(ThemeState.colors["muted"]))
        self.view.setPalette(palette)

    def set_traits(
        self,
        traits: Iterable[tuple[str, Sequence[str]]],
        count_of: Callable[[str, str], int | None] | None = None,
    ) -> None:
        """The collection's traits: (trait_type, its values), with how many items carry each
        where `count_of` says. Clears the selection."""
        self.model.blockSignals(True)
        self.model.clear()
        for trait_type, values in traits:
            for value in values:
                count = None if count_of is None else count_of(trait_type, value)
                self.model.appendRow(_pair_item((trait_type, value), count))
        self.model.blockSignals(False)
        self.proxy.invalidate()
        self._checked = []
        self._update_count()
        self.changed.emit()

    def add_typed(self) -> bool:
        """The search box's "type: value" as a ticked pair (added to the list when it is not
        there); False, with the reason shown, when the text is not a pair or none may be
        ticked."""
        trait_type, colon, value = self.search.text().partition(":")
        trait_type, value = trait_type.strip(), value.strip()
        if not colon or not trait_type or not value:
            if self.search.text().strip():
                set_message(self.count_label, strings.BID_TRAITS_TYPED_BAD)
            return False
        pair = (trait_type, value)
        if pair not in self.pairs():
            self.model.appendRow(_pair_item(pair))
        self.search.clear()
        return self.set_checked(pair, True) and pair in self._checked

    def set_waiting(self, waiting: bool) -> None:
        """True while no collection is known yet: its traits may still come from the service,
        so typing them is not suggested."""
        if waiting != self._waiting:
            self._waiting = waiting
            self._update_count()

    def set_not_applicable(self, reason: str | None) -> None:
        """`reason` the bid takes no traits (a rune, a range), said under the list instead of
        the count; None: it takes them."""
        if reason != self._not_applicable:
            self._not_applicable = reason
            self._update_count()

    def available(self) -> int:
        return self.model.rowCount()

    def selected(self) -> list[tuple[str, str]]:
        """The ticked (trait_type, value) pairs, in the order they were ticked."""
        return list(self._checked)

    def pairs(self) -> list[tuple[str, str]]:
        """Every pair offered, in list order (typed ones included)."""
        return [self.model.item(r).data(PAIR_ROLE) for r in range(self.model.rowCount())]

    def restore(
        self, listed: Sequence[tuple[str, str]], checked: Sequence[tuple[str, str]]
    ) -> None:
        """Offer `listed` again (typed pairs the list lacks are added) and tick `checked`, in
        that order: a form's earlier state coming back (the Bid tab's kinds)."""
        offered = set(self.pairs())
        for pair in listed:
            if pair not in offered:
                self.model.appendRow(_pair_item(pair))
                offered.add(pair)
        for pair in checked:
            self.set_checked(pair, True)

    def set_checked(self, pair: tuple[str, str], checked: bool) -> bool:
        """Tick or untick `pair` as a click would; False when it is not offered."""
        for row in range(self.model.rowCount()):
            item = self.model.item(row)
            if item.data(PAIR_ROLE) == pair:
                state = Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked
                item.setCheckState(state)
                return True
        return False

    def clear_selection(self) -> None:
        self.model.blockSignals(True)
        for row in range(self.model.rowCount()):
            self.model.item(row).setCheckState(Qt.CheckState.Unchecked)
        self.model.blockSignals(False)
        self.view.viewport().update()
        self._checked = []
        self._update_count()
        self.changed.emit()

    def _item_changed(self, item: QStandardItem) -> None:
        pair = item.data(PAIR_ROLE)
        checked = item.checkState() == Qt.CheckState.Checked
        if checked and pair not in self._checked:
            if len(self._checked) >= self.limit:
                self.model.blockSignals(True)
                item.setCheckState(Qt.CheckState.Unchecked)
                self.model.blockSignals(False)
                set_message(self.count_label, strings.BID_TRAITS_LIMIT.format(limit=self.limit))
                return
            self._checked.append(pair)
        elif not checked and pair in self._checked:
            self._checked.remove(pair)
        self._update_count()
        self.changed.emit()

    def _update_count(self) -> None:
        if self._not_applicable is not None:
            set_message(self.count_label, self._not_applicable, "hint")
            return
        listed = self.model.rowCount() > 0
        typed = not listed and not self._waiting
        self.search.setPlaceholderText(
            strings.BID_TRAITS_TYPED_PLACEHOLDER if typed else strings.BID_TRAITS_SEARCH
        )
        if not listed:
            wait = strings.BID_TRAITS_WAIT if self._waiting else strings.BID_TRAITS_TYPE
            set_message(self.count_label, wait, "hint")
            return
        text = strings.BID_TRAITS_COUNT.format(count=len(self._checked), limit=self.limit)
        set_message(self.count_label, text, "hint")
