"""What every page of the key setup dialog is: a widget that says whether Next may go on."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget


class SetupPage(QWidget):
    def is_complete(self) -> bool:
        """Whether the page holds what Next needs (a page asking nothing is always complete)."""
        return True
