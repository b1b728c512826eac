"""The questions before stopping strategies (stopping revokes the approval: cancel the bids,
or keep them until they expire) and before deleting one."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPushButton, QVBoxLayout, QWidget

from app.ui import strings
from app.ui.widgets import make_default, refusing_buttons

# done() codes beyond Accepted (1): the user's choice
STOP_CANCEL_BIDS = 2
STOP_KEEP_BIDS = 3


class StopStrategyDialog(QDialog):
    """`choice` after it closes: True (cancel the bids), False (keep them), None (don't stop).
    `count`: the strategies to stop when stopping all of them; None for the selected one.
    `open_bids`: the bids open now and until when the last is (count 0: none), when known."""

    def __init__(
        self,
        strategy: str,
        count: int | None = None,
        parent: QWidget | None = None,
        open_bids: tuple[int, str] | None = None,
    ):
        super().__init__(parent)
        self.choice: bool | None = None
        every = count is not None
        self.setWindowTitle(strings.STOP_ALL_TITLE if every else strings.STOP_TITLE)
        if count is not None:
            text = strings.counted(strings.STOP_ALL_TEXT, count)
        else:
            text = strings.STOP_TEXT.format(strategy=strategy)
        if open_bids is not None and open_bids[0]:
            bids, until = open_bids
            said = strings.STOP_ALL_OPEN_BIDS if every else strings.STOP_OPEN_BIDS
            text += "\n\n" + strings.counted(said, bids, until=until)
        label = QLabel(text)
        label.setWordWrap(True)
        self.cancel_bids_button = QPushButton(
            strings.STOP_AND_CANCEL_ALL if every else strings.STOP_AND_CANCEL
        )
        self.keep_bids_button = QPushButton(
            strings.STOP_KEEP_BIDS_ALL if every else strings.STOP_KEEP_BIDS
        )
        self.dont_button = QPushButton(strings.STOP_CANCEL)
        buttons = QDialogButtonBox()
        buttons.addButton(self.cancel_bids_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.keep_bids_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.dont_button, QDialogButtonBox.ButtonRole.RejectRole)
        self.cancel_bids_button.clicked.connect(lambda: self._chose(True))
        self.keep_bids_button.clicked.connect(lambda: self._chose(False))
        buttons.rejected.connect(self.reject)
        # Enter keeps the strategy running: stopping takes a deliberate click.
        make_default(self.dont_button, self.cancel_bids_button, self.keep_bids_button)
        layout = QVBoxLayout(self)
        layout.addWidget(label)
        layout.addWidget(buttons)
        self.setMinimumWidth(560)

    def _chose(self, cancel_bids: bool) -> None:
        self.choice = cancel_bids
        self.accept()


class DeleteStrategyDialog(QDialog):
    """`open_bids` as for `StopStrategyDialog`."""

    def __init__(
        self,
        strategy: str,
        parent: QWidget | None = None,
        open_bids: tuple[int, str] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(strings.DELETE_TITLE)
        text = strings.DELETE_TEXT.format(strategy=strategy)
        if open_bids is not None and open_bids[0]:
            bids, until = open_bids
            text = strings.counted(strings.DELETE_TEXT_BIDS, bids, strategy=strategy, until=until)
        elif open_bids is not None:
            text = strings.DELETE_TEXT_NO_BIDS.format(strategy=strategy)
        label = QLabel(text)
        label.setWordWrap(True)
        self.yes_button = QPushButton(strings.DELETE_YES)
        self.no_button = QPushButton(strings.DELETE_NO)
        buttons = refusing_buttons(self, self.yes_button, self.no_button)
        layout = QVBoxLayout(self)
        layout.addWidget(label)
        layout.addWidget(buttons)
        self.setMinimumWidth(460)
