"""The Bid form's message lines: under each field, the rule it breaks, else its hint. One line
of height is kept even when both are empty, so the fields below never move while the user
types (the issue's "error text moves the fields under the cursor")."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from app.ui.widgets import message_label, set_message


class MessageLine(QWidget):
    """A field's line under it: the rule it breaks, else its hint. With `reserve`, one line of
    height is kept even when both are empty (an empty line of the same style stands in), so
    the fields below never move while the user types."""

    def __init__(
        self,
        hint: QLabel | None = None,
        *,
        reserve: bool = True,
        lines: int = 1,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.hint = hint
        self.error = message_label("error")
        self.error.setVisible(False)
        self.blank = message_label("hint")
        # `lines` lines tall in the messages' own font and style: a shorter message keeps
        # that height too (a field whose notes run to two lines reserves two).
        self.blank.setText("\n".join(" " * lines))
        self.blank.setVisible(reserve)
        self._reserve = reserve
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        if hint is not None:
            layout.addWidget(hint)
        layout.addWidget(self.error)
        layout.addWidget(self.blank)

    def set_error(self, text: str) -> None:
        set_message(self.error, text, "error")
        self._show_one()

    def set_hint(self, text: str, level: str = "hint") -> None:
        if self.hint is not None:
            set_message(self.hint, text, level)
            self._show_one()

    def hint_shown(self) -> tuple[str, str]:
        """The hint's text and level ("" when there is no hint line)."""
        if self.hint is None:
            return "", "hint"
        return self.hint.text(), str(self.hint.property("role") or "hint")

    def _show_one(self) -> None:
        hint_shown = self.hint is not None and bool(self.hint.text()) and not self.error.text()
        if self.hint is not None:
            self.hint.setVisible(hint_shown)
        self.blank.setVisible(self._reserve and not hint_shown and not self.error.text())
        if self._reserve:
            self.setMinimumHeight(self.blank.sizeHint().height())


def with_message(widget: QWidget, line: MessageLine) -> QWidget:
    """`widget` with its message line under it."""
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(2)
    layout.addWidget(widget)
    layout.addWidget(line)
    return box
