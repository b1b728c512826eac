"""Watch without any key: for the payment and the ordinals role, an address (with its public
key when known), an extended public key or a descriptor; the addresses they give are shown as
the user types, before anything is saved."""

from __future__ import annotations

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QComboBox, QFormLayout, QLineEdit, QVBoxLayout, QWidget

from app.services.key_setup import (
    ADDRESS_SOURCE,
    WatchedRole,
    WatchPreview,
    preview_watch_only,
    watch_wallet_choices,
)
from app.ui import strings
from app.ui.async_tools import async_slot, run_blocking
from app.ui.dialogs.setup_page import SetupPage
from app.ui.widgets import message_label, set_message


class WatchOnlyPage(SetupPage):
    changed = Signal()
    preview_ready = Signal()

    def __init__(self, network: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.network = network
        self.preview: WatchPreview | None = None
        self._generation = 0
        self.payment = QLineEdit()
        self.ordinals = QLineEdit()
        for field in (self.payment, self.ordinals):
            field.setPlaceholderText(strings.WATCH_PLACEHOLDER)
        self.payment_key = QLineEdit()
        self.ordinals_key = QLineEdit()
        self.wallet = QComboBox()
        self.wallet.addItem(strings.WATCH_WALLET_AUTOMATIC, "")
        for preset_id, label in watch_wallet_choices():
            self.wallet.addItem(label, preset_id)
        self.addresses = message_label("hint")
        self.addresses.hide()
        self.error = message_label("error")
        self.error.hide()
        intro = message_label("hint")
        intro.setText(strings.WATCH_INTRO)
        form = QFormLayout()
        form.addRow(strings.WATCH_PAYMENT, self.payment)
        form.addRow(strings.WATCH_ORDINALS, self.ordinals)
        form.addRow(strings.WATCH_WALLET, self.wallet)
        form.addRow(strings.WATCH_PAYMENT_KEY, self.payment_key)
        form.addRow(strings.WATCH_ORDINALS_KEY, self.ordinals_key)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.addresses)
        layout.addWidget(self.error)
        layout.addStretch(1)
        # Recompute the addresses once typing pauses, not on every key.
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(300)
        self._debounce.timeout.connect(self.refresh_preview)
        for edit in (self.payment, self.ordinals, self.payment_key, self.ordinals_key):
            edit.textChanged.connect(self._debounce.start)
        self.wallet.currentIndexChanged.connect(self._debounce.start)
        self.payment.textChanged.connect(self.changed)
        self.ordinals.textChanged.connect(self.changed)

    def preset_id(self) -> str | None:
        """The wallet chosen for an xpub's address types; None: from the key itself."""
        chosen = self.wallet.currentData()
        return str(chosen) if chosen else None

    def inputs(self) -> tuple[str, str, str, str, str | None]:
        """What `preview_watch_only` and `save_watch_only` take, after the network."""
        return (
            self.payment.text(),
            self.ordinals.text(),
            self.payment_key.text(),
            self.ordinals_key.text(),
            self.preset_id(),
        )

    @async_slot()
    async def refresh_preview(self) -> None:
        self._generation += 1
        generation = self._generation
        self.preview = None
        if not (self.payment.text().strip() and self.ordinals.text().strip()):
            set_message(self.addresses, "")
            set_message(self.error, "")
            return
        set_message(self.addresses, strings.IMPORT_COMPUTING, "hint")
        try:
            preview = await run_blocking(preview_watch_only, self.network, *self.inputs())
        except ValueError as exc:  # SecretInputError: names the role, never quotes the text
            if generation == self._generation:
                set_message(self.addresses, "")
                set_message(self.error, strings.WATCH_INVALID.format(reason=exc))
            return
        if generation != self._generation:
            return  # edited meanwhile: a newer preview is on its way
        self.preview = preview
        set_message(self.error, "")
        set_message(self.addresses, preview_text(preview), "hint")
        self.preview_ready.emit()

    def is_complete(self) -> bool:
        return bool(self.payment.text().strip() and self.ordinals.text().strip())


def preview_text(preview: WatchPreview) -> str:
    lines = [strings.WATCH_PREVIEW_INTRO]
    for name, role in (
        (strings.WATCH_ROLE_PAYMENT, preview.payment),
        (strings.WATCH_ROLE_ORDINALS, preview.ordinals),
    ):
        lines.append(strings.WATCH_PREVIEW_ROLE.format(role=name, address=role.address))
        lines.extend(_details(role))
    return "\n".join(lines)


def _details(role: WatchedRole) -> list[str]:
    if role.source == ADDRESS_SOURCE:
        return [strings.WATCH_PREVIEW_ADDRESS]
    if role.derived and role.source != "descriptor":
        lines = [strings.WATCH_PREVIEW_KEY.format(type=role.address_type, derived=role.derived)]
    else:
        lines = [strings.WATCH_PREVIEW_DESCRIPTOR.format(type=role.address_type)]
    if role.origin:
        lines.append(strings.WATCH_PREVIEW_ORIGIN.format(origin=role.origin))
    return lines
