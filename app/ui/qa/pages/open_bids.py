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

from app.ui.qa.actions import click, type_into
from app.ui.qa.app import App, DialogPage, Page
from app.ui.qa.expect import ScenarioFailure, expect
from app.ui.qa.said import MessageWatch
from app.ui.tabs.open_bids_confirm import ConfirmCancelDialog

if TYPE_CHECKING:
    from app.ui.tabs.open_bids_tab import OpenBidsTab

LOAD_TIMEOUT_MS = 20_000
CANCEL_TIMEOUT_MS = 60_000  # above the app's 30 s HTTP timeout and the read after a lost answer
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
        """How the question and the results should name it: "<pool> [<trait>] · <price> sats ·
        bid <id>" (written out here, not taken from the app: a scenario checks the app's)."""
        what = f"{self.pool} [{self.trait}]" if self.trait else self.pool
        return f"{what} · {self.price} sats · bid {self.bid_id}"


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


class CancelQuestionPage(DialogPage[ConfirmCancelDialog]):
    """The question before cancelling bids (app/ui/tabs/open_bids_confirm.py)."""

    name = "Cancel bids question"

    def __init__(self, app: App, dialog: ConfirmCancelDialog) -> None:
        super().__init__(app, dialog)
        self.lines = [dialog.list.item(r).text() for r in range(dialog.list.count())]
        self.kept = False

    def cancel_bids(self) -> None:
        """Press "Cancel N bids"."""
        click(self.qtbot, self.dialog.yes_button)

    def keep(self) -> None:
        """Press "Keep them" (also what Enter does); returns once the question closed."""
        with self.qtbot.waitSignal(self.dialog.finished):
            click(self.qtbot, self.dialog.no_button)
        self.kept = True


@dataclass
class PressedCancel:
    """A press of Cancel being followed: the dialogs opened before it, the status line's
    watch, the question once it showed."""

    dialogs: int
    watch: MessageWatch
    question: CancelQuestionPage | None = None


class OpenBidsPage(Page):
    name = "Open bids"

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self._pressed: PressedCancel | None = None

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

    def wait_rank(self, bid_id: str, rank: str, timeout_ms: int = LOAD_TIMEOUT_MS) -> BidRow:
        """Until bid `bid_id`'s Rank cell reads `rank` ("2nd of 2", "1st of 3 · top bid"), as
        the market's reads of its pool come; its row then."""

        def shown() -> bool:
            return any(r.bid_id == bid_id and r.rank == rank for r in self.rows())

        def ranks() -> str:
            said = [f"{r.bid_id} {r.rank or 'unranked'}" for r in self.rows()]
            return f"{self.shown()}; ranks: {', '.join(said) or 'no bids'}"

        expect(self.qtbot, self.name, "wait_rank", f"bid {bid_id} ranked {rank!r}", shown,
               shown=ranks, timeout_ms=timeout_ms)  # fmt: skip
        return self.row(bid_id)

    def refresh(self) -> None:
        """Press Refresh (once it is enabled: a reading under way disables it); returns once
        the bids were read again."""
        tab = self.tab
        self.expect("refresh", "Refresh enabled", tab.refresh_button.isEnabled, LOAD_TIMEOUT_MS)
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

    def cancel(
        self, *bids: str | int, confirm: bool = True, timeout_ms: int = CANCEL_TIMEOUT_MS
    ) -> CancelOutcome:
        """Select `bids` (ids or rows shown), press Cancel, answer the question (Cancel them,
        or Keep them when not `confirm`) and wait up to `timeout_ms` for the result (more than
        the app's own 30 s HTTP timeout when the service is made to hold its answer). The
        wallet must be unlocked (locked, the app asks the password first: use `press_cancel`,
        `app.unlock_prompt`, `question`, then `outcome`)."""
        self.press_cancel(*bids)
        question = self.question()
        if confirm:
            question.cancel_bids()
        else:
            question.keep()
        return self.outcome(timeout_ms)

    def press_cancel(self, *bids: str | int) -> None:
        """Select `bids` (none: keep the selection) and press Cancel; nothing more."""
        tab = self.tab
        if bids:
            self.select(*bids)
        if not tab.cancel_button.isEnabled():
            raise ScenarioFailure(f"{self.name} page, cancel: expected a bid selected; "
                                  f"{self._listed()}")  # fmt: skip
        watch = MessageWatch(tab, [tab.cancel_status])
        self._pressed = PressedCancel(len(self.app.harness.dialogs), watch)
        click(self.qtbot, tab.cancel_button)

    def question(self, timeout_ms: int = QUESTION_TIMEOUT_MS) -> CancelQuestionPage:
        """The question the last Cancel opened, once it shows."""
        pressed = self._cancelling("question")
        dialogs = self.app.harness.dialogs

        def asked() -> ConfirmCancelDialog | None:
            found = [d for d in dialogs[pressed.dialogs :] if isinstance(d, ConfirmCancelDialog)]
            return found[0] if found and found[0].isVisible() else None

        self.expect("cancel", "the question before cancelling", lambda: asked() is not None,
                    timeout_ms)  # fmt: skip
        dialog = asked()
        assert dialog is not None
        pressed.question = CancelQuestionPage(self.app, dialog)
        return pressed.question

    def outcome(self, timeout_ms: int = CANCEL_TIMEOUT_MS) -> CancelOutcome:
        """How the last Cancel ended: kept at the question, or the status and a line per bid."""
        pressed = self._cancelling("outcome")
        question = pressed.question
        asked = [] if question is None else question.lines
        tab = self.tab
        if question is not None and question.kept:
            self._pressed = None
            return CancelOutcome(asked, kept=True)
        found: list[str] = []

        def ended() -> bool:
            said = pressed.watch.new(("ok", "error"))
            found.extend([] if said is None else [said])
            return bool(found)

        self.expect("cancel", "the cancel's result", ended, timeout_ms)
        self._pressed = None
        results = tuple(tab.results.item(r).text() for r in range(tab.results.count()))
        ok = tab.cancel_status.property("role") == "ok"
        return CancelOutcome(asked, False, found[-1], ok, results)

    # -- helpers ----------------------------------------------------------------------------

    def _cancelling(self, action: str) -> PressedCancel:
        if self._pressed is None:
            raise ScenarioFailure(f"{self.name} page, {action}: Cancel was not pressed")
        return self._pressed

    def _listed(self) -> str:
        ids = self.bid_ids()
        return f"it shows {len(ids)}: {', '.join(ids) or 'none'}"
