"""Open bids as a table: collection or rune, trait, kind, price, quantity, rank in the pool's
market (`set_ranks`, as the market is read: "3rd of 41", "1st of 12 · top bid"), expiry, bid id,
and the bid strategy that placed it and keeps it (`set_owners`, issue 17; empty: the user's).

Built for 10,000 rows:
- `set_bids` resets the model once, with each row's text, sort keys and a lower-case search
  line computed up front (the expiry's text is formatted when a row is drawn, cached per
  minute), and the rows already in the current sort order;
- sorting happens here, in Python, on those keys (`sort`): the proxy's own sort would call
  `data()` from C++ some two million times for 10,000 rows;
- the filter proxy matches a row with one substring test instead of asking every column;
  a rune bid's row also matches the typed letters whatever the spacers ("UNCOMMONGOODS",
  "uncommon goods" and "UNCOMMON.GOODS" all find "UNCOMMON•GOODS"), compared as
  `app.core.rune_names.rune_letters` reads names.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)

from app.core.bid_request import RANGE_SLUGS
from app.core.rune_names import rune_letters
from app.ui import strings
from app.ui.widgets import plain_tooltip

if TYPE_CHECKING:
    from app.core.market_snapshot import BidRank
    from app.services.open_bids import BidListEntry

COL_POOL, COL_TRAIT, COL_KIND, COL_PRICE, COL_QTY, COL_RANK, COL_EXPIRES, COL_ID = range(8)
COL_STRATEGY: Final = 8
UNRANKED: Final = 1 << 62  # sorts a bid whose rank is not known after every ranked one
SORT_ROLE: Final = Qt.ItemDataRole.UserRole + 1
_NUMERIC = frozenset({COL_PRICE, COL_QTY})
_Index = QModelIndex | QPersistentModelIndex
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


def bid_kind(entry: BidListEntry) -> str:
    """A key of strings.OPEN_BIDS_KINDS."""
    if entry.inscription_id is not None or entry.type == "individual":
        return "inscription"
    if entry.is_rune_bid:
        return "rune"
    if entry.attribute is not None:
        return "trait"
    if (entry.collection_slug or "") in RANGE_SLUGS:
        return "range"
    return "collection"


def _target(entry: BidListEntry) -> str:
    if entry.is_rune_bid:
        return entry.rune_name or entry.collection_slug or ""
    return entry.collection_slug or entry.inscription_id or entry.rune_name or ""


@lru_cache(maxsize=4096)
def _minute_text(minute: int) -> str:
    return datetime.fromtimestamp(minute * 60).strftime("%Y-%m-%d %H:%M")


def expiry_text(ms: int | None) -> str:
    if ms is None:
        return ""
    try:
        return _minute_text(ms // 60_000)
    except (OverflowError, OSError, ValueError):
        return str(ms)


class OpenBidsModel(QAbstractTableModel):
    def __init__(self) -> None:
        super().__init__()
        self._entries: list[BidListEntry] = []
        self._text: list[tuple[str, ...]] = []  # every column but the expiry
        self._sort: list[tuple[Any, ...]] = []
        self._search: list[str] = []
        self._rune_letters: list[str] = []  # a rune bid's name without spacers, else ""
        self._sorted_by: tuple[int, Qt.SortOrder] | None = None
        self._ranks: dict[str, BidRank] = {}  # by bid id, from the pools' market snapshots
        self._owners: dict[str, str] = {}  # bid id -> the strategy keeping it

    def set_bids(self, entries: Sequence[BidListEntry]) -> None:
        """Replace every row in one reset (no per-row signals, no per-row widgets)."""
        text: list[tuple[str, ...]] = []
        sort: list[tuple[Any, ...]] = []
        search: list[str] = []
        runes: list[str] = []
        kinds = strings.OPEN_BIDS_KINDS
        for entry in entries:
            trait = "" if entry.attribute is None else (
                f"{entry.attribute.trait_type}: {entry.attribute.value}"
            )  # fmt: skip
            price = entry.price
            row = (
                _target(entry),
                trait,
                kinds[bid_kind(entry)],
                "" if price is None else f"{price:,}",
                "" if entry.quantity is None else f"{entry.quantity:,}",
                "",  # the rank: looked up as drawn (it moves with the market)
                "",
                entry.bid_id,
            )
            text.append(row)
            sort.append(
                (row[0].lower(), trait.lower(), row[2], price or 0, entry.quantity or 0,
                 entry.bid_id, entry.expiration_ms or 0, entry.bid_id, entry.bid_id)
            )  # fmt: skip
            search.append(f"{row[0]} {trait} {row[2]} {row[3]} {price or ''} {row[7]}".lower())
            runes.append(rune_letters(row[0]) if entry.is_rune_bid else "")
        order = self._order(sort)
        self.beginResetModel()
        self._entries = [entries[i] for i in order]
        self._text = [text[i] for i in order]
        self._sort = [sort[i] for i in order]
        self._search = [search[i] for i in order]
        self._rune_letters = [runes[i] for i in order]
        self.endResetModel()

    def _order(self, keys: list[tuple[Any, ...]]) -> list[int]:
        if self._sorted_by is None:
            return list(range(len(keys)))
        column, order = self._sorted_by
        descending = order == Qt.SortOrder.DescendingOrder
        if column == COL_RANK:  # the rank moves with the market: read as sorted
            ranks = self._ranks
            return sorted(
                range(len(keys)),
                key=lambda i: _rank_key(ranks.get(keys[i][COL_RANK])),
                reverse=descending,
            )
        if column == COL_STRATEGY:  # the owners come apart from the bids: read as sorted
            owners = self._owners
            return sorted(
                range(len(keys)),
                key=lambda i: owners.get(keys[i][COL_STRATEGY], ""),
                reverse=descending,
            )
        return sorted(range(len(keys)), key=lambda i: keys[i][column], reverse=descending)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Reorder the rows (stable) by `column`; persistent indexes (the selection) follow."""
        if not 0 <= column < len(strings.OPEN_BIDS_HEADERS):
            return
        self._sorted_by = (column, order)
        self.layoutAboutToBeChanged.emit()
        old_rows = self._order(self._sort)
        new_row_of = {old: new for new, old in enumerate(old_rows)}
        persistent = self.persistentIndexList()
        self._entries = [self._entries[i] for i in old_rows]
        self._text = [self._text[i] for i in old_rows]
        self._sort = [self._sort[i] for i in old_rows]
        self._search = [self._search[i] for i in old_rows]
        self._rune_letters = [self._rune_letters[i] for i in old_rows]
        self.changePersistentIndexList(
            persistent,
            [self.index(new_row_of[p.row()], p.column()) for p in persistent],
        )
        self.layoutChanged.emit()

    def set_ranks(self, ranks: dict[str, BidRank]) -> None:
        """Each bid's rank in its pool's market, by bid id (a bid not in it: no rank shown)."""
        if ranks == self._ranks:
            return
        self._ranks = dict(ranks)
        if self._text:
            last = len(self._text) - 1
            self.dataChanged.emit(self.index(0, COL_RANK), self.index(last, COL_RANK))

    def set_owners(self, owners: dict[str, str]) -> None:
        """The strategy that keeps each bid, by bid id (a bid not in it: the user's own)."""
        if owners == self._owners:
            return
        self._owners = dict(owners)
        if self._text:
            last = len(self._text) - 1
            self.dataChanged.emit(self.index(0, COL_STRATEGY), self.index(last, COL_STRATEGY))

    def owner(self, row: int) -> str | None:
        """The strategy keeping the row's bid; None: the user's own."""
        return self._owners.get(self._entries[row].bid_id)

    def rank(self, row: int) -> BidRank | None:
        return self._ranks.get(self._entries[row].bid_id)

    def entry(self, row: int) -> BidListEntry:
        return self._entries[row]

    def bid_id(self, row: int) -> str:
        return self._entries[row].bid_id

    def search_text(self, row: int) -> str:
        return self._search[row]

    def rune_letters(self, row: int) -> str:
        """A rune bid's name without spacers (upper case); "" for any other bid."""
        return self._rune_letters[row]

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._text)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(strings.OPEN_BIDS_HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return strings.OPEN_BIDS_HEADERS[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row, column = index.row(), index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == COL_EXPIRES:
                return expiry_text(self._entries[row].expiration_ms)
            if column == COL_RANK:
                rank = self.rank(row)
                rune = self._entries[row].is_rune_bid
                return "" if rank is None else strings.rank_cell(rank, rune)
            if column == COL_STRATEGY:
                return self.owner(row) or ""
            return self._text[row][column]
        if role == SORT_ROLE:
            if column == COL_RANK:
                return _rank_key(self.rank(row))
            if column == COL_STRATEGY:
                return self.owner(row) or ""
            return self._sort[row][column]
        if role == Qt.ItemDataRole.TextAlignmentRole and column in _NUMERIC:
            return _RIGHT
        if role == Qt.ItemDataRole.ToolTipRole and column == COL_ID:
            return plain_tooltip(self._text[row][column])  # the service's bid id
        if role == Qt.ItemDataRole.ToolTipRole and column == COL_RANK:
            rank = self.rank(row)
            return None if rank is None else strings.rank_text(rank, self._entries[row].is_rune_bid)
        if role == Qt.ItemDataRole.ToolTipRole and column == COL_STRATEGY:
            owner = self.owner(row)
            return None if owner is None else strings.OPEN_BIDS_STRATEGY_TIP.format(strategy=owner)
        return None


def _rank_key(rank: BidRank | None) -> int:
    return UNRANKED if rank is None else rank.rank


class OpenBidsFilter(QSortFilterProxyModel):
    """Filters on the row's search line; sorting is passed to the source model (see above),
    so the proxy keeps the source's order."""

    def __init__(self) -> None:
        super().__init__()
        self._needle = ""
        self._needle_letters = ""  # the needle read as a rune name, spacers dropped

    def set_needle(self, text: str) -> None:
        # Qt 6.10's way to re-filter (invalidate*Filter is deprecated there).
        self.beginFilterChange()
        self._needle = text.strip().lower()
        self._needle_letters = rune_letters(text.strip())
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        model = self.sourceModel()
        if isinstance(model, OpenBidsModel):
            model.sort(column, order)

    def filterAcceptsRow(self, source_row: int, source_parent: _Index) -> bool:
        if not self._needle:
            return True
        model = self.sourceModel()
        assert isinstance(model, OpenBidsModel)
        if self._needle in model.search_text(source_row):
            return True
        return bool(self._needle_letters) and self._needle_letters in model.rune_letters(source_row)
