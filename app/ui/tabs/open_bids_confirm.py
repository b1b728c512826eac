"""The question before cancelling bids: how many, which ones, what happens to the funds, and
which of them a running strategy keeps (it places them again unless stopped)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import (
    QDialog,
    QLabel,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.ui import strings
from app.ui.widgets import refusing_buttons

MAX_LISTED = 200  # lines shown in the list; the count says how many there are in all


class ConfirmCancelDialog(QDialog):
    def __init__(
        self,
        lines: Sequence[str],
        parent: QWidget | None = None,
        kept: int = 0,
        strategies: Sequence[str] = (),
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(strings.OPEN_BIDS_CONFIRM_TITLE)
        count = len(lines)
        text = QLabel(strings.counted(strings.OPEN_BIDS_CONFIRM_TEXT, count))
        text.setWordWrap(True)
        # `kept` of the bids are a strategy's: cancelled by hand, it places them again.
        self.strategy_note = QLabel(
            strings.counted(
                strings.OPEN_BIDS_CONFIRM_STRATEGY, kept, strategies=", ".join(strategies)
            )
        )
        self.strategy_note.setWordWrap(True)
        self.strategy_note.setVisible(kept > 0)
        self.list = QListWidget()
        self.list.addItems(list(lines[:MAX_LISTED]))
        if count > MAX_LISTED:
            self.list.addItem(f"… (+{count - MAX_LISTED:,})")
        self.yes_button = QPushButton(strings.counted(strings.OPEN_BIDS_CONFIRM_YES, count))
        self.no_button = QPushButton(strings.counted(strings.OPEN_BIDS_CONFIRM_NO, count))
        # Enter keeps the bids: cancelling takes a deliberate click or Alt+C.
        buttons = refusing_buttons(self, self.yes_button, self.no_button)
        layout = QVBoxLayout(self)
        layout.addWidget(text)
        layout.addWidget(self.strategy_note)
        layout.addWidget(self.list, 1)
        layout.addWidget(buttons)
        self.resize(520, 360)
