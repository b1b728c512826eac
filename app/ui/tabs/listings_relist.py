"""The question before listing items that are listed already (by the service's word, or carrying
a live listing signature of ours whatever the service says): which ones and at what price,
what a new listing does (the service replaces the current one), and what it does not (the old
signature stays valid until the item moves; End listing moves it). Enter keeps them as they
are: relisting takes a deliberate click."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QLabel,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.ui import strings
from app.ui.tabs.listings_items import ListingMark, item_name, price_text
from app.ui.widgets import refusing_buttons

if TYPE_CHECKING:
    from app.services.listings_inventory import HeldItem


class RelistDialog(QDialog):
    def __init__(
        self, listed: Sequence[tuple[HeldItem, ListingMark]], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(strings.RELIST_TITLE)
        count = len(listed)
        if count == 1:
            ((item, mark),) = listed
            name = item_name(item)
            one = strings.RELIST_ONE if mark.listing is not None else strings.RELIST_ONE_SIGNED
            head = one.format(item=name[:1].upper() + name[1:], price=price_text(mark.relist_price))
        else:
            head = strings.counted(strings.RELIST_MANY, count)
        self.head = QLabel(head)
        self.head.setTextFormat(Qt.TextFormat.PlainText)  # names what ord says the item is
        self.head.setWordWrap(True)
        self.list = QListWidget()
        self.list.addItems(
            [
                (
                    strings.RELIST_LINE if m.listing is not None else strings.RELIST_LINE_SIGNED
                ).format(item=item_name(i), price=price_text(m.relist_price))
                for i, m in listed
            ]
        )
        self.list.setVisible(count > 1)
        # Only our signatures, none listed by the service: nothing of the service's to replace.
        signed_only = all(m.listing is None for _, m in listed)
        self.explain = QLabel(
            strings.RELIST_EXPLAIN_SIGNED if signed_only else strings.RELIST_EXPLAIN
        )
        self.explain.setWordWrap(True)
        self.explain.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.yes_button = QPushButton(strings.counted(strings.RELIST_YES, count))
        self.no_button = QPushButton(strings.RELIST_NO)
        buttons = refusing_buttons(self, self.yes_button, self.no_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.head)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.explain, 0 if count > 1 else 1)
        layout.addWidget(buttons)
        self.resize(560, 300 if count > 1 else self.sizeHint().height())
