"""Activity: every request and its result (errorCode and message for errors, txids with a
copy button), kept across restarts in the profile's activity log."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.services.activity import ActivityEntry
from app.ui import strings
from app.ui.icons import icon_button
from app.ui.models.activity_model import (
    COL_CODE,
    COL_MESSAGE,
    COL_TIME,
    COL_TXID,
    ENTRY_ROLE,
    ActivityFilterModel,
    ActivityTableModel,
)
from app.ui.widgets import message_label

if TYPE_CHECKING:
    from app.ui.context import AppContext
    from app.ui.controller import AppController


class ElideRightDelegate(QStyledItemDelegate):
    """Draws a cell elided at its end, whatever the view's elide mode."""

    def initStyleOption(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideRight


class ActivityTab(QWidget):
    def __init__(
        self, context: AppContext, controller: AppController, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._context = context
        self.model = ActivityTableModel()
        self.proxy = ActivityFilterModel()
        self.proxy.setSourceModel(self.model)

        self.filter = QLineEdit()
        self.filter.setPlaceholderText(strings.ACTIVITY_FILTER)
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.proxy.setFilterFixedString)
        self.errors_only = QCheckBox(strings.ACTIVITY_ERRORS_ONLY)
        self.errors_only.toggled.connect(self.proxy.set_errors_only)
        self.copy_button = icon_button("copy", strings.ACTIVITY_COPY_TXID)
        self.copy_button.setEnabled(False)
        self.copy_button.clicked.connect(self.copy_txid)

        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(COL_TIME, Qt.SortOrder.DescendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(COL_MESSAGE, QHeaderView.ResizeMode.Stretch)
        # Txids are long: elided in the middle (start and end are what people compare),
        # shown whole in the tooltip and copied whole by the button.
        header.setSectionResizeMode(COL_TXID, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(COL_TXID, 240)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        # A sentence is never cut in its middle: it reads from its start, whole in its tooltip.
        self.message_delegate = ElideRightDelegate(self.table)
        self.table.setItemDelegateForColumn(COL_MESSAGE, self.message_delegate)
        self.table.selectionModel().currentRowChanged.connect(self._update_copy)
        self.table.doubleClicked.connect(self._double_clicked)
        self.empty_hint = message_label("hint")
        self.empty_hint.setText(strings.ACTIVITY_EMPTY)
        copy_shortcut = QShortcut(QKeySequence.StandardKey.Copy, self.table)
        copy_shortcut.setContext(Qt.ShortcutContext.WidgetShortcut)
        copy_shortcut.activated.connect(self.copy_txid)

        tools = QHBoxLayout()
        tools.addWidget(self.filter, 1)
        tools.addWidget(self.errors_only)
        tools.addWidget(self.copy_button)
        layout = QVBoxLayout(self)
        layout.addLayout(tools)
        layout.addWidget(self.empty_hint)
        layout.addWidget(self.table, 1)
        self.setTabOrder(self.filter, self.errors_only)
        self.setTabOrder(self.errors_only, self.copy_button)
        self.setTabOrder(self.copy_button, self.table)

        context.profile_changed.connect(self.reload)
        context.activity_added.connect(self._added)
        self.reload()

    def reload(self) -> None:
        activity = self._context.activity
        entries = [] if activity is None else activity.entries()
        self.model.set_entries(entries)
        self._show_codes(any(e.error_code for e in entries))
        self._update_empty()

    def _added(self, entry: ActivityEntry) -> None:
        self.model.append(entry)
        if entry.error_code:
            self._show_codes(True)
        self._update_empty()

    def _update_empty(self) -> None:
        self.empty_hint.setVisible(self.model.rowCount() == 0)

    def _show_codes(self, shown: bool) -> None:
        """The error code column shows once some entry has a code: empty, it took the room
        the messages need at 1024 px (each cut after some 25 characters)."""
        self.table.setColumnHidden(COL_CODE, not shown)

    def selected_entry(self) -> ActivityEntry | None:
        index = self.table.currentIndex()
        if not index.isValid():
            return None
        entry = index.sibling(index.row(), COL_TIME).data(ENTRY_ROLE)
        return entry if isinstance(entry, ActivityEntry) else None

    def _update_copy(self, current: QModelIndex, _previous: QModelIndex) -> None:
        entry = self.selected_entry()
        self.copy_button.setEnabled(entry is not None and bool(entry.txid))

    def _double_clicked(self, index: QModelIndex) -> None:
        if index.column() == COL_TXID:
            self.copy_txid()

    def copy_txid(self) -> None:
        entry = self.selected_entry()
        if entry is None or not entry.txid:
            return
        QGuiApplication.clipboard().setText(entry.txid)
        self._context.info(strings.ACTIVITY_COPIED)
