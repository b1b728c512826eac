"""The review dialog's tables on a selected row, in both themes: every cell (an owner's colour,
the green "OK to sign", an inscription's accent) is drawn in a colour that reads on the
selection highlight, ≥ 4.5:1 (WCAG AA), computed from the colours the delegate chooses; and
the default button's text on its colour."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QItemSelectionModel
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionViewItem
from pytestqt.qtbot import QtBot

from app.services.profiles import Theme
from app.ui.dialogs.psbt_review_table import ReviewTable, SelectedRowText
from app.ui.models.review_model import ROLE_COLORS, Cell, RowsModel, role_color
from app.ui.theme import COLORS, apply_theme, stylesheet
from tests.ui.test_pool_chart import _contrast

AA = 4.5
THEME_COLOURS = ("ok", "warning", "error", "accent", "muted", "link")


@pytest.mark.parametrize("theme", [Theme.LIGHT, Theme.DARK])
def test_a_selected_row_reads_on_the_highlight(
    qtbot: QtBot, qapp: QApplication, theme: Theme
) -> None:
    apply_theme(qapp, theme)
    cells = [Cell(role, role_color(role)) for role in ROLE_COLORS]
    cells += [Cell(name, name) for name in THEME_COLOURS]  # "OK to sign" is "ok"
    cells.append(Cell("bcrt1qaddress" * 4))  # the wrapped address column, no colour
    model = RowsModel([str(i) for i in range(len(cells))])
    model.set_rows([cells, cells])
    view = ReviewTable(model, "outputs", wrapped=len(cells) - 1)
    qtbot.addWidget(view)
    view.resize(1000, 300)
    view.show()
    view.selectionModel().select(
        model.index(0, 0),
        QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
    )
    highlight = view.palette().color(QPalette.ColorRole.Highlight).name()
    for column, cell in enumerate(cells):
        index = model.index(0, column)
        option = QStyleOptionViewItem()
        option.initFrom(view)
        option.state |= QStyle.StateFlag.State_Selected
        delegate = view.itemDelegateForIndex(index)
        assert isinstance(delegate, SelectedRowText)
        delegate.initStyleOption(option, index)
        for role in (QPalette.ColorRole.Text, QPalette.ColorRole.HighlightedText):
            text = option.palette.color(role).name()
            assert _contrast(text, highlight) >= AA, (theme, cell.text, role, text, highlight)


@pytest.mark.parametrize("name", ["light", "dark"])
def test_the_default_buttons_text_reads_on_it(name: str) -> None:
    """The default button (Sign, Place bid…) is the one pressed most: its white-on-orange was
    3.65:1 in the light theme; its colours, as the stylesheet gives them, read ≥ 4.5:1."""
    sheet = stylesheet(COLORS[name], name)
    block = re.search(r"QPushButton:default \{([^}]*)\}", sheet)
    assert block is not None
    background = re.search(r"background: (#[0-9a-f]{6});", block.group(1))
    text = re.search(r"\bcolor: (#[0-9a-f]{6});", block.group(1))
    assert background is not None and text is not None
    assert _contrast(text.group(1), background.group(1)) >= AA
