"""The Listings tab's two tables as views: rows selected whole, columns sized to their content
(measured on the first rows only: a wallet may hold 100+ items), and the held items' check
boxes drawn like the app's QCheckBox in the theme's colours (the base style leaves table ones
faint). A price being typed in a held item's cell survives a refresh (`HeldItemsView`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLineEdit, QTableView, QWidget

from app.ui.models.listings_model import PRICE, HeldItemsModel
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


@dataclass(frozen=True)
class PriceTyping:
    """A price cell's editor as the user left it: the item (by key), the text, the cursor."""

    key: str
    text: str
    cursor: int
    selection_start: int  # -1: nothing selected
    selection_length: int


class HeldItemsView(QTableView):
    """The held items' table, its check boxes restyled whenever the theme changes.

    A refresh (a live sale, lock/unlock, the reading after an action) resets the model, and
    a reset closes an open editor without saving it: the price being typed was lost. The
    editor is noted before the reset, by its item's key (the rows may move), and opened again
    on that item after it with the text and cursor as they were; nothing is committed before
    the user presses Enter. An item gone after the refresh takes what was typed with it."""

    def __init__(
        self, model: HeldItemsModel, context: AppContext, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        listings_table("listings_held", self)
        self.setModel(model)
        self._model = model
        self._typing: PriceTyping | None = None
        # Connected after setModel's own: the view's reset (closing the editor) runs first.
        model.modelAboutToBeReset.connect(self._note_typing)
        model.modelReset.connect(self._resume_typing)
        self._style_indicators()
        context.theme_changed.connect(self._style_indicators)  # bound: dropped with the view

    def typing(self) -> PriceTyping | None:
        """The price cell being edited now, as the user left it (None when none is)."""
        if self.state() != QAbstractItemView.State.EditingState:
            return None
        for row, item in enumerate(self._model.items):
            editor = self.indexWidget(self._model.index(row, PRICE))
            if isinstance(editor, QLineEdit):
                start = editor.selectionStart()
                return PriceTyping(
                    item.key, editor.text(), editor.cursorPosition(), start,
                    editor.selectionLength(),
                )  # fmt: skip
        return None

    def _note_typing(self) -> None:
        self._typing = self.typing()

    def _resume_typing(self) -> None:
        typing, self._typing = self._typing, None
        if typing is None:
            return
        row = next((r for r, i in enumerate(self._model.items) if i.key == typing.key), None)
        if row is None:  # the item is gone: what was typed goes with it, written nowhere
            return
        index = self._model.index(row, PRICE)
        self.setCurrentIndex(index)
        self.edit(index)
        editor = self.indexWidget(index)
        if not isinstance(editor, QLineEdit):
            return
        editor.setText(typing.text)
        if typing.selection_start >= 0:
            editor.setSelection(typing.selection_start, typing.selection_length)
        else:
            editor.setCursorPosition(typing.cursor)

    def _style_indicators(self, *_: object) -> None:
        c = ThemeState.colors
        self.setStyleSheet(
            f"QTableView::indicator {{ width: 13px; height: 13px; border-radius: 3px;"
            f" border: 1px solid {c['muted']}; background: {c['input']}; }}"
            f" QTableView::indicator:checked {{ background: {c['accent']};"
            f" border-color: {c['accent']}; }}"
        )
