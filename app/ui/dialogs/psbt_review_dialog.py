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

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QItemSelection, QModelIndex, QRect, QSize, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLayout,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.core.psbt_review import Review
from app.core.psbt_review_headline import bulk_headline, headline
from app.core.psbt_review_parties import input_parties, output_parties
from app.ui import strings
from app.ui.async_tools import exec_dialog
from app.ui.dialogs.psbt_review_export import ExportButton
from app.ui.dialogs.psbt_review_table import ReviewTable
from app.ui.dialogs.psbt_review_text import (
    consent_label,
    fee_text,
    findings_text,
    landing_lines,
    legend_html,
    short_ids,
    size_text,
    time_lines,
    verdict_text,
)
from app.ui.models.review_model import (
    ReviewedPsbt,
    RowsModel,
    input_rows,
    output_rows,
    psbt_text,
)
from app.ui.models.review_plans import plan_rows, totals_text
from app.ui.widgets import make_default, message_label, set_message

if TYPE_CHECKING:
    from app.ui.context import AppContext


def _selectable(label: QLabel, name: str) -> QLabel:
    label.setObjectName(name)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def _captioned(caption: str, *widgets: QWidget) -> QWidget:
    """A caption line above `widgets`, without a group box's frame (the rows need the room)."""
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(2)
    title = QLabel(caption)
    font = title.font()
    font.setBold(True)
    title.setFont(font)
    layout.addWidget(title)
    for widget in widgets:
        # Room to spare goes to the table (up to all its rows), never between the lines.
        table = isinstance(widget, QTableView)
        if not table:
            widget.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        layout.addWidget(widget, 1 if table else 0)
    title.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
    layout.setSizeConstraint(QLayout.SizeConstraint.SetMinAndMaxSize)  # no taller than they
    return box


def _file_name(label: str) -> str:
    """A file name from a plan's label: letters, digits, '-' and '_' only."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", label).strip("-") or "transaction"


PLANS_SHOWN = 3  # rows of a bulk review's list of transactions shown at the least
FIRST_SIZE = QSize(1000, 720)  # at most; a smaller screen's free area less a title bar
MIN_SIZE = QSize(640, 480)


def first_size(free: QRect | None) -> QSize:
    """The dialog's first size: FIRST_SIZE, or the screen's free area less room for a title
    bar and a margin when that is smaller (a 1024x700 screen gets 1000x660)."""
    if free is None:
        return FIRST_SIZE
    return FIRST_SIZE.boundedTo(QSize(free.width() - 24, free.height() - 40))


def _body(content: QWidget) -> QScrollArea:
    """The dialog's middle, scrolled only when the window is made smaller than it needs."""
    area = QScrollArea()
    area.setObjectName("review_body")
    area.setWidget(content)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    return area


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
        warnings: Sequence[str] = (),
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
        self.notes = tuple(notes)
        self.refused = tuple(
            p for p in self.plans if not p.verdict.approved and not p.verdict.needs_fee_consent
        )
        self.needs_consent = tuple(p for p in self.plans if p.verdict.needs_fee_consent)
        bulk = len(self.plans) > 1

        self.verdict_label = message_label(self._verdict_style())
        self.verdict_label.setObjectName("review_verdict")
        self.verdict_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # Several transactions: their figures added up, above the one selected.
        self.headline_label = _selectable(message_label("title"), "review_headline")
        flow = self.plans[0].verdict.flow
        self.headline_label.setText(
            bulk_headline([p.review for p in self.plans], flow) if bulk else ""
        )
        self.headline_label.setVisible(bulk)
        # What the flow adds in its own words (the bids a withdrawal cancels...).
        self.notes_label = _selectable(message_label("hint"), "review_notes")
        self.notes_label.setText("\n".join(notes))
        self.notes_label.setVisible(bool(notes))
        # What the flow warns of before signing (a fee rate other than the one asked...).
        self.warnings_label = _selectable(message_label("warning"), "review_warnings")
        self.warnings_label.setText("\n".join(warnings))
        self.warnings_label.setVisible(bool(warnings))
        # The transaction's headline (several: the list says what each does, the box's title
        # which one is shown).
        self.summary_label = _selectable(message_label("title"), "review_summary")
        self.summary_label.setVisible(not bulk)
        self.details_label = _selectable(message_label("hint"), "review_details")
        self.findings_label = _selectable(message_label("hint"), "review_findings")
        self.txid_field = QLineEdit()
        self.txid_field.setObjectName("review_txid")
        self.txid_field.setReadOnly(True)
        self.size_label = _selectable(QLabel(), "review_size")
        self.fee_label = _selectable(message_label("normal"), "review_fee")
        self.time_label = _selectable(message_label("hint"), "review_time")
        self.legend = QLabel(legend_html())
        self.legend.setObjectName("review_legend")
        self.legend.setWordWrap(True)
        # The selected input's or output's whole address, to select and copy.
        self.row_detail = QLineEdit()
        self.row_detail.setObjectName("review_row_detail")
        self.row_detail.setReadOnly(True)
        self.row_detail.setPlaceholderText(strings.REVIEW_ROW_HINT)
        self.status_label = message_label("hint")
        self.status_label.setObjectName("review_status")
        self.status_label.setVisible(False)
        self.export_button = ExportButton()
        self.export_button.said.connect(self._say)

        self.inputs_model = RowsModel(strings.REVIEW_INPUT_HEADERS)
        self.outputs_model = RowsModel(strings.REVIEW_OUTPUT_HEADERS)
        self.inputs_view = ReviewTable(self.inputs_model, "review_inputs", wrapped=2)
        self.outputs_view = ReviewTable(self.outputs_model, "review_outputs", wrapped=1)
        self.inputs_view.clicked.connect(self._input_clicked)
        self.outputs_view.clicked.connect(self._output_clicked)
        self.plans_model = RowsModel(strings.REVIEW_PLANS_HEADERS)
        self.plans_model.set_rows(plan_rows(self.plans))
        # The list of a long bulk shows 3 rows at least (more where there is room, up to
        # all), so the selected one's facts and tables keep theirs at 1000x660.
        self.plans_view = ReviewTable(self.plans_model, "review_plans", rows_shown=PLANS_SHOWN)
        # The item's label takes the spare width, elided in the middle (ids end in "i0").
        self.plans_view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        plans_header = self.plans_view.horizontalHeader()
        plans_header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        plans_header.setStretchLastSection(False)
        self.totals_label = _selectable(message_label("hint"), "review_totals")
        self.totals_label.setText(totals_text(self.plans) if bulk else "")
        self.tx_box = QGroupBox(strings.REVIEW_TRANSACTION)

        self.cancel_button = QPushButton(strings.REVIEW_CANCEL)
        self.cancel_button.clicked.connect(self.reject)
        # No sign button exists when anything is refused: nothing to click, nothing to tab to.
        self.sign_button: QPushButton | None = None
        self.consent_box: QCheckBox | None = None
        buttons = QHBoxLayout()
        buttons.addWidget(self.export_button)
        if self.needs_consent and not self.refused:
            self.consent_box = QCheckBox(consent_label(self.plans))
            self.consent_box.setObjectName("review_fee_consent")
        # The selected row's whole address between the buttons: a line of its own less.
        buttons.addWidget(self.row_detail, 1)
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
            elif warnings:  # something not as the user asked: Enter does not sign it
                make_default(self.cancel_button, self.sign_button, self.export_button)
            else:
                make_default(self.sign_button, self.cancel_button, self.export_button)
        else:
            self.cancel_button.setText(strings.REVIEW_CLOSE)  # nothing to cancel: only to read
            make_default(self.cancel_button)

        self._layout(buttons)
        self._show_verdict()
        self.show_plan(0)
        if bulk:
            self.plans_view.selectRow(0)
            self.plans_view.selectionModel().selectionChanged.connect(self._plan_selected)
        self.setMinimumSize(MIN_SIZE)
        screen = self.screen()
        self.resize(first_size(None if screen is None else screen.availableGeometry()))

    def _layout(self, buttons: QHBoxLayout) -> None:
        """Sparrow's viewer, compacted: the facts in a grid that never scrolls (the txid
        whole, fee and size, when it confirms), then the tables, each as tall as its rows (up
        to ROWS_SHOWN), then what the transaction does in words; for several transactions,
        their list first and the selected one below it."""
        facts = QGridLayout(self.tx_box)
        facts.setContentsMargins(8, 4, 8, 6)
        facts.setHorizontalSpacing(8)
        facts.setVerticalSpacing(3)
        # Two columns of facts, the txid whole across them.
        places = (
            (strings.REVIEW_TXID, self.txid_field, 0, 0, 3),
            (strings.REVIEW_FEE_ROW, self.fee_label, 1, 0, 1),
            (strings.REVIEW_SIZE, self.size_label, 1, 2, 1),
            (strings.REVIEW_WHEN, self.time_label, 2, 0, 3),
        )
        for caption, field, row, column, span in places:
            label = QLabel(caption)
            # Level with the first line of its field (the txid's box is taller than a line).
            level = Qt.AlignmentFlag.AlignVCenter if row == 0 else Qt.AlignmentFlag.AlignTop
            label.setAlignment(Qt.AlignmentFlag.AlignLeft | level)
            facts.addWidget(label, row, column)
            facts.addWidget(field, row, column + 1, 1, span, Qt.AlignmentFlag.AlignTop)
        facts.setColumnStretch(1, 1)
        facts.setColumnStretch(3, 1)
        content = QWidget()
        middle = QVBoxLayout(content)
        middle.setContentsMargins(0, 0, 0, 0)
        middle.setSpacing(4)
        if len(self.plans) > 1:
            intro = strings.REVIEW_PLANS_INTRO.format(count=len(self.plans))
            middle.addWidget(_captioned(intro, self.plans_view), 1)
            # Outside the list's box: a wrapped label's height there would count as the
            # least the box needs, and the list would take what it does not use.
            middle.addWidget(self.totals_label)
        middle.addWidget(self.tx_box)
        # Room to spare goes to the tables with rows to show (each stops at all its rows).
        middle.addWidget(_captioned(strings.REVIEW_INPUTS, self.inputs_view), 1)
        middle.addWidget(_captioned(strings.REVIEW_OUTPUTS, self.outputs_view), 1)
        # What the transaction does in words (its tables say it in figures, its ids whole)
        # after the tables, so they show at the first size.
        middle.addWidget(self.details_label)
        middle.addWidget(self.findings_label)
        middle.addStretch(0)  # what the tables leave
        self.body = _body(content)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.setSpacing(4)
        layout.addWidget(self.verdict_label)
        layout.addWidget(self.headline_label)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.warnings_label)
        layout.addWidget(self.notes_label)
        layout.addWidget(self.body, 1)
        # The colours' legend stays in sight below whatever the body scrolls (an address that
        # wraps to two lines had pushed it out of a bulk review at 1000x660).
        layout.addWidget(self.legend)
        layout.addWidget(self.status_label)
        if self.consent_box is not None:
            layout.addWidget(self.consent_box, 0, Qt.AlignmentFlag.AlignRight)
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
        """Draw plan `row`: what it does, its facts, its inputs and outputs."""
        plan = self.plans[row]
        review: Review = plan.review
        flow = plan.verdict.flow
        if len(self.plans) > 1:
            label = plan.label or review.txid
            self.tx_box.setTitle(
                strings.REVIEW_TRANSACTION_OF.format(
                    number=row + 1, count=len(self.plans), label=label
                )
            )
        lines = review.summary.lines()
        # Ids shortened: a whole inscription id made a four-line headline (whole in the
        # lines after the tables, and in the tooltip).
        said = headline(review, flow)
        self.summary_label.setText(short_ids(said))
        self.summary_label.setToolTip(said if said != self.summary_label.text() else "")
        self.txid_field.setText(review.txid)
        self.txid_field.setCursorPosition(0)
        self.txid_field.setToolTip(
            strings.REVIEW_NETWORK.format(network=review.network, txid=review.txid)
        )
        self.size_label.setText(size_text(review))
        self.fee_label.setText(fee_text(review, plan.verdict))
        self.time_label.setText(
            " · ".join(time_lines(review))
        )  # one line: the tables need the room
        self.input_parties = input_parties(review, flow)
        self.output_parties = output_parties(review, flow)
        # The summary's own lines, less its headline and fee (drawn with its rate).
        landed = landing_lines(review, self.output_parties)
        self.details_label.setText("\n".join([*lines[1:-1], *landed]))
        self.inputs_model.set_rows(input_rows(review, self.input_parties))
        self.outputs_model.set_rows(output_rows(review, self.output_parties))
        self.row_detail.clear()
        findings = findings_text(review, plan.verdict)
        set_message(self.findings_label, findings, "hint")
        name = (plan.label or f"transaction-{review.txid[:12]}")[:60]
        self.export_button.set_psbt(psbt_text(plan), _file_name(name))

    def _say(self, text: str, role: str) -> None:
        set_message(self.status_label, text, role)

    def _input_clicked(self, index: QModelIndex) -> None:
        self._row_chosen("inputs", index.row())

    def _output_clicked(self, index: QModelIndex) -> None:
        self._row_chosen("outputs", index.row())

    def _row_chosen(self, which: str, row: int) -> None:
        """The selected input's or output's whole address (and more) in one selectable line."""
        model = self.inputs_model if which == "inputs" else self.outputs_model
        cells = [model.cell(row, c).text for c in range(model.columnCount())]
        if which == "inputs":
            coin = model.cell(row, 1).tooltip or cells[1]
            text = strings.REVIEW_ROW_INPUT.format(
                index=cells[0], address=cells[2], amount=cells[3], owner=cells[4], coin=coin
            )
        else:
            text = strings.REVIEW_ROW_OUTPUT.format(
                index=cells[0], address=cells[1], amount=cells[2], owner=cells[3]
            )
        self.row_detail.setText(text)
        self.row_detail.setCursorPosition(0)

    @classmethod
    async def ask(
        cls,
        parent: QWidget | None,
        plans: Sequence[ReviewedPsbt],
        *,
        title: str,
        action: str,
        notes: Sequence[str] = (),
        warnings: Sequence[str] = (),
        context: AppContext | None = None,
        signed_here: bool = True,
    ) -> bool:
        """Show the review window-modal (no nested loop); True when the user pressed `action`.

        Pass `context` so the dialog is announced on `context.dialog_opened` (tests drive it)."""
        dialog = cls(
            plans,
            title=title,
            action=action,
            notes=notes,
            warnings=warnings,
            signed_here=signed_here,
            parent=parent,
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
