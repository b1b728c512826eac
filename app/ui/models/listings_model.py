"""The Listings tab's table of held items: a check box to select each, whether it is listed
(the service's word: at what price, or unknown; and a live signature of ours on it, whatever
the service says, in the warning colour), and an editable price, shown only on ticked rows
(a listed item's price is in the Listed column; typing a price ticks the row)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor

from app.ui import strings
from app.ui.models.review_model import short
from app.ui.tabs.listings_items import ListingMark, kind_text
from app.ui.theme import ThemeState
from app.ui.widgets import plain_tooltip

if TYPE_CHECKING:
    from app.services.listings_inventory import HeldItem

_Index = QModelIndex | QPersistentModelIndex
CHECK, ITEM, KIND, COLLECTION, LISTED, PRICE = range(6)
UNKNOWN_MARK = ListingMark(False)


class HeldItemsModel(QAbstractTableModel):
    selection_changed = Signal()  # a check box or a price changed

    def __init__(self) -> None:
        super().__init__()
        self.items: list[HeldItem] = []
        self.checked: list[bool] = []
        self.prices: list[int | None] = []
        self.marks: dict[str, ListingMark] = {}  # by item key; missing: unknown

    def set_items(self, items: Sequence[HeldItem]) -> None:
        """Replace the items, keeping the choices made for those still held."""
        kept = {
            i.key: (c, p) for i, c, p in zip(self.items, self.checked, self.prices, strict=True)
        }
        self.beginResetModel()
        self.items = list(items)
        self.checked = [kept.get(i.key, (False, None))[0] for i in self.items]
        self.prices = [kept.get(i.key, (False, None))[1] for i in self.items]
        self.endResetModel()
        self.selection_changed.emit()

    def set_marks(self, marks: dict[str, ListingMark]) -> None:
        """Whether each item is listed (by its key), as the service and the ledger last said."""
        self.marks = dict(marks)
        self._changed_column(LISTED)

    def mark(self, row: int) -> ListingMark:
        return self.marks.get(self.items[row].key, UNKNOWN_MARK)

    def selected(self) -> list[tuple[HeldItem, int | None]]:
        return [(i, p) for i, c, p in zip(self.items, self.checked, self.prices, strict=True) if c]

    def check_all(self, checked: bool) -> None:
        self.checked = [checked] * len(self.items)
        self._changed_column(CHECK)
        self._changed_column(PRICE)  # shown only on ticked rows

    def check_only(self, keys: Sequence[str]) -> None:
        """Tick the items `keys`, untick the others."""
        wanted = set(keys)
        self.checked = [i.key in wanted for i in self.items]
        self._changed_column(CHECK)
        self._changed_column(PRICE)  # shown only on ticked rows

    def set_checked(self, row: int, checked: bool) -> None:
        self.setData(self.index(row, CHECK), _state(checked), Qt.ItemDataRole.CheckStateRole)

    def untick(self, keys: Sequence[str]) -> None:
        """Clear the tick and the price of the items `keys` (listed just now: the next action
        starts clean instead of asking to relist them)."""
        gone = set(keys)
        for row, item in enumerate(self.items):
            if item.key in gone:
                self.checked[row], self.prices[row] = False, None
        self._changed_column(CHECK)
        self._changed_column(PRICE)

    def price_selected(self, price: int) -> None:
        """One price for every selected item."""
        self.prices = [price if c else p for c, p in zip(self.checked, self.prices, strict=True)]
        self._changed_column(PRICE)

    def _changed_column(self, column: int) -> None:
        if self.items:
            self.dataChanged.emit(self.index(0, column), self.index(len(self.items) - 1, column))
        self.selection_changed.emit()

    # -- Qt ---------------------------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self.items)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(strings.LISTINGS_HELD_HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return strings.LISTINGS_HELD_HEADERS[section]
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() == CHECK:
            return base | Qt.ItemFlag.ItemIsUserCheckable
        if index.column() == PRICE:
            return base | Qt.ItemFlag.ItemIsEditable
        return base

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        item, column = self.items[index.row()], index.column()
        if role == Qt.ItemDataRole.CheckStateRole and column == CHECK:
            return _state(self.checked[index.row()])
        if role == Qt.ItemDataRole.ToolTipRole and column == ITEM:
            return plain_tooltip(item.inscription_id or f"{item.runes} on {item.outpoint}")
        if column == LISTED and role == Qt.ItemDataRole.ToolTipRole:
            return plain_tooltip(self.mark(index.row()).tip)
        if column == LISTED and role == Qt.ItemDataRole.ForegroundRole:
            color = _mark_color(self.mark(index.row()))
            return None if color is None else QBrush(QColor(ThemeState.colors[color]))
        if role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return None
        price = self.prices[index.row()]
        if column == ITEM:
            return short(item.inscription_id, 10) if item.inscription_id else item.runes
        if column == KIND:
            return kind_text(item)
        if column == COLLECTION:
            return item.collection or ""
        if column == LISTED:
            return self.mark(index.row()).text
        if column == PRICE:
            if not self.checked[index.row()]:  # kept for a re-tick, shown only when ticked
                return ""
            if role == Qt.ItemDataRole.EditRole:
                return "" if price is None else str(price)
            return "" if price is None else f"{price:,}"
        return None

    def setData(self, index: _Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        row, column = index.row(), index.column()
        if role == Qt.ItemDataRole.CheckStateRole and column == CHECK:
            self.checked[row] = _is_checked(value)
        elif role == Qt.ItemDataRole.EditRole and column == PRICE:
            text = str(value).replace(",", "").replace("_", "").strip()
            if text and not text.isdigit():
                return False
            self.prices[row] = int(text) if text else None
            if text and not self.checked[row]:  # a price typed in means this item is wanted
                self.checked[row] = True
                check = self.index(row, CHECK)
                self.dataChanged.emit(check, check)
        else:
            return False
        self.dataChanged.emit(index, index)
        self.selection_changed.emit()
        return True


def _mark_color(mark: ListingMark) -> str | None:
    """A signature the service does not list is a warning (anyone holding it can buy)."""
    if mark.listing is not None:
        return "warning" if mark.other_signed_prices else "ok"
    if mark.signed is not None:
        return "warning"
    return None if mark.known else "muted"


def _state(checked: bool) -> Qt.CheckState:
    return Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked


def _is_checked(value: Any) -> bool:
    if isinstance(value, Qt.CheckState):
        return value == Qt.CheckState.Checked
    return bool(value == Qt.CheckState.Checked.value)
