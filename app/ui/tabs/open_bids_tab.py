"""Open bids: a sortable, filterable table of the user's open bids, the counts per pool, and
cancel (one or many, with a confirmation and a result per bid). Refreshed on a timer and after
every action (`WalletState`), a running strategy's steps included; 10,000 bids load in one
model reset. A bid a strategy keeps says which (`StrategyState.owners`), and cancelling it by
hand says the strategy places it again unless stopped."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QItemSelection, QItemSelectionModel, Qt
from PySide6.QtGui import QHideEvent, QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.ui import strings
from app.ui.async_tools import async_slot
from app.ui.dialogs.psbt_review_flow import signing_context
from app.ui.icons import set_themed_icon
from app.ui.maker_fee_note import maker_fee_note
from app.ui.models.bids_model import (
    COL_EXPIRES,
    COL_ID,
    COL_KIND,
    COL_POOL,
    COL_QTY,
    COL_RANK,
    COL_STRATEGY,
    OpenBidsFilter,
    OpenBidsModel,
)
from app.ui.models.pools_model import COL_POOL as POOLS_COL_POOL
from app.ui.models.pools_model import PoolsModel
from app.ui.profile_session import NotReadyError, failure_text, profile_session, tracked
from app.ui.sign_elsewhere import cancel_signed_elsewhere
from app.ui.state.market_state import MarketState
from app.ui.state.market_watch import MarketWatch
from app.ui.state.strategy_state import StrategyState
from app.ui.state.wallet_state import WalletState
from app.ui.tabs.open_bids_confirm import ConfirmCancelDialog
from app.ui.widgets import message_label, set_message

if TYPE_CHECKING:
    from app.core.market_snapshot import BidRank
    from app.core.pools import PoolKey
    from app.services.cancel import CancelReport
    from app.services.open_bids import OpenBidsView
    from app.ui.context import AppContext
    from app.ui.controller import AppController


def _fixed_rows(table: QTableView) -> None:
    """Constant row heights: the view never measures 10,000 rows."""
    header = table.verticalHeader()
    header.setVisible(False)
    header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    header.setDefaultSectionSize(table.fontMetrics().height() + 8)


class OpenBidsTab(QWidget):
    def __init__(
        self, context: AppContext, controller: AppController, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.context = context
        self.controller = controller
        self.session = profile_session(context)
        self.state = WalletState.of(context)
        self.model = OpenBidsModel()
        self.proxy = OpenBidsFilter()
        self.proxy.setSourceModel(self.model)
        self.pools_model = PoolsModel()
        self.market = MarketState.of(context)
        self.strategies = StrategyState.of(context)
        self.market_pools: tuple[PoolKey, ...] = ()  # the pools of the bids shown

        self.filter = QLineEdit()
        self.filter.setPlaceholderText(strings.OPEN_BIDS_FILTER)
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._filter_changed)
        self.counts = message_label("hint")
        self.counts.setVisible(True)
        self.refresh_button = QPushButton(strings.REFRESH)
        set_themed_icon(self.refresh_button, "refresh")
        self.refresh_button.clicked.connect(self.state.request_refresh)
        self.refresh_button.setToolTip("F5")
        refresh_shortcut = QShortcut(QKeySequence(QKeySequence.StandardKey.Refresh), self)
        refresh_shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        refresh_shortcut.activated.connect(self.state.request_refresh)
        self.cancel_button = QPushButton(strings.OPEN_BIDS_CANCEL)
        set_themed_icon(self.cancel_button, "remove")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel_selected)

        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(COL_POOL, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        _fixed_rows(self.table)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        # At 1024 px every column shows without scrolling sideways (the id elides in its middle).
        widths = ((COL_POOL, 180), (COL_KIND, 80), (COL_QTY, 60), (COL_RANK, 130),
                  (COL_EXPIRES, 130), (COL_ID, 130), (COL_STRATEGY, 90))  # fmt: skip
        for column, width in widths:
            header.resizeSection(column, width)
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        delete = QShortcut(QKeySequence.StandardKey.Delete, self.table)
        delete.setContext(Qt.ShortcutContext.WidgetShortcut)
        delete.activated.connect(self.cancel_selected)

        self.pools_table = QTableView()
        self.pools_table.setModel(self.pools_model)
        self.pools_table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.pools_table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        _fixed_rows(self.pools_table)
        pools_header = self.pools_table.horizontalHeader()
        pools_header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        pools_header.setSectionResizeMode(POOLS_COL_POOL, QHeaderView.ResizeMode.Stretch)

        self.message = message_label("hint")
        self.message.setVisible(False)
        self.cancel_status = message_label("hint")
        self.cancel_status.setVisible(False)
        self.results = QListWidget()
        self.results.setVisible(False)
        self.results.setMaximumHeight(120)

        tools = QHBoxLayout()
        tools.addWidget(self.filter, 1)
        tools.addWidget(self.refresh_button)
        tools.addWidget(self.cancel_button)
        self.pools_note = message_label("hint")  # the maker fee the pools count
        self.pools_note.setVisible(False)
        pools_box = QGroupBox(strings.OPEN_BIDS_POOLS)
        pools_layout = QVBoxLayout(pools_box)
        pools_layout.addWidget(self.pools_table)
        pools_layout.addWidget(self.pools_note)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.table)
        splitter.addWidget(pools_box)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([420, 200])
        layout = QVBoxLayout(self)
        layout.addLayout(tools)
        layout.addWidget(self.counts)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.message)
        layout.addWidget(self.cancel_status)
        layout.addWidget(self.results)
        self.setTabOrder(self.filter, self.refresh_button)
        self.setTabOrder(self.refresh_button, self.cancel_button)
        self.setTabOrder(self.cancel_button, self.table)

        self.state.updated.connect(self.show_view)
        if self.state.view is not None:  # built after the shared state already loaded
            self.show_view(self.state.view)
        self.state.failed.connect(self._failed)
        # A bound method, not a lambda: Qt drops the connection when this tab is destroyed,
        # while the shared state object lives on.
        self.state.busy_changed.connect(self._set_busy)
        self.market.updated.connect(self._market_read)
        self.strategies.owners_changed.connect(self.model.set_owners)
        self.model.set_owners(self.strategies.owners)
        self._update_counts()

    def _set_busy(self, busy: bool) -> None:
        self.refresh_button.setEnabled(not busy)

    def showEvent(self, event: QShowEvent) -> None:
        """Coming to the tab shows fresh numbers (the timer may be far from its next tick)."""
        super().showEvent(event)
        if self.session.connected:
            self.state.request_refresh()
            self.strategies.request_owners()
        self.market.look_at("open_bids", self.market_pools)

    def hideEvent(self, event: QHideEvent) -> None:
        """Away from the tab, its pools' markets are not read for it."""
        super().hideEvent(event)
        self.market.look_at("open_bids", ())

    # -- showing ------------------------------------------------------------------------------

    def show_view(self, view: OpenBidsView) -> None:
        from app.services.open_bids import pool_key_of  # loaded with the view it reads

        chosen = set(self.selected_ids())  # a reading (the timer's, a live one) keeps them
        self.model.set_bids(view.bids)
        self._select(chosen)
        self.pools_model.set_pools(view.pools)
        pools = (pool_key_of(bid) for bid in view.bids)
        self.market_pools = tuple(dict.fromkeys(p for p in pools if p is not None))
        if self.isVisible():
            self.market.look_at("open_bids", self.market_pools)
        self._show_ranks()
        set_message(self.pools_note, maker_fee_note(view.maker_fee), "hint")
        self._update_counts()
        set_message(self.message, "")  # an earlier load's error no longer holds
        if view.uncounted:
            set_message(
                self.message,
                strings.counted(strings.OPEN_BIDS_NO_PRICE, len(view.uncounted)),
                "hint",
            )

    def _market_read(self, pool: PoolKey) -> None:
        if pool in self.market_pools:
            self._show_ranks()

    def _show_ranks(self) -> None:
        """Each bid's rank in its pool, from the last market read of each pool (read again on
        the market's schedule: the column follows without a Refresh)."""
        ranks: dict[str, BidRank] = {}
        for pool in self.market_pools:
            held = self.market.market(pool)
            if held is not None and held.snapshot is not None:
                ranks.update((rank.bid_id, rank) for rank in held.snapshot.my_ranks)
        self.model.set_ranks(ranks)

    def _failed(self, text: str) -> None:
        set_message(self.message, text, "error" if self.session.public_keys else "hint")

    def _filter_changed(self, text: str) -> None:
        self.proxy.set_needle(text)
        self._update_counts()

    def _update_counts(self) -> None:
        total = self.model.rowCount()
        if total == 0:
            self.counts.setText(strings.OPEN_BIDS_EMPTY)
            return
        pools = strings.counted(strings.OPEN_BIDS_POOL_COUNT, self.pools_model.rowCount())
        text = strings.counted(strings.OPEN_BIDS_COUNTS, total, pools=pools)
        shown = self.proxy.rowCount()
        if shown != total:
            text += strings.OPEN_BIDS_SHOWN.format(shown=shown)
        self.counts.setText(text)

    def _select(self, bid_ids: set[str]) -> None:
        """Select the rows of `bid_ids` still listed (a model reset cleared the selection)."""
        if not bid_ids:
            return
        selection = QItemSelection()
        for row in range(self.model.rowCount()):
            if self.model.bid_id(row) in bid_ids:
                index = self.proxy.mapFromSource(self.model.index(row, 0))
                if index.isValid():
                    selection.select(index, index)
        flags = (
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows
        )
        self.table.selectionModel().select(selection, flags)

    def _selection_changed(self, *_: object) -> None:
        self.cancel_button.setEnabled(bool(self.selected_ids()))

    def selected_ids(self) -> list[str]:
        rows = self.table.selectionModel().selectedRows()
        return [self.model.bid_id(self.proxy.mapToSource(index).row()) for index in rows]

    # -- cancelling ---------------------------------------------------------------------------

    @async_slot()
    async def cancel_selected(self) -> None:
        ids = self.selected_ids()
        if not ids:
            return
        rows = [self.proxy.mapToSource(i).row() for i in self.table.selectionModel().selectedRows()]
        described = {self.model.bid_id(row): self._describe(row) for row in rows}
        # Read before the password prompt: a reading meanwhile renumbers the rows.
        owners = [owner for row in rows if (owner := self.model.owner(row)) is not None]
        if not await self._ready_to_sign():
            return
        lines = [described[bid_id] for bid_id in ids]
        dialog = ConfirmCancelDialog(lines, self, len(owners), sorted(set(owners)))
        if not await self.controller.show_dialog(dialog):
            return
        self.cancel_button.setEnabled(False)
        text = strings.counted(strings.OPEN_BIDS_CANCELLING, len(ids))
        set_message(self.cancel_status, text, "hint")
        live = MarketWatch.of(self.context)
        live.expect_own_cancel(ids)  # the live updates do not report our own cancel as news
        report = None
        try:
            report = await self._cancel(ids)
        finally:
            cancelled = () if report is None else report.cancelled_ids
            live.forget_own_cancel(set(ids) - set(cancelled))
            self._selection_changed()
            self.state.request_refresh()
        if report is not None:
            self._show_report(report, described)

    async def _ready_to_sign(self) -> bool:
        """The PSBT flows' lock rule (psbt_flow_runner): the password is asked before the
        user confirms, never an error after. A watch-only profile signs in its other wallet."""
        from app.services.errors import NetError, ServiceError

        if self.context.watch_only:
            return True
        try:
            await signing_context(self.context, self.controller)  # not kept: one check
        except (NotReadyError, ServiceError, NetError) as exc:
            set_message(self.cancel_status, failure_text(exc), "error")
            return False
        set_message(self.cancel_status, "")
        return True

    def _describe(self, row: int) -> str:
        """A bid in words: what it is on, its price and its id (the confirmation and the
        results name each bid so)."""
        text = [self.model.index(row, c).data() for c in range(self.model.columnCount())]
        pool, trait, _kind, price, _qty, _rank, _expires, bid_id, _strategy = text
        what = f"{pool} [{trait}]" if trait else pool
        return strings.OPEN_BIDS_DESCRIBED.format(what=what, price=price, bid=bid_id)

    async def _cancel(self, ids: list[str]) -> CancelReport | None:
        from app.services.cancel import cancel_bids
        from app.services.errors import NetError, ServiceError

        try:
            if self.context.watch_only:  # the keys are in another wallet: it signs the challenge
                report = await cancel_signed_elsewhere(self, self.context, ids)
                if report is None:
                    set_message(self.cancel_status, strings.FLOW_CANCELLED, "hint")
                return report
            async with tracked(self.context, "bids.cancel", count=len(ids)) as record:
                ctx = self.session.signing_context()
                report = await cancel_bids(ctx, ids, cache=self.session.challenges)
                record.message = f"{len(report.cancelled_ids)} of {len(ids)} cancelled"
        except (NotReadyError, ServiceError, NetError) as exc:
            set_message(self.cancel_status, failure_text(exc), "error")
            return None
        return report

    def _show_report(self, report: CancelReport, described: dict[str, str]) -> None:
        self.results.clear()
        for item in report.items:
            bid = described.get(item.bid_id, item.bid_id)
            if item.cancelled:
                self.results.addItem(strings.OPEN_BIDS_RESULT_OK.format(bid=bid))
            else:
                line = strings.OPEN_BIDS_RESULT_FAILED.format(bid=bid, reason=item.reason)
                self.results.addItem(line)
        self.results.setVisible(True)
        done, count = len(report.cancelled_ids), len(report.items)
        role = "ok" if report.all_cancelled else "error"
        text = strings.counted(strings.OPEN_BIDS_CANCELLED, count, done=done)
        set_message(self.cancel_status, text, role)
