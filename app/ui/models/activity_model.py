"""The activity log as a table: time, action (in the user's words), result, errorCode, message,
txid."""

from __future__ import annotations

from typing import Any, Final

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QColor

from app.services.activity import MAX_ENTRIES, REVIEW_CANCELLED, ActivityEntry
from app.ui import strings
from app.ui.theme import ThemeState
from app.ui.widgets import plain_tooltip

COL_TIME, COL_ACTION, COL_RESULT, COL_CODE, COL_MESSAGE, COL_TXID = range(6)
ENTRY_ROLE: Final = Qt.ItemDataRole.UserRole + 1
_Index = QModelIndex | QPersistentModelIndex


class ActivityTableModel(QAbstractTableModel):
    def __init__(self, entries: list[ActivityEntry] | None = None) -> None:
        super().__init__()
        self._entries: list[ActivityEntry] = list(entries or [])

    def set_entries(self, entries: list[ActivityEntry]) -> None:
        self.beginResetModel()
        self._entries = list(entries)
        self.endResetModel()

    def append(self, entry: ActivityEntry) -> None:
        """Add `entry` last; past `MAX_ENTRIES` rows the oldest goes, as in the log (the
        service's events can be any number)."""
        if len(self._entries) >= MAX_ENTRIES:
            self.beginRemoveRows(QModelIndex(), 0, 0)
            del self._entries[0]
            self.endRemoveRows()
        row = len(self._entries)
        self.beginInsertRows(QModelIndex(), row, row)
        self._entries.append(entry)
        self.endInsertRows()

    def entry(self, row: int) -> ActivityEntry:
        return self._entries[row]

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._entries)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(strings.ACTIVITY_HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return strings.ACTIVITY_HEADERS[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        entry = self._entries[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return _display(entry, column)
        if role == Qt.ItemDataRole.ToolTipRole and column in (COL_MESSAGE, COL_TXID):
            return plain_tooltip(_display(entry, column)) or None
        if role == Qt.ItemDataRole.ToolTipRole and column == COL_ACTION:
            return entry.action  # the internal name, for a support request
        if role == Qt.ItemDataRole.ForegroundRole and not entry.ok and column == COL_RESULT:
            return QColor(ThemeState.colors["error"])
        if role == ENTRY_ROLE:
            return entry
        if role == Qt.ItemDataRole.UserRole and column == COL_TIME:
            return entry.at.timestamp()  # sort key
        return None


def _display(entry: ActivityEntry, column: int) -> str:
    if column == COL_TIME:
        return entry.at.astimezone().strftime("%Y-%m-%d %H:%M:%S")
    if column == COL_ACTION:
        return action_text(entry.action)
    if column == COL_RESULT:
        if entry.details.get(REVIEW_CANCELLED):
            return strings.ACTIVITY_CANCELLED
        return strings.ACTIVITY_OK if entry.ok else strings.ACTIVITY_ERROR
    if column == COL_CODE:
        return entry.error_code or ""
    if column == COL_MESSAGE:
        return entry.message
    return entry.txid or ""


def action_text(action: str) -> str:
    """An action in the user's words: the app's own (`strings.ACTIVITY_ACTIONS`), the market's
    (`strings.ACTIVITY_ACTION_NAMES`), else (an action a newer part of the app records) its
    last part as words, never the dotted name."""
    words = strings.ACTIVITY_ACTIONS.get(action) or strings.ACTIVITY_ACTION_NAMES.get(action)
    if words is not None:
        return words
    text = action.rsplit(".", 1)[-1].replace("_", " ").strip()
    return text[:1].upper() + text[1:]


class ActivityFilterModel(QSortFilterProxyModel):
    """Text filter over every column, plus "errors only"."""

    def __init__(self) -> None:
        super().__init__()
        self.errors_only = False
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setFilterKeyColumn(-1)
        self.setSortRole(Qt.ItemDataRole.UserRole)

    def set_errors_only(self, value: bool) -> None:
        if hasattr(self, "beginFilterChange"):  # Qt 6.9+; invalidateFilter is deprecated there
            self.beginFilterChange()
            self.errors_only = value
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self.errors_only = value
            self.invalidateFilter()

    def filterAcceptsRow(self, source_row: int, source_parent: _Index) -> bool:
        model = self.sourceModel()
        if (
            self.errors_only
            and isinstance(model, ActivityTableModel)
            and model.entry(source_row).ok
        ):
            return False
        return super().filterAcceptsRow(source_row, source_parent)

    def lessThan(self, left: _Index, right: _Index) -> bool:
        if left.column() == COL_TIME:
            return float(left.data(Qt.ItemDataRole.UserRole)) < float(
                right.data(Qt.ItemDataRole.UserRole)
            )
        return str(left.data()) < str(right.data())
