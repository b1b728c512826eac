"""The first step of key setup: how the profile holds its bitcoin."""

from __future__ import annotations

from enum import StrEnum

from PySide6.QtWidgets import QButtonGroup, QRadioButton, QVBoxLayout, QWidget

from app.ui import strings
from app.ui.dialogs.setup_page import SetupPage
from app.ui.widgets import message_label


class KeyKind(StrEnum):
    CREATE = "create"
    IMPORT = "import"
    WIF = "wif"
    WATCH = "watch"


class ChoosePage(SetupPage):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.radios = {
            KeyKind.CREATE: QRadioButton(strings.KEY_CHOICE_CREATE),
            KeyKind.IMPORT: QRadioButton(strings.KEY_CHOICE_IMPORT),
            KeyKind.WIF: QRadioButton(strings.KEY_CHOICE_WIF),
            KeyKind.WATCH: QRadioButton(strings.KEY_CHOICE_WATCH),
        }
        self.radios[KeyKind.CREATE].setChecked(True)
        group = QButtonGroup(self)
        intro = message_label("title")
        intro.setText(strings.KEY_CHOICE_INTRO)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        for radio in self.radios.values():
            group.addButton(radio)
            layout.addWidget(radio)
        layout.addStretch(1)

    def kind(self) -> KeyKind:
        return next(kind for kind, radio in self.radios.items() if radio.isChecked())
