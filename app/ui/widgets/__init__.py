"""Small widget helpers shared by dialogs and tabs."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QPushButton, QWidget


def message_label(role: str = "hint", parent: QWidget | None = None) -> QLabel:
    """A wrapping label styled by its role ("error", "ok", "hint", "badge", "title")."""
    label = QLabel(parent)
    label.setWordWrap(True)
    label.setProperty("role", role)
    return label


def set_message(label: QLabel, text: str, role: str = "error") -> None:
    """Show `text` in `label` with `role` styling (re-polished so the QSS applies)."""
    label.setProperty("role", role)
    label.setText(text)
    label.setVisible(bool(text))
    style = label.style()
    style.unpolish(label)
    style.polish(label)


def mark_invalid(widget: QWidget, invalid: bool) -> None:
    """Draw `widget`'s border in the error colour while its value is refused (QSS
    `[invalid="true"]`)."""
    if bool(widget.property("invalid")) == invalid:
        return
    widget.setProperty("invalid", invalid)
    style = widget.style()
    style.unpolish(widget)
    style.polish(widget)


def make_default(button: QPushButton, *others: QPushButton) -> None:
    """`button` answers Enter wherever the focus is in its dialog. The others lose auto-default:
    with it, a button that once had the focus (or was disabled and re-enabled) would take the
    default over, and Enter after an error could mean Cancel."""
    for other in others:
        other.setAutoDefault(False)
    button.setAutoDefault(False)
    button.setDefault(True)
