"""The Open bids tab as a user reads and cancels bids: the table's rows as shown (filtered and
sorted as the user left them), Refresh, and Cancel through the question before it
(app/ui/tabs/open_bids_confirm.py), with the result per bid.

    bids = app.open_bids.ready(count=3)
    done = bids.cancel(bids.rows()[0].bid_id)
    assert done.ok, done.said                      # "1 of 1 bids cancelled."

A bid's standing in its pool's market is its `rank` ("3rd of 41 bids", "outbid ..."); a filled
or expired bid leaves the table at the next refresh (`wait_gone`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from app.ui import strings
from app.ui.qa.actions import click, type_into
from app.ui.qa.app import Page
from app.ui.qa.expect import ScenarioFailure
from app.ui.qa.said import MessageWatch

if TYPE_CHECKING:
    from app.ui.tabs.open_bids_confirm import ConfirmCancelDialog
    from app.ui.tabs.open_bids_tab import OpenBidsTab

LOAD_TIMEOUT_MS = 20_000
CANCEL_TIMEOUT_MS = 30_000
QUESTION_TIMEOUT_MS = 10_000


@dataclass(frozen=True)
class BidRow:
    """One row of the table, as its cells read."""

    pool: str
    trait: str
    kind: str
    price: str
    quantity: str
    rank: str
    expires: str
    bid_id: str
    strategy: str

    @property
    def described(self) -> str:
        """How the question and the results name it ("<pool> [<trait>] · <price> sats · bid
        <id>")."""
        what = f"{self.pool} [{self.trait}]" if self.trait else self.pool
        return strings.OPEN_BIDS_DESCRIBED.format(what=what, price=self.price, bid=self.bid_id)


@dataclass(frozen=True)
class CancelOutcome:
    """A cancel: `asked` the bids the question listed; `kept` the user kept them ("Keep
    them": nothing else happened); else `said` the tab's status ("3 of 3 bids cancelled."),
    `ok` all were, `results` the line per bid ("✓ Cancelled: ...")."""

    asked: list[str]
    kept: bool
    said: str = ""
    ok: bool = False
    results: tuple[str, ...] = ()


class OpenBidsPage(Page):
    name = "Open bids"

    @property
    def tab(self) -> OpenBidsTab:
        """The Open bids tab, shown."""
        from app.ui.tabs.open_bids_tab import OpenBidsTab

        return self.app.tab("open_bids", OpenBidsTab)

    @property
    def widget(self) -> QWidget:
        return self.app.window.tab("open_bids")

    # -- reading ----------------------------------------------------------------------------

    def rows(self) -> list[BidRow]:
        """The rows shown, top to bottom (after the filter and the sort)."""
        proxy = self.tab.proxy
        return [
            BidRow(*(str(proxy.index(row, c).data() or "") for c in range(proxy.columnCount())))
            for row in range(proxy.rowCount())
        ]

    def bid_ids(self) -> list[str]:
        return [row.bid_id for row in self.rows()]

    def row(self, bid_id: str) -> BidRow:
        for row in self.rows():
            if row.bid_id == bid_id:
                return row
        raise ScenarioFailure(f"{self.name} page: no bid {bid_id!r} shown; {self._listed()}")

    @property
    def counts(self) -> str:
        """ "6 open bids in 4 pools (2 shown)"."""
        return self.tab.counts.text()

    @property
    def status(self) -> str:
        """The last cancel's status line."""
        return self.tab.cancel_status.text()

    def pools(self) -> dict[str, str]:
        """The pools table: pool -> its open bids."""
        model = self.tab.pools_model
        return {
            str(model.index(r, 0).data()): str(model.index(r, 1).data())
            for r in range(model.rowCount())
        }

    # -- what a user does -------------------------------------------------------------------

    def ready(self, count: int | None = None) -> OpenBidsPage:
        """The tab shown with the open bids read (given `count`: that many listed)."""
        tab = self.tab
        if count is None:
            self.expect("ready", "the open bids read", lambda: tab.state.view is not None,
                        LOAD_TIMEOUT_MS)  # fmt: skip
        else:
            self.wait_rows(count)
        return self

    def wait_rows(self, count: int, timeout_ms: int = LOAD_TIMEOUT_MS) -> None:
        """Until the table lists `count` bids (refreshed on its timer or after an action)."""
        model = self.tab.model
        self.expect("wait_rows", f"{count} open bids listed",
                    lambda: model.rowCount() == count, timeout_ms)  # fmt: skip

    def wait_gone(self, bid_id: str, timeout_ms: int = LOAD_TIMEOUT_MS) -> None:
        """Until bid `bid_id` is no longer listed (cancelled, filled or expired)."""
        model = self.tab.model
        self.expect("wait_gone", f"bid {bid_id} gone from the table",
                    lambda: bid_id not in {model.bid_id(r) for r in range(model.rowCount())},
                    timeout_ms)  # fmt: skip

    def refresh(self) -> None:
        """Press Refresh; returns once the bids were read again."""
        tab = self.tab
        loads = tab.state.loads
        click(self.qtbot, tab.refresh_button)
        self.expect("refresh", "the open bids read again", lambda: tab.state.loads > loads,
                    LOAD_TIMEOUT_MS)  # fmt: skip

    def filter(self, text: str) -> None:
        """Type `text` over the filter (empty: every bid shown)."""
        field = self.tab.filter
        field.clear()
        if text:
            type_into(self.qtbot, field, text)

    def select(self, *bids: str | int) -> None:
        """Click the first bid's row, Ctrl+click the others' (a bid id, or a row shown)."""
        tab = self.tab
        ids = self.bid_ids()
        for number, bid in enumerate(bids):
            if isinstance(bid, str) and bid not in ids:
                raise ScenarioFailure(f"{self.name} page, select: no bid {bid!r}; {self._listed()}")
            row = ids.index(bid) if isinstance(bid, str) else bid
            tab.table.scrollTo(tab.proxy.index(row, 0))
            rect = tab.table.visualRect(tab.proxy.index(row, 0))
            modifier = (
                Qt.KeyboardModifier.ControlModifier if number else Qt.KeyboardModifier.NoModifier
            )
            self.qtbot.mouseClick(
                tab.table.viewport(), Qt.MouseButton.LeftButton, modifier, rect.center()
            )

    def cancel(self, *bids: str | int, confirm: bool = True) -> CancelOutcome:
        """Select `bids` (ids or rows shown), press Cancel, answer the question (Cancel them,
        or Keep them when not `confirm`) and wait for the result. The wallet must be unlocked
        (locked, the app asks the password first: `UnlockPage`)."""
        tab = self.tab
        self.select(*bids)
        before = len(self.app.harness.dialogs)
        watch = MessageWatch(tab, [tab.cancel_status])
        click(self.qtbot, tab.cancel_button)
        dialog = self._question(before)
        asked = [dialog.list.item(r).text() for r in range(dialog.list.count())]
        if not confirm:
            with self.qtbot.waitSignal(dialog.finished):
                click(self.qtbot, dialog.no_button)
            return CancelOutcome(asked, kept=True)
        click(self.qtbot, dialog.yes_button)
        found: list[str] = []

        def ended() -> bool:
            said = watch.new(("ok", "error"))
            found.extend([] if said is None else [said])
            return bool(found)

        self.expect("cancel", "the cancel's result", ended, CANCEL_TIMEOUT_MS)
        results = tuple(tab.results.item(r).text() for r in range(tab.results.count()))
        ok = tab.cancel_status.property("role") == "ok"
        return CancelOutcome(asked, False, found[-1], ok, results)

    # -- helpers ----------------------------------------------------------------------------

    def _question(self, before: int) -> ConfirmCancelDialog:
        from app.ui.tabs.open_bids_confirm import ConfirmCancelDialog

        dialogs = self.app.harness.dialogs

        def asked() -> ConfirmCancelDialog | None:
            found = [d for d in dialogs[before:] if isinstance(d, ConfirmCancelDialog)]
            return found[0] if found and found[0].isVisible() else None

        self.expect("cancel", "the question before cancelling", lambda: asked() is not None,
                    QUESTION_TIMEOUT_MS)  # fmt: skip
        dialog = asked()
        assert dialog is not None
        return dialog

    def _listed(self) -> str:
        ids = self.bid_ids()
        return f"it shows {len(ids)}: {', '.join(ids) or 'none'}"
