"""The PSBT review dialog of every signing flow (Withdraw, Fund, Inscription bid, Listings...):
what it says, and Sign or Cancel pressed as a user does, waiting until the flow ended.

    review = app.review()               # the review the flow opened
    assert review.can_approve, review.refusal_reason
    said = review.approve()             # the tab's outcome line (a withdrawal: its txid)

The flow runner (app/ui/psbt_flow_runner.py) opens the dialog over the tab that started the
flow and says how the flow ended in that tab's message line: a refusal by the policy as
FLOW_REFUSED (the dialog then has no Sign button, only Close), a cancel as FLOW_CANCELLED, a
result as an 'ok' message, a failure as an 'error' one."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn

from PySide6.QtWidgets import QLabel, QWidget

from app.ui import strings
from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog
from app.ui.qa.actions import click
from app.ui.qa.app import DialogPage
from app.ui.qa.expect import ScenarioFailure, expect, shown_messages
from app.ui.qa.pages.form_steps import newest_dialog
from app.ui.qa.said import MessageWatch

if TYPE_CHECKING:
    from app.ui.qa.app import App

REVIEW_TIMEOUT_MS = 30_000  # the service builds the PSBT, the app reviews it
FLOW_TIMEOUT_MS = 60_000  # signing, submitting, the refresh after
OUTCOME_ROLES = ("ok", "error")


def open_review(
    app: App, before: int | None = None, timeout_ms: int = REVIEW_TIMEOUT_MS
) -> ReviewPage:
    """The newest review dialog the app opened (after its first `before` dialogs when given),
    once it shows; ScenarioFailure naming what the window showed instead."""
    dialog = newest_dialog(
        app,
        ReviewPage.name,
        "a PSBT review dialog to open",
        PsbtReviewDialog,
        before,
        timeout_ms,
        lambda: shown_messages(app.window.current_tab()),
    )
    return ReviewPage(app, dialog)


class ReviewPage(DialogPage[PsbtReviewDialog]):
    """One open review dialog. Its facts are read while it is open; `approve` and `reject`
    close it and return what the tab that started the flow then says."""

    name = "Review"

    def __init__(self, app: App, dialog: PsbtReviewDialog) -> None:
        super().__init__(app, dialog)
        # The tab the flow runs in: where it says how the flow ended (the dialog is gone then).
        self.origin: QWidget = dialog.parentWidget() or app.window

    # -- what it says ---------------------------------------------------------------------

    @property
    def title(self) -> str:
        return self._open().windowTitle()

    @property
    def headline(self) -> str:
        """What the transaction does in one line (a bulk review: the figures added up)."""
        dialog = self._open()
        if dialog.headline_label.isVisible():
            return dialog.headline_label.text()
        return dialog.summary_label.text()

    @property
    def verdict(self) -> str:
        """The policy's verdict as the dialog's first line says it (passes, refuses, asks)."""
        return self._open().verdict_label.text()

    @property
    def refusal_reason(self) -> str | None:
        """The policy's refusal as the dialog shows it ("Bidwallet refuses to sign this
        withdrawal: ..."); None when nothing is refused."""
        dialog = self._open()
        return dialog.verdict_label.text() if dialog.refused else None

    @property
    def can_approve(self) -> bool:
        """There is a Sign button (nothing refused); it may wait for `needs_fee_consent`."""
        return self._open().sign_button is not None

    @property
    def needs_fee_consent(self) -> bool:
        """A fee outside the user's bounds: Sign is enabled only once the box is ticked."""
        return self._open().consent_box is not None

    @property
    def action(self) -> str:
        """The Sign button's words ("Sign and send"), without the Alt+letter's '&'."""
        return self._open().action.replace("&", "")

    @property
    def notes(self) -> list[str]:
        """What the flow says above the review (the bids a withdrawal cancels...)."""
        return _lines(self._open().notes_label)

    @property
    def warnings(self) -> list[str]:
        """What the flow warns of before signing (a fee rate other than the one asked...)."""
        return _lines(self._open().warnings_label)

    @property
    def findings(self) -> list[str]:
        """The review's points and dangers as listed ("⚠ ..." for a danger, "• ..." for a
        note), then the flow's warnings; the verdict's reasons are in `verdict`."""
        dialog = self._open()
        lines = _lines(dialog.findings_label)
        if lines and lines[0] == strings.REVIEW_FINDINGS + ":":
            lines = lines[1:]
        return [*lines, *self.warnings]

    @property
    def details(self) -> list[str]:
        """The summary's lines after the tables (where each inscription lands...)."""
        return _lines(self._open().details_label)

    @property
    def fee(self) -> str:
        return self._open().fee_label.text()

    @property
    def txid(self) -> str:
        return self._open().txid_field.text()

    def output_owners(self) -> list[str]:
        """The outputs table's Owner column, top to bottom ("you (payment)", "someone else")."""
        model = self._open().outputs_model
        return [model.cell(row, 3).text for row in range(model.rowCount())]

    # -- what a user does -----------------------------------------------------------------

    def accept_fee(self) -> None:
        """Tick the box accepting a fee outside the user's bounds (Sign is enabled then)."""
        box = self._open().consent_box
        if box is None:
            self._fail("accept_fee", "a fee to accept (the review asks for no consent)")
        if not box.isChecked():
            click(self.qtbot, box)

    def approve(self, accept_fee: bool = False, timeout_ms: int = FLOW_TIMEOUT_MS) -> str:
        """Press Sign (ticking the fee box first when `accept_fee`), then wait until the tab
        that started the flow says how it ended; that message (its 'ok' or 'error' text)."""
        dialog = self._open()
        if dialog.sign_button is None:
            self._fail("approve", "a Sign button", f"refused: {dialog.verdict_label.text()!r}")
        if accept_fee and dialog.consent_box is not None:
            self.accept_fee()
        button = dialog.sign_button
        if not button.isEnabled():
            self._fail("approve", "Sign enabled", f"verdict {dialog.verdict_label.text()!r}")
        return self._close_and_wait(
            "approve",
            lambda: click(self.qtbot, button),
            "the flow's outcome (an 'ok' or 'error' message)",
            timeout_ms,
        )

    def reject(self, timeout_ms: int = FLOW_TIMEOUT_MS) -> str:
        """Press Cancel (Close for a refused review); what the tab then says: FLOW_CANCELLED,
        or FLOW_REFUSED for a refusal (nothing signed or sent either way)."""
        dialog = self._open()
        refused = bool(dialog.refused)
        said = strings.FLOW_REFUSED if refused else strings.FLOW_CANCELLED
        button = dialog.cancel_button
        return self._close_and_wait(
            "reject", lambda: click(self.qtbot, button), repr(said), timeout_ms, said
        )

    # -- helpers --------------------------------------------------------------------------

    def _fail(self, action: str, expected: str, shown: str | None = None) -> NoReturn:
        said = self.shown() if shown is None else shown
        raise ScenarioFailure(f"{self.name} page, {action}: expected {expected}; it shows: {said}")

    def _close_and_wait(
        self,
        action: str,
        press: Callable[[], None],
        expected: str,
        timeout_ms: int,
        text: str | None = None,
    ) -> str:
        """Press, then wait until the dialog is gone and the origin shows a new 'ok' or
        'error' message (or, given `text`, that text); the message."""
        watch = MessageWatch(self.origin)
        found: list[str] = []

        def ended() -> bool:
            said = watch.new(OUTCOME_ROLES, text)  # every poll: it notes what changed
            found.extend([] if said is None else [said])
            return bool(found) and not self.is_open

        press()
        expect(self.qtbot, self.name, action, expected, ended,
               shown=lambda: shown_messages(self.origin), timeout_ms=timeout_ms)  # fmt: skip
        return found[-1]


def _lines(label: QLabel) -> list[str]:
    """A message label's lines (an empty label is hidden: no lines)."""
    return [line for line in label.text().splitlines() if line.strip()]
