"""The one PSBT review dialog of every flow: it draws the services' Review and Verdict.

    if await PsbtReviewDialog.ask(self, [plan], title="Withdraw", action="Sign and send"):
        signed = await ctx.run_cpu(sign_plan, plan, keys)   # signing: off the GUI thread

"You give / you receive" first; then inputs and outputs with colour-coded owners (and a
legend), inscriptions and runes marked with where each lands, fee in sats, sat/vB and share of
the amount moved (or unknown), when it can confirm (lock time, replace-by-fee), each input's
sighash and its risk, and the policy's verdict. When any verdict is a refusal the dialog says
why and has NO sign button at all: only Close. When the only objection is the fee (outside the
user's bounds), the sign button stays disabled until the user ticks the box accepting that
fee; the caller then re-decides the PSBT with that consent (`accept_fee`) before signing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QItemSelection, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDialog,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.core.psbt_review import Review
from app.ui import strings
from app.ui.async_tools import exec_dialog
from app.ui.dialogs.psbt_review_text import (
    consent_label,
    fee_text,
    findings_text,
    landing_lines,
    legend_html,
    time_lines,
    verdict_text,
)
from app.ui.models.review_model import (
    SIZE_FROM_ROWS,
    ReviewedPsbt,
    RowsModel,
    input_rows,
    output_rows,
    plan_rows,
)
from app.ui.widgets import make_default, message_label, set_message

if TYPE_CHECKING:
    from app.ui.context import AppContext


def _table(model: RowsModel, name: str) -> QTableView:
    view = QTableView()
    view.setObjectName(name)
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setAlternatingRowColors(True)
    view.verticalHeader().setVisible(False)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    # Size columns from the first rows only: measuring all 100 rows of a bulk review would
    # keep the GUI thread busy for ~100 ms.
    view.horizontalHeader().setResizeContentsPrecision(SIZE_FROM_ROWS)
    view.horizontalHeader().setStretchLastSection(True)
    view.setWordWrap(False)
    return view


class PsbtReviewDialog(QDialog):
    """Draws one or many reviewed PSBTs; `sign_button` is None when any is refused, and
    disabled until `consent_box` is ticked when a fee needs the user's consent."""

    def __init__(
        self,
        plans: Sequence[ReviewedPsbt],
        *,
        title: str = strings.REVIEW_TITLE_DEFAULT,
        action: str = strings.REVIEW_SIGN,
        notes: Sequence[str] = (),
        signed_here: bool = True,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.signed_here = signed_here  # False: exported for another wallet to sign
        if not plans:
            raise ValueError("PsbtReviewDialog needs at least one reviewed PSBT")
        self.setObjectName("psbt_review_dialog")
        self.setWindowTitle(title)
        self.plans = tuple(plans)
        self.action = action
        self.refused = tuple(
            p for p in self.plans if not p.verdict.approved and not p.verdict.needs_fee_consent
        )
        self.needs_consent = tuple(p for p in self.plans if p.verdict.needs_fee_consent)

        self.verdict_label = message_label(self._verdict_style())
        self.verdict_label.setObjectName("review_verdict")
        self.verdict_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # What the flow adds in its own words ("you pay ... you receive ..."), above the review.
        self.notes_label = message_label("title")
        self.notes_label.setObjectName("review_notes")
        self.notes_label.setText("\n".join(notes))
        self.notes_label.setVisible(bool(notes))
        self.notes_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary_label = QLabel()
        self.summary_label.setObjectName("review_summary")
        self.summary_label.setWordWrap(True)
        self.summary_label.setProperty("role", "title")
        self.summary_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details_label = message_label("hint")
        self.details_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.fee_label = QLabel()
        self.fee_label.setObjectName("review_fee")
        self.fee_label.setWordWrap(True)
        self.time_label = message_label("hint")
        self.time_label.setObjectName("review_time")
        self.findings_label = message_label("hint")
        self.findings_label.setObjectName("review_findings")
        self.legend = QLabel(legend_html())
        self.legend.setObjectName("review_legend")
        self.legend.setWordWrap(True)

        self.inputs_model = RowsModel(strings.REVIEW_INPUT_HEADERS)
        self.outputs_model = RowsModel(strings.REVIEW_OUTPUT_HEADERS)
        self.inputs_view = _table(self.inputs_model, "review_inputs")
        self.outputs_view = _table(self.outputs_model, "review_outputs")
        self.plans_model = RowsModel(strings.REVIEW_PLANS_HEADERS)
        self.plans_model.set_rows(plan_rows(self.plans))
        self.plans_view = _table(self.plans_model, "review_plans")
        self.plans_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        # The item's label takes the spare width, elided in the middle (ids end in "i0").
        self.plans_view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        plans_header = self.plans_view.horizontalHeader()
        plans_header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        plans_header.setStretchLastSection(False)

        self.cancel_button = QPushButton(strings.REVIEW_CANCEL)
        self.cancel_button.clicked.connect(self.reject)
        # No sign button exists when anything is refused: nothing to click, nothing to tab to.
        self.sign_button: QPushButton | None = None
        self.consent_box: QCheckBox | None = None
        buttons = QHBoxLayout()
        if self.needs_consent and not self.refused:
            self.consent_box = QCheckBox(consent_label(self.plans))
            self.consent_box.setObjectName("review_fee_consent")
            buttons.addWidget(self.consent_box)
        buttons.addStretch(1)
        buttons.addWidget(self.cancel_button)
        if not self.refused:
            self.sign_button = QPushButton(action)
            self.sign_button.setObjectName("review_sign")
            self.sign_button.clicked.connect(self.accept)
            buttons.addWidget(self.sign_button)
            if self.consent_box is not None:
                # Nothing to sign by default: Cancel stays the default button.
                self.sign_button.setEnabled(False)
                self.consent_box.toggled.connect(self.sign_button.setEnabled)
                make_default(self.cancel_button)
            else:
                make_default(self.sign_button, self.cancel_button)
        else:
            self.cancel_button.setText(strings.REVIEW_CLOSE)  # nothing to cancel: only to read
            make_default(self.cancel_button)

        self._layout(buttons)
        self._show_verdict()
        self.show_plan(0)
        if len(self.plans) > 1:
            self.plans_view.selectRow(0)
            self.plans_view.selectionModel().selectionChanged.connect(self._plan_selected)
        self.resize(980, 680)

    def _layout(self, buttons: QHBoxLayout) -> None:
        you = QGroupBox(strings.REVIEW_YOU)
        you_layout = QVBoxLayout(you)
        you_layout.addWidget(self.summary_label)
        you_layout.addWidget(self.details_label)
        you_layout.addWidget(self.fee_label)
        you_layout.addWidget(self.time_label)
        ins = QGroupBox(strings.REVIEW_INPUTS)
        QVBoxLayout(ins).addWidget(self.inputs_view)
        outs = QGroupBox(strings.REVIEW_OUTPUTS)
        QVBoxLayout(outs).addWidget(self.outputs_view)
        splitter = QSplitter(Qt.Orientation.Vertical)
        if len(self.plans) > 1:
            plans_box = QGroupBox(strings.REVIEW_PLANS_INTRO.format(count=len(self.plans)))
            QVBoxLayout(plans_box).addWidget(self.plans_view)
            splitter.addWidget(plans_box)
        splitter.addWidget(ins)
        splitter.addWidget(outs)
        for index in range(splitter.count()):
            splitter.setStretchFactor(index, 1)
        splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.addWidget(self.verdict_label)
        layout.addWidget(self.notes_label)
        layout.addWidget(you)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.findings_label)
        layout.addWidget(self.legend)
        layout.addLayout(buttons)

    def _verdict_style(self) -> str:
        return "error" if self.refused else "warning" if self.needs_consent else "ok"

    def _show_verdict(self) -> None:
        text = verdict_text(self.plans, signed_here=self.signed_here)
        set_message(self.verdict_label, text, self._verdict_style())

    @property
    def fee_accepted(self) -> bool:
        """The user ticked the box accepting the fees outside their bounds (or none were)."""
        return self.consent_box is None or self.consent_box.isChecked()

    def _plan_selected(self, selected: QItemSelection, _deselected: QItemSelection) -> None:
        rows = selected.indexes()
        if rows:
            self.show_plan(rows[0].row())

    def show_plan(self, row: int) -> None:
        """Draw plan `row` in the summary and the input and output tables."""
        plan = self.plans[row]
        review: Review = plan.review
        lines = review.summary.lines()
        # The first line is the headline; the last is the fee, drawn with its rate below.
        self.summary_label.setText(lines[0])
        details = [*lines[1:-1], *landing_lines(review)]
        details.append(strings.REVIEW_NETWORK.format(network=review.network, txid=review.txid))
        self.details_label.setText("\n".join(details))
        self.fee_label.setText(fee_text(review, plan.verdict))
        self.time_label.setText("\n".join(time_lines(review)))
        self.inputs_model.set_rows(input_rows(review))
        self.outputs_model.set_rows(output_rows(review))
        findings = findings_text(review, plan.verdict)
        set_message(self.findings_label, findings, "hint")

    @classmethod
    async def ask(
        cls,
        parent: QWidget | None,
        plans: Sequence[ReviewedPsbt],
        *,
        title: str,
        action: str,
        notes: Sequence[str] = (),
        context: AppContext | None = None,
        signed_here: bool = True,
    ) -> bool:
        """Show the review window-modal (no nested loop); True when the user pressed `action`.

        Pass `context` so the dialog is announced on `context.dialog_opened` (tests drive it)."""
        dialog = cls(
            plans, title=title, action=action, notes=notes, signed_here=signed_here, parent=parent
        )

        def lock_changed(unlocked: bool) -> None:
            if not unlocked:  # locked (by hand or when idle) while reviewing: sign nothing
                dialog.reject()

        if context is not None:
            context.lock_changed.connect(lock_changed)
            context.dialog_opened.emit(dialog)
        try:
            accepted = await exec_dialog(dialog) == QDialog.DialogCode.Accepted
        finally:
            if context is not None:
                context.lock_changed.disconnect(lock_changed)
            dialog.deleteLater()
        return accepted and dialog.sign_button is not None and dialog.fee_accepted
