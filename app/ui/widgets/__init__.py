"""Small widget helpers shared by dialogs and tabs."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt  # its text functions (mightBeRichText)
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPushButton, QWidget


def message_label(role: str = "hint", parent: QWidget | None = None) -> QLabel:
    """A wrapping label styled by its role ("error", "ok", "hint", "badge", "title"); its text
    is plain (a message may quote a service, whose words must not be read as markup)."""
    label = QLabel(parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    label.setProperty("role", role)
    return label


def set_message(label: QLabel, text: str, role: str = "error") -> None:
    """Show `text` in `label` with `role` styling (re-polished so the QSS applies), as plain
    text: a QLabel guesses the format, and a message may quote a service (a slug like
    <img src=...> or an error body) that must show as written."""
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setProperty("role", role)
    label.setText(text)
    label.setVisible(bool(text))
    style = label.style()
    style.unpolish(label)
    style.polish(label)


def plain_tooltip(text: str) -> str:
    """`text` as a tooltip that shows it as written: Qt guesses a tooltip's format, so text
    that looks like markup (a service's words: <img src=...>) is escaped; other text as is."""
    if not GuiQt.mightBeRichText(text):
        return text
    return GuiQt.convertFromPlainText(text, Qt.WhiteSpaceMode.WhiteSpacePre)


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


def refusing_buttons(dialog: QDialog, yes: QPushButton, no: QPushButton) -> QDialogButtonBox:
    """`yes` accepts `dialog`, `no` rejects it and answers Enter: what the dialog asks takes a
    deliberate click (or its mnemonic)."""
    buttons = QDialogButtonBox()
    buttons.addButton(yes, QDialogButtonBox.ButtonRole.AcceptRole)
    buttons.addButton(no, QDialogButtonBox.ButtonRole.RejectRole)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    make_default(no, yes)
    return buttons
