"""One line of a message that keeps its height whatever it says: cut at its end with "…" when
the room is short, whole in its tooltip. Its text never sets the window's width, and its line
stays when empty, so nothing around it moves as a message comes and goes."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from app.ui.widgets import message_label, plain_tooltip, set_message


class ElidedLine(QWidget):
    """`say(text, role)` shows `text` styled by `role` ("error", "hint", ...); "" empties
    the line, which keeps its height. `text()` is what was said, whole."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label: QLabel = message_label("hint", self)
        self.label.setWordWrap(False)
        self._full = ""
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)

    def text(self) -> str:
        return self._full

    def say(self, text: str, role: str = "hint") -> None:
        self._full = text
        set_message(self.label, text, role)
        self.label.setToolTip(plain_tooltip(text) if text else "")
        self._fit()

    def sizeHint(self) -> QSize:
        # One line in the label's font as styled (the style sheet sets it when polished).
        self.label.ensurePolished()
        return QSize(0, self.label.fontMetrics().lineSpacing())

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        self.label.setGeometry(self.rect())
        metrics = self.label.fontMetrics()
        shown = metrics.elidedText(self._full, Qt.TextElideMode.ElideRight, self.width())
        if self.label.text() != shown:
            self.label.setText(shown)
