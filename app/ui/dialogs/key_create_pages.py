"""Create a new wallet: the recovery phrase shown once, then confirmed by re-typing words."""

from __future__ import annotations

import secrets

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QFormLayout, QGridLayout, QLineEdit, QVBoxLayout, QWidget

from app.ui import strings
from app.ui.dialogs.setup_page import SetupPage
from app.ui.widgets import message_label, set_message

CONFIRM_WORDS = 3


class CreatePage(SetupPage):
    """Shows the words; complete once the user ticks "I have written them down"."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.words: list[str] = []
        self.intro = message_label("hint")
        self.grid = QGridLayout()
        self.wrote_them = QCheckBox(strings.CREATE_WROTE_THEM)
        self.wrote_them.toggled.connect(self.changed)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addLayout(self.grid)
        layout.addWidget(self.wrote_them)
        layout.addStretch(1)

    def show_words(self, mnemonic: str) -> None:
        self.words = mnemonic.split()
        self.intro.setText(strings.CREATE_INTRO.format(count=len(self.words)))
        columns = 3
        rows = (len(self.words) + columns - 1) // columns
        for index, word in enumerate(self.words):
            label = message_label("mnemonic")
            label.setText(f"{index + 1:>2}. {word}")
            label.setObjectName(f"word{index + 1}")
            self.grid.addWidget(label, index % rows, index // rows)
        self.changed.emit()

    def is_complete(self) -> bool:
        return bool(self.words) and self.wrote_them.isChecked()

    def forget(self) -> None:
        """Drop the words from the widgets once the dialog is done (shown only once)."""
        self.words = []
        while self.grid.count():
            item = self.grid.takeAt(0)
            widget = None if item is None else item.widget()
            if widget is not None:
                widget.deleteLater()


class ConfirmPage(SetupPage):
    """Asks for a few randomly chosen words of the phrase."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.positions: list[int] = []  # 1-based word numbers asked for
        self.edits: list[QLineEdit] = []
        self.form = QFormLayout()
        self.error = message_label("error")
        self.error.hide()
        intro = message_label("hint")
        intro.setText(strings.CONFIRM_INTRO)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(self.form)
        layout.addWidget(self.error)
        layout.addStretch(1)

    def ask(self, word_count: int) -> None:
        while self.form.rowCount():
            self.form.removeRow(0)
        rng = secrets.SystemRandom()
        self.positions = sorted(rng.sample(range(1, word_count + 1), CONFIRM_WORDS))
        self.edits = []
        for number in self.positions:
            edit = QLineEdit()
            edit.textChanged.connect(self.changed)
            self.form.addRow(strings.CONFIRM_WORD_LABEL.format(number=number), edit)
            self.edits.append(edit)
        set_message(self.error, "")
        if self.edits:
            self.edits[0].setFocus()

    def is_complete(self) -> bool:
        return all(edit.text().strip() for edit in self.edits)

    def check(self, words: list[str]) -> bool:
        for number, edit in zip(self.positions, self.edits, strict=True):
            if edit.text().strip().lower() != words[number - 1]:
                set_message(self.error, strings.CONFIRM_MISMATCH.format(number=number))
                edit.setFocus()
                edit.selectAll()
                return False
        return True
