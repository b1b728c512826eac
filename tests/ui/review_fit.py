"""Whether the review dialog shows what matters without scrolling: the facts whole inside the
body's viewport, each table's rows (up to ROWS_SHOWN; a bulk's list up to PLANS_SHOWN), the
legend and the buttons. Used by the pytest-qt tests (offscreen) and the 1024x700 screenshots
(Xvfb, the fonts a user has)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QScrollArea, QTableView, QWidget

from app.ui.dialogs.psbt_review_dialog import PLANS_SHOWN, PsbtReviewDialog
from app.ui.dialogs.psbt_review_table import ROWS_SHOWN, visible_rows


def fully_shown(widget: QWidget, area: QScrollArea) -> bool:
    """`widget` is drawn whole inside `area`'s viewport (not clipped, nothing to scroll to)."""
    viewport = area.viewport()
    top_left = widget.mapTo(viewport, QPoint(0, 0))
    return widget.isVisible() and viewport.rect().contains(QRect(top_left, widget.size()))


def shows_its_rows(view: QTableView, least: int = ROWS_SHOWN) -> bool:
    """`view` shows every row up to `least` whole, and no more blank room than a row when it
    has no more rows to show."""
    count = view.model().rowCount()
    if visible_rows(view) < min(count, least):
        return False
    rows = view.verticalHeader()
    drawn = sum(rows.sectionSize(r) for r in range(count))
    return count > least or view.viewport().height() <= drawn + rows.defaultSectionSize()


def not_in_sight(dialog: PsbtReviewDialog) -> list[str]:
    """The names of what the dialog should show without scrolling and does not."""
    facts = [dialog.txid_field, dialog.fee_label, dialog.size_label, dialog.time_label]
    tables = [dialog.inputs_view, dialog.outputs_view]
    shown = [*facts, *tables]
    missing = [w.objectName() for w in shown if not fully_shown(w, dialog.body)]
    # The legend sits below the body, outside what it scrolls: whole within the dialog.
    legend = dialog.legend
    if not (legend.isVisible() and dialog.rect().contains(legend.geometry())):
        missing.append(legend.objectName())
    missing += [t.objectName() + " rows" for t in tables if not shows_its_rows(t)]
    if len(dialog.plans) > 1:
        plans = dialog.plans_view
        if not fully_shown(plans, dialog.body):
            missing.append(plans.objectName())
        if visible_rows(plans) < min(len(dialog.plans), PLANS_SHOWN):
            missing.append(plans.objectName() + " rows")
    field = dialog.txid_field
    if field.fontMetrics().horizontalAdvance(field.text()) >= field.width() - 8:
        missing.append("the whole txid")
    for button in (dialog.sign_button, dialog.cancel_button):
        if button is not None and not dialog.rect().contains(button.geometry()):
            missing.append(button.objectName() or button.text())
    return missing
