"""The review dialog's tables: read-only rows of `Cell`s, one line each, an address column
wrapped anywhere (whole, never cut), sized from their first rows; each table as tall as its
rows (at least up to `rows_shown`, more where there is room, then it scrolls), so a table of
one row takes one row's height."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt, QTimer
from PySide6.QtGui import QPainter, QPalette, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHeaderView,
    QSizePolicy,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
)

from app.ui.models.review_model import SIZE_FROM_ROWS, RowsModel

_Index = QModelIndex | QPersistentModelIndex
ROWS_SHOWN = 5  # rows a table shows before it scrolls (Sparrow's viewer shows about as many)


class SelectedRowText(QStyledItemDelegate):
    """On a selected row every cell is drawn in the highlighted-text colour: an owner's colour
    or the green "OK to sign" on the selection highlight did not read (theme.py keeps the
    highlight and its text ≥ 4.5:1)."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: _Index) -> None:
        super().initStyleOption(option, index)
        if option.state & QStyle.StateFlag.State_Selected:
            text = option.palette.color(QPalette.ColorRole.HighlightedText)
            option.palette.setColor(QPalette.ColorRole.Text, text)


class WrapAnywhere(SelectedRowText):
    """Draws a cell's text wrapped anywhere (an address has no spaces for Qt's word wrap),
    its row as tall as the lines need."""

    _MARGIN = 4

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        text, opt.text = opt.text, ""
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        painter.save()
        painter.setPen(opt.palette.color(role))
        area = opt.rect.adjusted(self._MARGIN, 0, -self._MARGIN, 0)
        flags = Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextWrapAnywhere
        painter.drawText(area, int(flags), text)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: _Index) -> QSize:
        view = self.parent()
        width = view.columnWidth(index.column()) if isinstance(view, QTableView) else 200
        text = str(index.data() or "")
        bounds = QRect(0, 0, max(20, width - 2 * self._MARGIN), 10_000)
        lines = option.fontMetrics.boundingRect(bounds, int(Qt.TextFlag.TextWrapAnywhere), text)
        return QSize(width, lines.height() + 8)


class ReviewTable(QTableView):
    """A read-only table; column `wrapped` (an address) takes the spare width and wraps
    anywhere, whole, its rows as tall as it needs."""

    def __init__(
        self,
        model: RowsModel,
        name: str,
        wrapped: int | None = None,
        rows_shown: int = ROWS_SHOWN,
    ) -> None:
        super().__init__()
        self.rows_shown = rows_shown
        self.setObjectName(name)
        model.setParent(self)  # the model goes with its view
        self.setModel(model)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setAlternatingRowColors(True)
        self.setItemDelegate(SelectedRowText(self))
        rows = self.verticalHeader()
        rows.setVisible(False)
        # One line of text and a little air: the rows Sparrow shows, not Qt's roomier default.
        rows.setDefaultSectionSize(self.fontMetrics().height() + 8)
        rows.setMinimumSectionSize(self.fontMetrics().height() + 6)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # Size columns from the first rows only: measuring all 100 rows of a bulk review would
        # keep the GUI thread busy for ~100 ms.
        header.setResizeContentsPrecision(SIZE_FROM_ROWS)
        header.setStretchLastSection(wrapped is None)
        self.setWordWrap(wrapped is not None)
        if wrapped is not None:
            header.setSectionResizeMode(wrapped, QHeaderView.ResizeMode.Stretch)
            self.setItemDelegateForColumn(wrapped, WrapAnywhere(self))
            self.setTextElideMode(Qt.TextElideMode.ElideNone)
            header.sectionResized.connect(self._fit_rows)
        model.modelReset.connect(self._fit_rows)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self._fitting = False
        self._fit_now()

    def _fit_rows(self, *_: object) -> None:
        """Once the header has settled (a resize moves it after this event): rows as tall as
        their wrapped addresses, the table as tall as its rows."""
        if not self._fitting:
            self._fitting = True
            QTimer.singleShot(0, self, self._fit_now)

    def _fit_now(self) -> None:
        self._fitting = False
        if self.wordWrap():
            self.resizeRowsToContents()
        self._fit_height()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_rows()  # a narrower address column wraps into taller rows

    def _fit_height(self) -> None:
        """At least the height of the first `rows_shown` rows as they are drawn (all of them when
        fewer), at most that of every row: the layout gives spare room to a table that
        scrolls, never blank rows to one that does not."""
        count = self.model().rowCount()
        rows = self.verticalHeader()
        shown = sum(rows.sectionSize(r) for r in range(min(count, self.rows_shown)))
        every = shown + sum(rows.sectionSize(r) for r in range(self.rows_shown, count))
        if count == 0:
            shown = every = rows.defaultSectionSize()
        chrome = self.horizontalHeader().sizeHint().height() + 2 * self.frameWidth()
        if self.horizontalHeader().length() > self.viewport().width() > 0:
            chrome += self.horizontalScrollBar().sizeHint().height()
        self.setMinimumHeight(chrome + shown)
        self.setMaximumHeight(chrome + every)

    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), self.minimumHeight())


def visible_rows(view: QTableView) -> int:
    """How many of `view`'s rows its viewport shows whole, from the top."""
    rows = view.verticalHeader()
    room, shown = view.viewport().height(), 0
    for row in range(view.model().rowCount()):
        room -= rows.sectionSize(row)
        if room < 0:
            break
        shown += 1
    return shown
