"""Bid pools as a table: each pool's open bids and what they commit against the balance."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from app.ui import strings
from app.ui.theme import ThemeState

if TYPE_CHECKING:
    from app.services.open_bids import PoolTotal

COL_POOL, COL_BIDS, COL_COMMITTED, COL_BALANCE, COL_FREE = range(5)
_Index = QModelIndex | QPersistentModelIndex
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


class PoolsModel(QAbstractTableModel):
    def __init__(self) -> None:
        super().__init__()
        self._pools: list[PoolTotal] = []

    def set_pools(self, pools: Sequence[PoolTotal]) -> None:
        self.beginResetModel()
        self._pools = list(pools)
        self.endResetModel()

    def pool(self, row: int) -> PoolTotal:
        return self._pools[row]

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._pools)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(strings.OPEN_BIDS_POOLS_HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return strings.OPEN_BIDS_POOLS_HEADERS[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        pool = self._pools[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == COL_POOL:
                return str(pool.pool)
            if column == COL_BIDS:
                return f"{pool.bids:,}"
            if column == COL_COMMITTED:
                return f"{pool.committed:,}"
            if column == COL_BALANCE:
                return f"{pool.balance:,}"
            if pool.over_by:
                return strings.OPEN_BIDS_OVER.format(over=f"{pool.over_by:,}")
            return f"{pool.free:,}"
        if role == Qt.ItemDataRole.TextAlignmentRole and column != COL_POOL:
            return _RIGHT
        if role == Qt.ItemDataRole.ForegroundRole and column == COL_FREE and pool.over_by:
            return QColor(ThemeState.colors["error"])
        return None
