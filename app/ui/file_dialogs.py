"""Choosing files and folders without blocking the loop: a `QFileDialog` shown as an awaited
dialog (`exec_dialog`), deleted afterwards; None when the user cancels."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QWidget

from app.ui.async_tools import exec_dialog


async def chosen_path(dialog: QFileDialog) -> Path | None:
    """The first path chosen in `dialog` (set up by the caller), or None."""
    try:
        accepted = await exec_dialog(dialog) == QFileDialog.DialogCode.Accepted
        files = dialog.selectedFiles()
    finally:
        dialog.deleteLater()
    return Path(files[0]) if accepted and files else None


async def ask_folder(parent: QWidget, title: str) -> Path | None:
    """A folder chosen by the user, or None."""
    dialog = QFileDialog(parent, title)
    dialog.setFileMode(QFileDialog.FileMode.Directory)
    dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
    return await chosen_path(dialog)
