"""The Listings tab's two tables as views: rows selected whole, columns sized to their content
(measured on the first rows only: a wallet may hold 100+ items), and the held items' check
boxes drawn like the app's QCheckBox in the theme's colours (the base style leaves table ones
faint)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from app.ui.models.review_model import SIZE_FROM_ROWS
from app.ui.theme import ThemeState

if TYPE_CHECKING:
    from app.ui.context import AppContext


def listings_table(name: str, view: QTableView | None = None) -> QTableView:
    """`view` (a new QTableView when None), named `name`, set up as the tab's tables are."""
    view = QTableView() if view is None else view
    view.setObjectName(name)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setAlternatingRowColors(True)
    view.verticalHeader().setVisible(False)
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setResizeContentsPrecision(SIZE_FROM_ROWS)  # not every one of 100+ rows
    header.setStretchLastSection(True)
    return view


class HeldItemsView(QTableView):
    """The held items' table, its check boxes restyled whenever the theme changes."""

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        listings_table("listings_held", self)
        self._style_indicators()
        context.theme_changed.connect(self._style_indicators)  # bound: dropped with the view

    def _style_indicators(self, *_: object) -> None:
        c = ThemeState.colors
        self.setStyleSheet(
            f"QTableView::indicator {{ width: 13px; height: 13px; border-radius: 3px;"
            f" border: 1px solid {c['muted']}; background: {c['input']}; }}"
            f" QTableView::indicator:checked {{ background: {c['accent']};"
            f" border-color: {c['accent']}; }}"
        )
