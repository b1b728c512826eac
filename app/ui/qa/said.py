"""What a widget says from a moment on: the message a flow ends with, told apart from one that
was already shown (a second withdrawal's result replaces the first one's line; a bid placed
again says "Placed: ..." again) because the line changed or showed something else meanwhile
("Signing…", "Placing…")."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QLabel, QWidget

Said = tuple[int, str, str]  # a label (its id), its role, its text


class MessageWatch:
    """Started before the user acts; `new(roles)` is then the first message in `roles` shown
    since (None while there is none). `labels`: only these (default: every message label of
    `widget`). Call `new` as often as the wait polls: each call notes what changed."""

    def __init__(self, widget: QWidget, labels: Sequence[QLabel] | None = None) -> None:
        self.widget = widget
        self.labels = labels
        self.before = self._now()
        self._changed: set[int] = set()  # labels that showed something else since the start

    def _now(self) -> set[Said]:
        labels = self.labels if self.labels is not None else self.widget.findChildren(QLabel)
        return {
            (id(label), str(label.property("role")), label.text())
            for label in labels
            if label.property("role") and label.isVisibleTo(self.widget) and label.text()
        }

    def new(self, roles: Sequence[str] = ("ok", "error"), text: str | None = None) -> str | None:
        """The first message in `roles` that is new since the start (or, given `text`, that
        very text, new or not)."""
        now = self._now()
        for said in now:
            label, role, words = said
            fresh = said not in self.before or label in self._changed
            if words == text or (text is None and role in roles and fresh):
                return words
        shown = {label for label, _role, _words in now}
        self._changed.update(label for label, _role, _words in self.before if label not in shown)
        self._changed.update(label for label, _role, _words in now - self.before)
        return None
