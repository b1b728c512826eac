"""Import a recovery phrase: the first addresses of every wallet layout (Xverse, Leather,
Unisat, OKX, Magic Eden, or custom paths) so the user recognises theirs."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.services.key_setup import CustomPaths, PreviewRow, preview_layouts
from app.ui import strings
from app.ui.async_tools import async_slot, run_blocking
from app.ui.dialogs.setup_page import SetupPage
from app.ui.widgets import message_label, set_message

ADDRESS_TYPES = ("p2wpkh", "p2tr", "p2sh-p2wpkh", "p2pkh")


class ImportPage(SetupPage):
    changed = Signal()
    preview_ready = Signal()

    def __init__(self, network: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.network = network
        self.rows: list[PreviewRow] = []
        self._generation = 0
        self.mnemonic = QPlainTextEdit()
        self.mnemonic.setTabChangesFocus(True)
        self.mnemonic.setFixedHeight(64)
        self.passphrase = QLineEdit()
        self.passphrase.setEchoMode(QLineEdit.EchoMode.Password)
        self.passphrase.setPlaceholderText(strings.IMPORT_PASSPHRASE_HINT)
        self.custom = QCheckBox(strings.IMPORT_CUSTOM)
        self.payment_path = QLineEdit("m/84'/0'/0'/0/0")
        self.payment_type = QComboBox()
        self.payment_type.addItems(list(ADDRESS_TYPES))
        self.ordinals_path = QLineEdit("m/86'/0'/0'/0/0")
        self.ordinals_type = QComboBox()
        self.ordinals_type.addItems(list(ADDRESS_TYPES))
        self.ordinals_type.setCurrentText("p2tr")
        self.account = QSpinBox()
        self.account.setRange(0, 999)
        self.table = QTableWidget(0, 3)
        self.table.setHorizontalHeaderLabels(list(strings.IMPORT_PRESET_HEADERS))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(
            0, QHeaderView.ResizeMode.ResizeToContents
        )
        self.table.itemSelectionChanged.connect(self.changed)
        self.table.setMinimumHeight(240)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.status = message_label("hint")
        self.status.hide()

        custom_box = QWidget()
        custom_form = QFormLayout(custom_box)
        custom_form.setContentsMargins(24, 0, 0, 0)
        for label, path, kind in (
            (strings.IMPORT_PAYMENT_PATH, self.payment_path, self.payment_type),
            (strings.IMPORT_ORDINALS_PATH, self.ordinals_path, self.ordinals_type),
        ):
            row = QHBoxLayout()
            row.addWidget(path, 1)
            row.addWidget(kind)
            caption = QLabel(label)
            caption.setBuddy(path)
            custom_form.addRow(caption, row)
        custom_box.setVisible(False)  # shown only for the rare custom layout
        self.custom.toggled.connect(custom_box.setVisible)

        intro = message_label("hint")
        intro.setText(strings.IMPORT_INTRO)
        preset_intro = message_label("hint")
        preset_intro.setText(strings.IMPORT_PRESET_INTRO)
        form = QFormLayout()
        form.addRow(strings.IMPORT_PASSPHRASE, self.passphrase)
        form.addRow(strings.IMPORT_ACCOUNT, self.account)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.mnemonic)
        layout.addLayout(form)
        layout.addWidget(self.custom)
        layout.addWidget(custom_box)
        layout.addWidget(preset_intro)
        layout.addWidget(self.status)
        layout.addWidget(self.table, 1)

        # Recompute the preview once typing pauses, not on every key.
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(300)
        self._debounce.timeout.connect(self.refresh_preview)
        for signal in (
            self.mnemonic.textChanged,
            self.passphrase.textChanged,
            self.custom.toggled,
            self.payment_path.textChanged,
            self.ordinals_path.textChanged,
            self.payment_type.currentIndexChanged,
            self.ordinals_type.currentIndexChanged,
        ):
            signal.connect(self._debounce.start)

    def custom_paths(self) -> CustomPaths | None:
        if not self.custom.isChecked():
            return None
        return CustomPaths(
            self.payment_path.text().strip(),
            self.payment_type.currentText(),
            self.ordinals_path.text().strip(),
            self.ordinals_type.currentText(),
        )

    @async_slot()
    async def refresh_preview(self) -> None:
        self._generation += 1
        generation = self._generation
        text = " ".join(self.mnemonic.toPlainText().split())
        self.table.setRowCount(0)
        self.rows = []
        self.changed.emit()
        if not text:
            set_message(self.status, "")
            return
        set_message(self.status, strings.IMPORT_COMPUTING, "hint")
        try:
            rows = await run_blocking(
                preview_layouts, text, self.passphrase.text(), self.network, self.custom_paths()
            )
        except ValueError as exc:  # InvalidMnemonicError / PresetError: never quote words
            if generation == self._generation:
                set_message(self.status, strings.MNEMONIC_INVALID.format(reason=exc))
            return
        if generation != self._generation:
            return  # the text changed meanwhile; a newer preview is on its way
        set_message(self.status, strings.IMPORT_PICK_PRESET, "hint")
        self._show_rows(rows)
        self.preview_ready.emit()

    def _show_rows(self, rows: list[PreviewRow]) -> None:
        self.rows = rows
        self.table.setRowCount(len(rows))
        for index, row in enumerate(rows):
            cells = (row.label, "\n".join(row.payment), "\n".join(row.ordinals))
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, row.preset_id)
                self.table.setItem(index, column, item)
        self.table.resizeRowsToContents()
        self.changed.emit()

    def select_preset(self, preset_id: str) -> None:
        for index, row in enumerate(self.rows):
            if row.preset_id == preset_id:
                self.table.selectRow(index)
                return
        raise KeyError(preset_id)

    def selected_preset(self) -> str | None:
        selected = self.table.selectionModel().selectedRows()
        return self.rows[selected[0].row()].preset_id if selected and self.rows else None

    def is_complete(self) -> bool:
        return self.selected_preset() is not None

    def phrase(self) -> str:
        return " ".join(self.mnemonic.toPlainText().split())

    def forget(self) -> None:
        self.mnemonic.clear()
        self.passphrase.clear()
