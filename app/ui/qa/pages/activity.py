"""The Activity tab as a user reads it: the entries in the table's order (newest first), each
as its cells show it; the filter typed, "Errors only" ticked, a txid copied with the button.
`expect_entry` waits for an entry a flow records (the log is written as the flow ends)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from app.ui.models.activity_model import (
    COL_ACTION,
    COL_CODE,
    COL_MESSAGE,
    COL_RESULT,
    COL_TIME,
    COL_TXID,
)
from app.ui.qa.actions import click
from app.ui.qa.app import Page
from app.ui.qa.expect import DEFAULT_TIMEOUT_MS, ScenarioFailure, shown_messages
from app.ui.qa.pages.form_steps import replace_text
from app.ui.tabs.activity_tab import ActivityTab

ENTRIES_QUOTED = 3  # a failure quotes the newest few entries shown


@dataclass(frozen=True)
class ActivityRow:
    """One entry as its cells show it ("" where a cell is empty; the action in words)."""

    time: str
    action: str
    result: str
    code: str
    message: str
    txid: str

    def says(self, text: str) -> bool:
        """`text` is in one of its cells (case as shown)."""
        return any(text in cell for cell in (self.action, self.result, self.code, self.message,
                                             self.txid))  # fmt: skip

    def __str__(self) -> str:
        cells = (self.action, self.result, self.code, self.message, self.txid)
        return " · ".join(c for c in cells if c)


class ActivityPage(Page):
    name = "Activity"

    @property
    def widget(self) -> ActivityTab:
        tab = self.app.window.tab("activity")
        assert isinstance(tab, ActivityTab)
        return tab

    def open(self) -> ActivityPage:
        self.app.tab("activity", ActivityTab)
        return self

    def shown(self) -> str:
        """Its messages and the newest entries shown (what a failure quotes)."""
        rows = self.entries()[:ENTRIES_QUOTED]
        said = shown_messages(self.widget)
        if not rows:
            return said
        return f"{said}; newest entries: " + "; ".join(repr(str(r)) for r in rows)

    def entries(self) -> list[ActivityRow]:
        """The entries the table shows (the filter applied), top to bottom."""
        proxy = self.widget.proxy

        def cell(row: int, column: int) -> str:
            return str(proxy.index(row, column).data(Qt.ItemDataRole.DisplayRole) or "")

        columns = (COL_TIME, COL_ACTION, COL_RESULT, COL_CODE, COL_MESSAGE, COL_TXID)
        return [ActivityRow(*(cell(r, c) for c in columns)) for r in range(proxy.rowCount())]

    def expect_entry(self, text: str, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> ActivityRow:
        """The newest entry shown that says `text` (in its action, result, code, message or
        txid), once there is one."""
        found: list[ActivityRow] = []

        def present() -> bool:
            found[:] = [r for r in self.entries() if r.says(text)][:1]
            return bool(found)

        self.expect("expect_entry", f"an entry saying {text!r}", present, timeout_ms)
        return found[0]

    def filter(self, text: str) -> list[ActivityRow]:
        """Type `text` in the filter box (over what it held); the entries then shown."""
        replace_text(self.qtbot, self.widget.filter, text)
        return self.entries()

    def errors_only(self, on: bool = True) -> list[ActivityRow]:
        """Tick (or untick) "Errors only"; the entries then shown."""
        box = self.widget.errors_only
        if box.isChecked() != on:
            click(self.qtbot, box)
        return self.entries()

    def copy_txid(self, row: int) -> str:
        """Click the entry at `row` (of those shown), press Copy txid; what the clipboard
        then holds."""
        tab = self.widget
        rows = tab.proxy.rowCount()
        if not 0 <= row < rows:
            raise ScenarioFailure(f"{self.name} page, copy_txid: no row {row} among {rows} shown")
        index = tab.proxy.index(row, COL_ACTION)
        tab.table.scrollTo(index)
        at = tab.table.visualRect(index).center()
        self.qtbot.mouseClick(tab.table.viewport(), Qt.MouseButton.LeftButton, pos=at)
        click(self.qtbot, tab.copy_button)
        return QGuiApplication.clipboard().text()
