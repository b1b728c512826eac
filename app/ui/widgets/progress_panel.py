"""A progress bar with a Cancel button for long work (reviewing or signing many PSBTs).

    panel.begin("Signing…", total=len(plans))
    await sign_plans(ctx, plans, progress=panel.progress, cancel=panel.token)
    panel.end()

Cancel is cooperative: it sets the services' CancelToken, which they check between items,
so an item being signed finishes and nothing half-done is sent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from app.ui import strings

if TYPE_CHECKING:
    from app.services.context import CancelToken


class ProgressPanel(QWidget):
    cancel_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel()
        self.bar = QProgressBar()
        self.bar.setTextVisible(True)
        self.bar.setFormat(strings.PROGRESS_FORMAT)
        self.cancel_button = QPushButton(strings.PROGRESS_CANCEL)
        self.cancel_button.clicked.connect(self.cancel)
        self.token: CancelToken | None = None
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)
        layout.addWidget(self.bar, 1)
        layout.addWidget(self.cancel_button)
        self.setVisible(False)

    def begin(self, text: str, total: int) -> CancelToken:
        """Show the panel for `total` items; returns the fresh token to hand to the services."""
        from app.services.context import CancelToken  # loaded after startup's preload

        self.token = token = CancelToken()
        self.label.setText(text)
        self.bar.setRange(0, max(1, total))
        self.bar.setValue(0)
        self.cancel_button.setEnabled(True)
        self.setVisible(True)
        return token

    def progress(self, done: int, total: int) -> None:
        """The services' progress callback: (items done, items in all)."""
        self.bar.setRange(0, max(1, total))
        self.bar.setValue(done)

    def cancel(self) -> None:
        if self.token is not None:
            self.token.cancel()
        self.cancel_button.setEnabled(False)
        self.label.setText(strings.PROGRESS_CANCELLING)
        self.cancel_requested.emit()

    def end(self) -> None:
        self.setVisible(False)
