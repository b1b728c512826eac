"""The review dialog's Export button (Sparrow's "Save PSBT" and "Copy transaction hex"): save
the PSBT shown as a binary .psbt file or as base64 text, copy it as base64, or copy the raw
transaction as hex, said to be unsigned (no signatures yet) or signed (every input final).

The PSBT is the one reviewed, exactly as the service served it (`PsbtPlan.psbt_base64`); a
refusal drawn from an error holds none, and the button then says so. File writes and parsing
run in the executor (`app.services.psbt_files`)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QFileDialog, QMenu, QPushButton, QWidget

from app.services.psbt_files import PsbtFileError, raw_transaction, save_psbt_file
from app.ui import strings
from app.ui.async_tools import async_slot, run_blocking
from app.ui.file_dialogs import chosen_path


class ExportButton(QPushButton):
    """'Export' with a menu; `set_psbt` gives it the PSBT of the transaction shown (None: no
    PSBT to export). `said` tells what happened: (sentence, message role)."""

    said = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(strings.REVIEW_EXPORT, parent)
        self.setObjectName("review_export")
        self.psbt_base64: str | None = None
        self.file_name = "transaction"
        menu = QMenu(self)
        self.save_binary = QAction(strings.REVIEW_SAVE_BINARY, self)
        self.save_base64 = QAction(strings.REVIEW_SAVE_BASE64, self)
        self.copy_psbt = QAction(strings.REVIEW_COPY_PSBT, self)
        self.copy_transaction = QAction(strings.REVIEW_COPY_TX_UNSIGNED, self)
        for action in (self.save_binary, self.save_base64, self.copy_psbt, self.copy_transaction):
            menu.addAction(action)
        self.setMenu(menu)
        menu.aboutToShow.connect(self._label_transaction)
        # Bound methods, not lambdas: no reference cycle keeps a deleted button's wrapper.
        self.save_binary.triggered.connect(self.save_binary_file)
        self.save_base64.triggered.connect(self.save_base64_file)
        self.copy_psbt.triggered.connect(self._copy_psbt)
        self.copy_transaction.triggered.connect(self.copy_raw_transaction)

    def set_psbt(self, psbt_base64: str | None, file_name: str) -> None:
        self.psbt_base64 = psbt_base64 or None
        self.file_name = file_name
        self.setToolTip("" if self.psbt_base64 else strings.REVIEW_NO_PSBT)
        self.setEnabled(self.psbt_base64 is not None)
        self.copy_transaction.setText(strings.REVIEW_COPY_TX_UNSIGNED)

    @async_slot()
    async def _label_transaction(self) -> None:
        """Say whether the transaction copied is signed (a PSBT imported back) or not."""
        psbt = self.psbt_base64
        try:
            raw = await run_blocking(raw_transaction, psbt or "")
        except PsbtFileError:
            return
        if psbt == self.psbt_base64 and raw.signed:
            self.copy_transaction.setText(strings.REVIEW_COPY_TX_SIGNED)

    async def ask_save_path(self, binary: bool) -> Path | None:
        """Where to save: the file dialog (a test replaces this method on the instance)."""
        dialog = QFileDialog(self.window(), strings.REVIEW_SAVE_TITLE)
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setFileMode(QFileDialog.FileMode.AnyFile)
        filters = strings.REVIEW_SAVE_FILTER_BINARY if binary else strings.REVIEW_SAVE_FILTER_BASE64
        dialog.setNameFilter(filters)
        dialog.setDefaultSuffix("psbt" if binary else "txt")
        dialog.selectFile(f"{self.file_name}.psbt" if binary else f"{self.file_name}.txt")
        return await chosen_path(dialog)

    @async_slot()
    async def save_binary_file(self) -> None:
        await self.save(binary=True)

    @async_slot()
    async def save_base64_file(self) -> None:
        await self.save(binary=False)

    async def save(self, binary: bool) -> None:
        psbt = self.psbt_base64
        if psbt is None:
            self.said.emit(strings.REVIEW_NO_PSBT, "error")
            return
        path = await self.ask_save_path(binary)
        if path is None:
            return  # cancelled: nothing written, nothing said
        try:
            await run_blocking(save_psbt_file, path, psbt, binary=binary)
        except PsbtFileError as exc:
            self.said.emit(strings.REVIEW_SAVE_FAILED.format(reason=exc), "error")
            return
        self.said.emit(strings.REVIEW_SAVED.format(path=path), "ok")

    def _copy_psbt(self) -> None:
        if self.psbt_base64 is None:
            self.said.emit(strings.REVIEW_NO_PSBT, "error")
            return
        QGuiApplication.clipboard().setText(self.psbt_base64)
        self.said.emit(strings.COPIED.format(what=strings.REVIEW_PSBT_WHAT), "ok")

    @async_slot()
    async def copy_raw_transaction(self) -> None:
        psbt = self.psbt_base64
        if psbt is None:
            self.said.emit(strings.REVIEW_NO_PSBT, "error")
            return
        try:
            raw = await run_blocking(raw_transaction, psbt)
        except PsbtFileError as exc:
            self.said.emit(str(exc), "error")
            return
        QGuiApplication.clipboard().setText(raw.hex)
        what = strings.REVIEW_TX_SIGNED_WHAT if raw.signed else strings.REVIEW_TX_UNSIGNED_WHAT
        self.said.emit(strings.COPIED.format(what=what), "ok")
