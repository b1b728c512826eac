"""Strategies (issue 17): the profile's bid strategies (status, budget used, approval) and,
below them, the selected one's pools (target, live bids, budget used, last and next action)
and its journal; start and stop one or all, delete a stopped one.

Everything is read through the profile's `StrategyHost` (`StrategyState`), whose methods run
their file work off the GUI thread; the tab re-reads on the host's `changed` (every tick of a
running strategy) while it is shown. A clock of one second re-words "next check in N s"
from what was read, without reading again. Without a host (locked, watch-only, not
connected) a line in place of the tables says why.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.ui import strings
from app.ui.models.strategies_model import (
    Acted,
    journal_model,
    journal_rows,
    pool_rows,
    pools_model,
    remember_acted,
    strategies_model,
    strategy_row,
)
from app.ui.profile_session import NotReadyError, failure_text, profile_session
from app.ui.state.strategy_state import StrategyState
from app.ui.state.wallet_state import report_unexpected
from app.ui.tabs.strategies_actions import StrategyActions
from app.ui.widgets import message_label, set_message

if TYPE_CHECKING:
    from app.services.strategy_host import StrategyHost, StrategyView
    from app.services.strategy_journal import JournalEntry
    from app.ui.context import AppContext
    from app.ui.controller import AppController

# Widths that fit 1024 px without scrolling sideways: one column (`_STRETCH`) takes the room
# left, the longest words; a cell cut short ends in "…" and its tooltip has it whole.
_STRATEGY_WIDTHS = (0, 190, 50, 170, 170)
_POOL_WIDTHS = (140, 80, 0, 70, 165, 230, 125)
_JOURNAL_WIDTHS = (150, 80, 130, 90, 70, 105, 0)
_STRETCH = 0  # in the widths: the column that stretches


def _table(model: object, widths: tuple[int, ...], select: bool) -> QTableView:
    table = QTableView()
    table.setModel(model)  # type: ignore[arg-type]
    table.setAlternatingRowColors(True)
    table.setWordWrap(False)
    table.setTextElideMode(Qt.TextElideMode.ElideRight)
    rows = table.verticalHeader()
    rows.setVisible(False)
    rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    rows.setDefaultSectionSize(table.fontMetrics().height() + 8)
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    header.setStretchLastSection(False)
    header.setMinimumSectionSize(40)
    for column, width in enumerate(widths):
        if width == _STRETCH:
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        else:
            header.resizeSection(column, width)
    if select:
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    else:
        table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
    return table


class StrategiesTab(StrategyActions, QWidget):
    def __init__(
        self, context: AppContext, controller: AppController, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.context = context
        self.controller = controller
        self.session = profile_session(context)
        self.state = StrategyState.of(context)
        self.views: dict[str, StrategyView] = {}
        self.journals: dict[str, list[JournalEntry]] = {}  # per strategy, at the last read
        self._acted: dict[str, dict[str, Acted]] = {}  # per strategy and pool: last acted
        self._reads = 0  # reads started
        self._said_at = 0  # reads started when the message was set
        self._said_state: object = None  # what the strategies were when it was said
        self.selected: str | None = None
        self._now_ms = 0  # the host's clock at the last read, moved on by the 1 s timer
        self._refreshing = False
        self._again = False
        self._stale = True
        self._tasks: set[asyncio.Task[None]] = set()
        self._acting = False  # a start, stop or delete in progress: the buttons wait for it

        self.strategies = strategies_model()
        self.pools = pools_model()
        self.journal = journal_model()
        self.table = _table(self.strategies, _STRATEGY_WIDTHS, select=True)
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        self.pools_table = _table(self.pools, _POOL_WIDTHS, select=False)
        self.journal_table = _table(self.journal, _JOURNAL_WIDTHS, select=False)

        self.new_button = QPushButton(strings.STRATEGIES_NEW)
        self.new_button.clicked.connect(self.new_strategy)
        self.edit_button = QPushButton(strings.STRATEGIES_EDIT)
        self.edit_button.clicked.connect(self.edit_selected)
        self.start_button = QPushButton(strings.STRATEGIES_START)
        self.start_button.clicked.connect(self.start_selected)
        self.stop_button = QPushButton(strings.STRATEGIES_STOP)
        self.stop_button.clicked.connect(self.stop_selected)
        self.start_all_button = QPushButton(strings.STRATEGIES_START_ALL)
        self.start_all_button.clicked.connect(self.start_all)
        self.stop_all_button = QPushButton(strings.STRATEGIES_STOP_ALL)
        self.stop_all_button.clicked.connect(self.stop_all)
        self.delete_button = QPushButton(strings.STRATEGIES_DELETE)
        self.delete_button.clicked.connect(self.delete_selected)
        tools = QHBoxLayout()
        for button in (self.new_button, *self._buttons()):
            tools.addWidget(button)
        tools.addStretch(1)

        self.counts = message_label("hint")  # how many run, and the lock rule
        self.lock_notice = message_label("error")
        self.lock_notice.setVisible(False)
        self.message = message_label("hint")  # the last action's outcome
        self.message.setVisible(False)
        self.details = QTabWidget()
        self.details.addTab(self.pools_table, strings.STRATEGY_POOLS_TAB)
        self.details.addTab(self.journal_table, strings.STRATEGY_JOURNAL_TAB)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.table)
        splitter.addWidget(self.details)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([130, 380])
        content = QWidget()
        content_layout = QVBoxLayout(content)
        content_layout.setContentsMargins(0, 0, 0, 0)
        content_layout.addLayout(tools)
        content_layout.addWidget(self.counts)
        content_layout.addWidget(splitter, 1)
        content_layout.addWidget(self.message)
        self.not_ready = message_label("hint")
        self.not_ready.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.not_ready)
        self.pages.addWidget(content)
        layout = QVBoxLayout(self)
        layout.addWidget(self.lock_notice)
        layout.addWidget(self.pages, 1)

        self.clock = QTimer(self)
        self.clock.setInterval(1000)
        self.clock.timeout.connect(self._clock_ticked)
        self.state.changed.connect(self.request_refresh)
        self.state.stopped_by_lock.connect(self._stopped_by_lock)
        self.session.changed.connect(self.request_refresh)
        self._enable()

    # -- reading --------------------------------------------------------------------------------

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.clock.start()
        if self._stale:
            self.request_refresh()

    def hideEvent(self, event: QHideEvent) -> None:
        super().hideEvent(event)
        self.clock.stop()

    def request_refresh(self, *_: object) -> None:
        """Read again (once more after the read in progress, if one is); away from the tab,
        only remember to read when it shows."""
        if not self.isVisible():
            self._stale = True
            return
        if self._host() is None:  # why not, shown at once (the read needs a host)
            self._stale = False
            return
        if self._refreshing:
            self._again = True
            return
        self._refreshing = True
        task = asyncio.ensure_future(self._refresh())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(report_unexpected)

    async def _refresh(self) -> None:
        try:
            while True:
                self._again = self._stale = False
                await self._read()
                if not self._again:
                    return
        finally:
            self._refreshing = False

    def _host(self) -> StrategyHost | None:
        """The host, or None with the reason shown in place of the tables."""
        try:
            host = self.state.host()
        except NotReadyError as exc:
            text = {
                strings.UNLOCK_TO_SIGN_HINT: strings.STRATEGIES_LOCKED,
                strings.WATCH_ONLY_CANNOT_SIGN: strings.STRATEGIES_WATCH_ONLY,
            }.get(exc.user_message, exc.user_message)
            set_message(self.not_ready, text, "hint")
            self.pages.setCurrentWidget(self.not_ready)
            self.views = {}  # nothing of the dropped host shows once a host is back
            self.journals, self._acted = {}, {}
            self.message.setVisible(False)  # it told of the dropped host's strategies
            for model in (self.strategies, self.pools, self.journal):
                model.set_rows([])
            self._enable()
            return None
        self.pages.setCurrentIndex(1)  # the lock notice stays until a strategy starts again
        return host

    async def _read(self) -> None:
        from app.services.errors import NetError, ServiceError

        host = self._host()
        if host is None:
            return
        self._reads += 1
        number = self._reads
        try:
            views = await host.views()
            chosen = self.selected
            # The selected one's journal; a stopped one's too (the bids it left open).
            wanted = {v.policy_id for v in views if not v.running} | {chosen} - {None}
            journals = {i: await host.journal(i) for i in sorted(str(w) for w in wanted)}
        except (ServiceError, NetError) as exc:
            set_message(self.message, failure_text(exc), "error")  # no read again: a loop
            return
        except Exception:
            if self.state.current is not host:  # closed meanwhile (a lock, the window's close)
                return
            raise
        if self.state.current is not host:  # locked or switched meanwhile
            return
        self._now_ms = host.ctx.clock.now_ms()
        self.views = {view.policy_id: view for view in views}
        self.journals = journals
        for view in views:
            remember_acted(self._acted.setdefault(view.policy_id, {}), view)
        self._forget_stale_message(number, views)
        self.strategies.set_rows(
            [strategy_row(v, self._now_ms, journals.get(v.policy_id)) for v in views]
        )
        self._reselect()
        if self.selected == chosen:
            self.journal.set_rows(journal_rows(journals.get(chosen or "", [])))
        else:  # the selection moved (a strategy gone): its journal next
            self._again = True
        self._show_pools()
        self._show_counts()
        self._enable()

    def _say(self, text: str, role: str) -> None:
        """The message under the tables, about the strategies as the next read finds them:
        once they change after that (a lock, a stop, an engine ending), it goes."""
        set_message(self.message, text, role)
        self._said_at, self._said_state = self._reads, None
        self.request_refresh()  # what it tells, as read after it

    def _forget_stale_message(self, number: int, views: list[StrategyView]) -> None:
        if number <= self._said_at or self._acting:
            return  # the read started before the message: it may not show what it tells
        state = tuple((v.policy_id, v.running, v.policy is not None, v.error) for v in views)
        if self._said_state is None:
            self._said_state = state
        elif state != self._said_state:
            self.message.setVisible(False)
            self._said_state = state

    def _reselect(self) -> None:
        row = None if self.selected is None else self.strategies.row_of(self.selected)
        if row is None and self.strategies.rowCount():
            row = 0
        if row is None:
            self.selected = None
            self.pools.set_rows([])
            self.journal.set_rows([])
            return
        self.selected = self.strategies.key(row)
        current = self.table.selectionModel().selectedRows()
        if [index.row() for index in current] != [row]:
            self.table.selectRow(row)

    def _selection_changed(self, *_: object) -> None:
        rows = self.table.selectionModel().selectedRows()
        chosen = self.strategies.key(rows[0].row()) if rows else None
        if chosen != self.selected:
            self.selected = chosen
            self.journal.set_rows([])
            self._show_pools()
            self.request_refresh()  # its journal
        self._enable()

    def _show_pools(self) -> None:
        view = self.views.get(self.selected or "")
        if view is None or view.config is None:
            self.pools.set_rows([])
            return
        rows = pool_rows(
            view,
            view.config.tick_ms,
            self._now_ms,
            acted=self._acted.get(view.policy_id),
            entries=self.journals.get(view.policy_id, ()),
        )
        self.pools.set_rows(rows)

    def _clock_ticked(self) -> None:
        view = self.views.get(self.selected or "")
        if view is not None and view.running:
            self._now_ms += self.clock.interval()
            self._show_pools()

    def _show_counts(self) -> None:
        if not self.views:
            set_message(self.counts, strings.STRATEGIES_EMPTY, "hint")
            return
        running = sum(1 for view in self.views.values() if view.running)
        text = strings.counted(strings.STRATEGIES_COUNTS, len(self.views), running=running)
        set_message(self.counts, f"{text} {strings.STRATEGIES_LOCK_RULE}", "hint")

    def _stopped_by_lock(self, count: int) -> None:
        at = time.strftime("%H:%M")  # local time, as the window's other times
        text = strings.counted(strings.STRATEGIES_STOPPED_BY_LOCK, count, at=at)
        set_message(self.lock_notice, text)
