"""The keyboard mnemonics (Alt+letter) a window offers at one time: a button's, a check box's or
a group box's "&X", a label's "&X" that moves the focus to its buddy, and the menu bar's. Two
visible widgets with the same letter make Alt+letter ambiguous: Qt then only cycles the focus
between them, and neither is pressed. A disabled widget counts: it is enabled where it stands."""

from __future__ import annotations

from collections import defaultdict

from PySide6.QtWidgets import QAbstractButton, QGroupBox, QLabel, QMenuBar, QWidget


def mnemonic(text: str) -> str | None:
    """The letter after a single "&" ("&&" is a literal ampersand), lower-cased."""
    index = 0
    while (index := text.find("&", index)) != -1 and index + 1 < len(text):
        if text[index + 1] == "&":
            index += 2
            continue
        return text[index + 1].lower()
    return None


def _texts(widget: QWidget) -> list[str]:
    if isinstance(widget, QAbstractButton):
        return [widget.text()]
    if isinstance(widget, QGroupBox) and widget.isCheckable():
        return [widget.title()]
    if isinstance(widget, QLabel) and widget.buddy() is not None:
        return [widget.text()]
    if isinstance(widget, QMenuBar):
        return [action.text() for action in widget.actions() if action.isVisible()]
    return []


def shared_mnemonics(window: QWidget) -> dict[str, list[str]]:
    """Each letter two or more visible widgets of `window` answer to, with their texts."""
    owners: dict[str, list[str]] = defaultdict(list)
    for widget in [window, *window.findChildren(QWidget)]:
        if not widget.isVisible() or widget.window() is not window:
            continue
        # A disabled widget takes no mnemonic now, but gets it back when enabled in place
        # (Place bid once the form is complete): it counts.
        for text in _texts(widget):
            letter = mnemonic(text)
            if letter is not None:
                owners[letter].append(text)
    return {letter: texts for letter, texts in owners.items() if len(texts) > 1}
