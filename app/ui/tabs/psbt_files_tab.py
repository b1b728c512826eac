"""The offline signer's tab: open an export (its manifest.json or any PSBT file beside it),
unlock the signing key, review every PSBT in the review dialog, sign, and save.

No network client exists in this mode. Only PSBTs exported with their manifest are signed: the
manifest says what each is for (the intent the review checks it against). A lone PSBT file is
read and described but not signed. Signing writes the signed files beside the exported ones
(what the online Import expects); with a single PSBT, Save also writes a copy elsewhere.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from app.services.psbt_files import (
    LoadedPsbt,
    PsbtFileError,
    PsbtReadError,
    load_psbt_file,
    save_psbt_file,
)
from app.ui import strings
from app.ui.async_tools import async_slot, run_blocking
from app.ui.dialogs.animated_qr_dialog import ShowQrButton
from app.ui.dialogs.qr_scan_dialog import SCAN_ICON, scan_export_or_psbt
from app.ui.file_dialogs import chosen_path
from app.ui.icons import icon_button
from app.ui.offline_signing import (
    MANIFEST_NAME,
    export_folder_of,
    read_export,
    review_and_sign,
)
from app.ui.widgets import message_label, set_message
from app.ui.widgets.progress_panel import ProgressPanel

if TYPE_CHECKING:
    from app.ui.context import AppContext
    from app.ui.controller import AppController


class PsbtFilesTab(QWidget):
    def __init__(
        self, context: AppContext, controller: AppController, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._context = context
        self._controller = controller
        self.loaded: LoadedPsbt | None = None
        self.signed: LoadedPsbt | None = None
        self.export_folder: Path | None = None  # the manifest's folder, once one is opened
        self.signed_folder: Path | None = None  # the export folder once its PSBTs are signed
        self._busy = False
        self._opens = 0  # files opened: a read ending after another was opened is dropped

        intro = message_label("hint")
        intro.setText(strings.OFFLINE_INTRO)
        self.key_choice = QComboBox()
        self.unlock_button = icon_button("key", strings.OFFLINE_UNLOCK)
        self.open_button = icon_button("open", strings.OFFLINE_OPEN)
        self.scan_button = icon_button(SCAN_ICON, strings.QR_SCAN_BUTTON)
        self.scan_button.setToolTip(strings.QR_SCAN_BUTTON_TIP)
        self.save_button = icon_button("save", strings.OFFLINE_SAVE)
        self.save_button.setEnabled(False)
        self.review_button = icon_button("sign", strings.OFFLINE_REVIEW_SIGN)
        self.review_button.setEnabled(False)
        self.qr_signed_button = ShowQrButton(self, context, lambda: self.signed_folder, True)
        self.qr_signed_button.setEnabled(False)  # for the online side to scan, once signed
        self.review_status = message_label("hint")
        self.review_status.setVisible(False)
        self.progress = ProgressPanel()
        self.file_status = message_label("hint")
        self.file_status.setText(strings.OFFLINE_NO_FILE)
        self.file_status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        key_row = QHBoxLayout()
        key_row.addWidget(self.key_choice, 1)
        key_row.addWidget(self.unlock_button)
        form = QFormLayout()
        key_label = QLabel(strings.OFFLINE_PROFILE)
        key_label.setBuddy(self.key_choice)  # a layout field gets no buddy: "&" would show
        form.addRow(key_label, key_row)
        file_row = QHBoxLayout()
        file_row.addWidget(self.open_button)
        file_row.addWidget(self.scan_button)
        file_row.addWidget(self.review_button)
        file_row.addWidget(self.save_button)
        file_row.addWidget(self.qr_signed_button)
        file_row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addLayout(file_row)
        layout.addWidget(self.file_status)
        layout.addWidget(self.progress)
        layout.addWidget(self.review_status)
        layout.addStretch(1)

        self.open_button.clicked.connect(self.open_file)
        self.scan_button.clicked.connect(self.scan_qr)
        self.save_button.clicked.connect(self.save_file)
        self.unlock_button.clicked.connect(self.unlock_key)
        self.review_button.clicked.connect(self.review_and_sign)
        for keys, slot in (("Ctrl+O", self.open_file), ("Ctrl+S", self.save_file)):
            QShortcut(QKeySequence(keys), self).activated.connect(slot)
        context.profile_changed.connect(self.reload_keys)
        context.lock_changed.connect(self._update_unlock)
        self.reload_keys()

    # -- file dialogs (tests monkeypatch these two) ------------------------------------------

    # Opened with open() and awaited: QFileDialog's static functions would spin a nested
    # event loop inside a running task.

    @staticmethod
    async def ask_open_path(parent: QWidget) -> Path | None:
        dialog = QFileDialog(parent, strings.OFFLINE_OPEN.replace("&", ""))
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setNameFilter(strings.OFFLINE_OPEN_FILTER)
        return await chosen_path(dialog)

    @staticmethod
    async def ask_save_path(parent: QWidget, suggested: Path) -> Path | None:
        dialog = QFileDialog(parent, strings.OFFLINE_SAVE.replace("&", ""))
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setNameFilter(strings.OFFLINE_SAVE_FILTER)
        dialog.setDefaultSuffix("psbt")
        dialog.selectFile(str(suggested))
        return await chosen_path(dialog)

    # -- keys -------------------------------------------------------------------------------

    def reload_keys(self) -> None:
        context = self._context
        self.key_choice.clear()
        for profile in context.settings.profiles:
            if profile.key_name is not None:
                self.key_choice.addItem(profile.name, profile.name)
        if context.profile is not None:
            self.key_choice.setCurrentIndex(max(0, self.key_choice.findData(context.profile.name)))
        self._update_unlock()

    def _update_unlock(self, *_: object) -> None:
        has_keys = self.key_choice.count() > 0
        self.unlock_button.setEnabled(has_keys and not self._context.wallet_lock.unlocked)

    @async_slot()
    async def unlock_key(self) -> None:
        name = self.key_choice.currentData()
        if name is None:
            self._context.error(strings.OFFLINE_NO_PROFILES)
            return
        if self._context.profile is None or self._context.profile.name != name:
            await self._controller.switch_profile(str(name))  # offline: no connection made
        await self._controller.unlock()

    # -- files ------------------------------------------------------------------------------

    @async_slot()
    async def open_file(self) -> None:
        path = await self.ask_open_path(self)
        if path is not None:
            await self.open_path(path)

    @async_slot()
    async def scan_qr(self) -> None:
        """An export (written to an empty folder) or one PSBT (saved where the user says)
        read from an animated QR code, then opened as that file would be."""
        folder, psbt = await scan_export_or_psbt(self)
        if folder is not None:
            await self.open_path(folder / MANIFEST_NAME)
            return
        if psbt is None:
            return
        path = await self.ask_save_path(self, Path.home() / "scanned.psbt")
        if path is None:
            return
        try:
            text = base64.b64encode(psbt).decode("ascii")
            await run_blocking(save_psbt_file, path, text, binary=True)
        except PsbtFileError as exc:
            set_message(self.file_status, strings.QR_SCAN_NOT_SAVED.format(reason=exc))
            return
        await self.open_path(path)

    async def open_path(self, path: Path) -> None:
        self._opens += 1
        opening = self._opens
        self.export_folder = None
        set_message(self.review_status, "")
        folder = await run_blocking(export_folder_of, path)
        if opening != self._opens:
            return  # another file opened while this one was read: that one shows
        if folder is not None:
            await self._open_export(folder, opening)
            if path.name == MANIFEST_NAME or opening != self._opens:
                return
        try:
            loaded = await run_blocking(load_psbt_file, path)
        except PsbtFileError as exc:
            if opening != self._opens:
                return
            text = strings.OFFLINE_NOT_A_PSBT
            if isinstance(exc, PsbtReadError):
                text = strings.OFFLINE_READ_FAILED
            set_message(self.file_status, text.format(name=path.name, reason=exc))
            self._record("psbt.open", False, f"{path.name}: {exc}")
            return
        if opening != self._opens:
            return
        self.loaded = loaded
        self.set_signed(None)
        text = strings.OFFLINE_LOADED.format(
            name=path.name,
            inputs=strings.counted(strings.OFFLINE_INPUTS, loaded.inputs),
            outputs=strings.counted(strings.OFFLINE_OUTPUTS, loaded.outputs),
            signed=strings.OFFLINE_SIGNED_STATE[loaded.sign_state],
        )
        if self.export_folder is None:
            set_message(self.file_status, text, "ok")
            set_message(self.review_status, strings.OFFLINE_NO_MANIFEST.format(name=path.name))
        self._record("psbt.open", True, path.name)
        self._update_review()

    async def _open_export(self, folder: Path, opening: int) -> None:
        self.loaded = None
        self.set_signed(None)
        from app.services.errors import ServiceError

        try:
            manifest = await read_export(folder)
        except (ServiceError, OSError) as exc:  # ManifestError / OfflineFileError say what
            if opening != self._opens:
                return
            reason = exc.user_message if isinstance(exc, ServiceError) else str(exc)
            set_message(self.file_status, strings.OFFLINE_SIGN_FAILED.format(reason=reason))
            return
        if opening != self._opens:
            return
        self.export_folder = folder
        text = strings.counted(
            strings.OFFLINE_MANIFEST_LOADED, len(manifest.items), folder=folder, flow=manifest.flow
        )
        set_message(self.file_status, text, "ok")
        set_message(self.review_status, strings.OFFLINE_REVIEW_NEXT, "hint")
        self._record("psbt.open", True, f"{folder.name}/{MANIFEST_NAME}")
        self._update_review()

    def _update_review(self, *_: object) -> None:
        self.review_button.setEnabled(self.export_folder is not None and not self._busy)
        if self.signed_folder != self.export_folder:  # another export opened since
            self.signed_folder = None
        self.qr_signed_button.setEnabled(self.signed_folder is not None and not self._busy)

    @async_slot()
    async def review_and_sign(self) -> None:
        folder = self.export_folder
        if folder is None or self._busy:
            return
        opening = self._opens  # the export signed: Save is its unless another file opens
        if not self._context.wallet_lock.unlocked and not await self._controller.unlock():
            set_message(self.review_status, strings.UNLOCK_TO_SIGN_HINT)
            return
        self._busy = True
        self._update_review()
        try:
            outcome = await review_and_sign(
                self, self._context, folder, self._context.wallet_lock.keys, self.progress
            )
        finally:
            self._busy = False
            self._update_review()
        set_message(self.review_status, outcome.message, "ok" if outcome.ok else "error")
        self._record("psbt.sign", outcome.ok, outcome.message)
        if outcome.ok:
            self.signed_folder = folder
            self._update_review()
        if outcome.ok and len(outcome.signed_files) == 1 and opening == self._opens:
            signed_path = outcome.signed_files[0]
            signed = await run_blocking(load_psbt_file, signed_path)
            exported = None
            if self.loaded is None:  # Save suggests a name from the exported file's
                name = signed_path.name.replace(".signed", "")
                exported = await run_blocking(load_psbt_file, signed_path.with_name(name))
            if opening == self._opens:
                self.loaded = exported or self.loaded
                self.set_signed(signed)

    def set_signed(self, signed: LoadedPsbt | None) -> None:
        """Called by the review-and-sign step with the signed PSBT (None: nothing to save)."""
        self.signed = signed
        self.save_button.setEnabled(signed is not None)

    @async_slot()
    async def save_file(self) -> None:
        if self.signed is None or self.loaded is None:
            return
        source = self.loaded.path
        path = await self.ask_save_path(self, source.with_name(f"{source.stem}-signed.psbt"))
        if path is None:
            return
        try:
            await run_blocking(save_psbt_file, path, self.signed.psbt)
        except PsbtFileError as exc:
            set_message(
                self.file_status, strings.OFFLINE_SAVE_FAILED.format(name=path.name, reason=exc)
            )
            self._record("psbt.save", False, f"{path.name}: {exc}")
            return
        set_message(self.file_status, strings.OFFLINE_SAVED.format(name=path.name), "ok")
        self._record("psbt.save", True, path.name)

    def _record(self, action: str, ok: bool, message: str) -> None:
        if self._context.activity is not None:
            self._context.activity.record(action, ok=ok, message=message)
