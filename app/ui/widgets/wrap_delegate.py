"""An item delegate that shows a cell's whole text, wrapped at spaces and, where a word is wider
than the cell (a rune name such as "UNCOMMON•GOODS" has no space), within the word: Qt's own
delegate elides such a word ("UNCOMM…"). The view's rows size to it (`ResizeToContents`)."""

from __future__ import annotations

import math

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPointF, QSize, Qt
from PySide6.QtGui import QFont, QPainter, QPalette, QTextLayout, QTextOption
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

H_PADDING = 4  # px each side, as the style's item text margin
V_PADDING = 2


def text_layout(text: str, font: QFont, width: int) -> tuple[QTextLayout, float]:
    """`text` laid out in lines of `width` px, and the lines' height."""
    layout = QTextLayout(text, font)
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    layout.setTextOption(option)
    layout.beginLayout()
    height = 0.0
    while True:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(max(1, width))
        line.setPosition(QPointF(0, height))
        height += line.height()
    layout.endLayout()
    return layout, height


class WrapAnywhereDelegate(QStyledItemDelegate):
    def _text_width(self, option: QStyleOptionViewItem) -> int:
        return option.rect.width() - 2 * H_PADDING

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:
        hint = super().sizeHint(option, index)
        text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        width = self._text_width(option)
        if not text or width <= 0:
            return hint
        _, height = text_layout(text, option.font, width)
        return QSize(hint.width(), max(hint.height(), math.ceil(height) + 2 * V_PADDING))

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        item = QStyleOptionViewItem(option)
        self.initStyleOption(item, index)
        text = item.text
        item.text = ""
        widget = item.widget
        style = widget.style() if widget is not None else None
        if style is not None:  # background, focus: everything but the text
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, item, painter, widget)
        rect = item.rect
        layout, height = text_layout(text, item.font, rect.width() - 2 * H_PADDING)
        top = rect.top() + max(V_PADDING, (rect.height() - height) / 2)
        painter.save()
        painter.setPen(item.palette.color(QPalette.ColorRole.Text))
        painter.setClipRect(rect)
        layout.draw(painter, QPointF(rect.left() + H_PADDING, top))
        painter.restore()
