"""The Strategies tab and the strategy editor as a user drives them: a strategy made from the Bid
tab's "Keep this bid…" (the editor: name, preview, Next to the approval step, Approve or
Approve and start), the strategies listed with their status, one selected (its pools and
journal), Start, Stop through its question (cancel the bids or keep them), Delete, Edit.

Each action that ends in the tab's message line returns that message (its 'ok' or 'error'
text), told apart from one shown before (app/ui/qa/said.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import shiboken6
from PySide6.QtCore import QAbstractItemModel, Qt
from PySide6.QtWidgets import QLabel, QPushButton, QTableView, QWidget

from app.ui.dialogs.strategy_editor import APPROVE_PAGE, StrategyEditor
from app.ui.qa.actions import click
from app.ui.qa.app import App, DialogPage, Page
from app.ui.qa.expect import DEFAULT_TIMEOUT_MS, shown_messages
from app.ui.qa.pages.form_steps import expect_dialog, newest_dialog, replace_text
from app.ui.qa.said import MessageWatch
from app.ui.tabs.strategies_stop import DeleteStrategyDialog, StopStrategyDialog
from app.ui.tabs.strategies_tab import StrategiesTab

ACTION_TIMEOUT_MS = 30_000  # a start or stop waits for the engine; a stop cancels bids
EDITOR_TIMEOUT_MS = 20_000  # the editor reads the strategies before it opens


@dataclass(frozen=True)
class StrategyRow:
    """A strategy as the table shows it."""

    name: str
    status: str
    pools: str
    budget: str
    until: str


def _texts(model: QAbstractItemModel) -> list[tuple[str, ...]]:
    columns = range(model.columnCount())
    return [
        tuple(str(model.index(r, c).data() or "") for c in columns) for r in range(model.rowCount())
    ]


def _shown(label: QLabel, within: QWidget) -> str:
    return label.text() if label.isVisibleTo(within) else ""


class StrategiesPage(Page):
    name = "Strategies"

    @property
    def widget(self) -> StrategiesTab:
        tab = self.app.window.tab("strategies")
        assert isinstance(tab, StrategiesTab)
        return tab

    def open(self) -> StrategiesPage:
        self.app.tab("strategies", StrategiesTab)
        return self

    def shown(self) -> str:
        """Its messages and the strategies listed (what a failure quotes)."""
        rows = "; ".join(f"{r.name!r} {r.status!r}" for r in self.rows()) or "none"
        return f"{super().shown()}; strategies: {rows}"

    # -- what it shows ----------------------------------------------------------------------

    def rows(self) -> list[StrategyRow]:
        return [StrategyRow(*cells[:5]) for cells in _texts(self.widget.strategies)]

    def pools(self) -> list[tuple[str, ...]]:
        """The selected strategy's pools as shown (pool, status, target, live, budget, last,
        next)."""
        return _texts(self.widget.pools)

    def journal(self) -> list[tuple[str, ...]]:
        """The selected strategy's journal as shown (time, kind, pool, price, quantity, state,
        reason), newest first."""
        return _texts(self.widget.journal)

    def expect_journal(
        self, entries: int = 1, timeout_ms: int = ACTION_TIMEOUT_MS
    ) -> list[tuple[str, ...]]:
        """The selected strategy's journal once it shows at least `entries` entries (its first
        check done: what it placed, or why not)."""
        said = "a journal entry" if entries == 1 else f"{entries} journal entries"
        self.expect("expect_journal", said, lambda: len(self.journal()) >= entries, timeout_ms)
        return self.journal()

    @property
    def message(self) -> str:
        """The last action's outcome, under the tables ("" while hidden)."""
        return _shown(self.widget.message, self.widget)

    @property
    def counts(self) -> str:
        return _shown(self.widget.counts, self.widget)

    @property
    def not_ready(self) -> str:
        """Why no strategy shows (the wallet locked...), "" while the tables show."""
        tab = self.widget
        return tab.not_ready.text() if tab.pages.currentWidget() is tab.not_ready else ""

    @property
    def lock_notice(self) -> str:
        return _shown(self.widget.lock_notice, self.widget)

    def expect_strategy(
        self, name: str, status: str | None = None, timeout_ms: int = DEFAULT_TIMEOUT_MS
    ) -> StrategyRow:
        """The row of `name` once the table shows it (with `status`, when given: a
        strings.STRATEGY_* text such as STRATEGY_RUNNING)."""
        found: list[StrategyRow] = []

        def shown() -> bool:
            found[:] = [r for r in self.rows() if r.name == name]
            return bool(found) and (status is None or found[0].status == status)

        said = f"the strategy {name!r}" + ("" if status is None else f" {status!r}")
        self.expect("expect_strategy", said, shown, timeout_ms)
        return found[0]

    # -- what a user does -------------------------------------------------------------------

    def select(self, name: str) -> None:
        """Click the row of `name`; its pools and journal show below."""
        tab = self.widget
        self.expect_strategy(name)
        _click_cell(self, tab.table, [r.name for r in self.rows()].index(name))
        self.expect("select", f"{name!r} selected", lambda: tab.selected == name)

    def start(self, name: str, timeout_ms: int = ACTION_TIMEOUT_MS) -> str:
        """Select `name`, press Start; the tab's message once it started (or why not)."""
        self.select(name)
        return self.said_after("start", partial(click, self.qtbot, self.widget.start_button),
                               timeout_ms)  # fmt: skip

    def start_all(self, timeout_ms: int = ACTION_TIMEOUT_MS) -> str:
        """Press Start all; the tab's message (a hint when there is nothing to start)."""
        press = partial(click, self.qtbot, self.widget.start_all_button)
        return self.said_after("start_all", press, timeout_ms, roles=("ok", "error", "hint"))

    def ask_stop(self, name: str) -> StopQuestion:
        """Select `name`, press Stop: the question (cancel its bids, keep them, or not stop)."""
        self.select(name)
        return self._stop_question("ask_stop", self.widget.stop_button)

    def ask_stop_all(self) -> StopQuestion:
        return self._stop_question("ask_stop_all", self.widget.stop_all_button)

    def stop(self, name: str, cancel_bids: bool = True) -> str:
        """Stop `name` through its question; the tab's message (its bids cancelled or kept)."""
        question = self.ask_stop(name)
        return question.cancel_bids() if cancel_bids else question.keep_bids()

    def delete(self, name: str, timeout_ms: int = ACTION_TIMEOUT_MS) -> str:
        """Select `name` (stopped), press Delete, say yes; the tab's message."""
        self.select(name)
        before = len(self.app.harness.dialogs)
        click(self.qtbot, self.widget.delete_button)
        dialog = expect_dialog(self, "delete", "the question before deleting",
                               DeleteStrategyDialog, before)  # fmt: skip
        return self.said_after("delete", partial(click, self.qtbot, dialog.yes_button), timeout_ms)

    def edit(self, name: str) -> StrategyEditorPage:
        """Select `name` (not running), press Edit…: the editor, with the strategy as it is."""
        self.select(name)
        before = len(self.app.harness.dialogs)
        click(self.qtbot, self.widget.edit_button)
        return open_strategy_editor(self.app, before)

    def approve_edited(self, name: str, start: bool = False) -> str:
        """Edit `name`, change nothing, approve it again (after a stop revoked it, say); the
        tab's message ("<name> saved and approved until ...; press Start to run it.")."""
        editor = self.edit(name)
        return self.said_after("approve_edited", partial(editor.approve, start), ACTION_TIMEOUT_MS)

    def keep_bid(self, slug: str, price: int | str, quantity: int = 1) -> StrategyEditorPage:
        """A new strategy from a bid: the Bid tab's form filled with a collection bid, then
        "Keep this bid…": the editor, prefilled from it."""
        bid = self.app.bid.ready(slug)
        bid.fill_collection_bid(slug, price, quantity)
        keep = bid.tab.keep_button
        bid.expect("keep_bid", "Keep this bid… enabled", keep.isEnabled)
        before = len(self.app.harness.dialogs)
        click(self.qtbot, keep)
        return open_strategy_editor(self.app, before)

    # -- helpers ----------------------------------------------------------------------------

    def _stop_question(self, action: str, button: QPushButton) -> StopQuestion:
        before = len(self.app.harness.dialogs)
        click(self.qtbot, button)
        dialog = expect_dialog(self, action, "the question before stopping",
                               StopStrategyDialog, before, EDITOR_TIMEOUT_MS)  # fmt: skip
        return StopQuestion(self, dialog)

    def said_after(
        self,
        action: str,
        press: Callable[[], None],
        timeout_ms: int,
        roles: tuple[str, ...] = ("ok", "error"),
    ) -> str:
        """Do `press`; the first new message in `roles` the tab then shows under its tables."""
        watch = MessageWatch(self.widget, [self.widget.message])
        said: list[str] = []

        def ended() -> bool:
            new = watch.new(roles)
            if new is not None:
                said.append(new)
            return bool(said)

        press()
        self.expect(action, f"the outcome under the tables ({' or '.join(roles)})", ended,
                    timeout_ms)  # fmt: skip
        return said[0]


class StopQuestion(DialogPage[StopStrategyDialog]):
    """The question before stopping one strategy (or all): cancel the bids, keep them, or not
    stop."""

    name = "Stop question"

    def __init__(self, strategies: StrategiesPage, dialog: StopStrategyDialog) -> None:
        super().__init__(strategies.app, dialog)
        self.strategies = strategies

    @property
    def text(self) -> str:
        """What it asks (the approval revoked, the bids open and until when)."""
        label = self.dialog.findChild(QLabel)
        return "" if label is None else label.text()

    def cancel_bids(self) -> str:
        """Stop, cancelling the bids; the tab's message."""
        press = partial(click, self.qtbot, self.dialog.cancel_bids_button)
        return self.strategies.said_after("cancel_bids", press, ACTION_TIMEOUT_MS)

    def keep_bids(self) -> str:
        """Stop, keeping the bids open until they expire; the tab's message."""
        press = partial(click, self.qtbot, self.dialog.keep_bids_button)
        return self.strategies.said_after("keep_bids", press, ACTION_TIMEOUT_MS)

    def dont(self) -> None:
        """Don't stop: the strategy runs on."""
        click(self.qtbot, self.dialog.dont_button)
        self.expect("dont", "the question closed", lambda: not self.is_open)


def open_strategy_editor(app: App, before: int) -> StrategyEditorPage:
    """The strategy editor the app opened after its first `before` dialogs, once shown."""
    dialog = newest_dialog(app, StrategyEditorPage.name, "the strategy editor to open",
                           StrategyEditor, before, EDITOR_TIMEOUT_MS,
                           lambda: shown_messages(app.window.current_tab()))  # fmt: skip
    return StrategyEditorPage(app, dialog)


class StrategyEditorPage(DialogPage[StrategyEditor]):
    """The editor of a strategy (new from a bid, or one edited): its fields, the preview, the
    approval step, and Approve (and start) or Cancel."""

    name = "Strategy editor"

    @property
    def strategy_name(self) -> str:
        return self.dialog.fields.name.text()

    def set_name(self, name: str) -> None:
        replace_text(self.qtbot, self.dialog.fields.name, name)

    def preview(self, timeout_ms: int = ACTION_TIMEOUT_MS) -> str:
        """Press Preview; what it would place now, and why (nothing is signed)."""
        dialog = self.dialog
        before = dialog.preview.toPlainText()
        click(self.qtbot, dialog.preview_button)
        self.expect("preview", "the preview to change",
                    lambda: dialog.preview.toPlainText() != before, timeout_ms)  # fmt: skip
        return dialog.preview.toPlainText()

    def next(self) -> str:
        """Press Next; the approval step's text (the policy in plain words). Fields that are
        wrong fail here, quoting what the editor says of them."""
        dialog = self.dialog
        click(self.qtbot, dialog.next_button)
        self.expect("next", "the approval step",
                    lambda: dialog.pages.currentIndex() == APPROVE_PAGE, 1_000)  # fmt: skip
        return dialog.approval.toPlainText()

    def approve(self, start: bool = False, timeout_ms: int = ACTION_TIMEOUT_MS) -> None:
        """(Next, when on the fields,) then Approve, or Approve and start; returns once the
        editor closed. A refusal fails, quoting the editor's line."""
        dialog = self.dialog
        if dialog.pages.currentIndex() != APPROVE_PAGE:
            self.next()
        click(self.qtbot, dialog.approve_start_button if start else dialog.approve_button)
        self.expect("approve", "the strategy approved and the editor closed",
                    lambda: not self.is_open, timeout_ms)  # fmt: skip

    def cancel(self) -> None:
        """Cancel (on either step): nothing is approved."""
        dialog = self.dialog
        on_fields = dialog.pages.currentIndex() != APPROVE_PAGE
        click(self.qtbot, dialog.cancel_button if on_fields else dialog.cancel_approval_button)
        self.expect("cancel", "the editor closed", lambda: not self.is_open)

    def shown(self) -> str:
        if not shiboken6.isValid(self.dialog):
            return "the editor is closed"
        return super().shown()


def _click_cell(page: Page, view: QTableView, row: int) -> None:
    index = view.model().index(row, 0)
    view.scrollTo(index)
    at = view.visualRect(index).center()
    page.qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=at)
