"""Watch without any key: for the payment and the ordinals role, an address (with its public
key when known, asked only once an address is entered), an extended public key or a
descriptor; the addresses they give are shown as the user types, before anything is saved.

Finish waits while what was entered is refused (the red line goes as soon as it is edited). A
key given without its master's origin [fingerprint/path] is watched, with a warning: the PSBTs
exported for it name it by its own fingerprint, which signers that look their keys up by the
master fingerprint (Sparrow, hardware wallets) do not recognise."""

from __future__ import annotations

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QComboBox, QFormLayout, QLineEdit, QVBoxLayout, QWidget

from app.services.key_setup import (
    ADDRESS_SOURCE,
    WatchedRole,
    WatchPreview,
    preview_watch_only,
    watch_wallet_choices,
    watches_an_address,
)
from app.ui import strings
from app.ui.async_tools import async_slot, run_blocking
from app.ui.dialogs.setup_page import SetupPage
from app.ui.widgets import message_label, set_message

# The BIP-44 purpose of each address type: the path a warning suggests for a key's origin.
_PURPOSES = {"p2pkh": 44, "p2sh-p2wpkh": 49, "p2wpkh": 84, "p2tr": 86}


def intro_text(network: str) -> str:
    """The page's introduction, its examples in the profile network's keys and coin type."""
    mainnet = network == "mainnet"
    keys, xpub = strings.WATCH_INTRO_KEYS["mainnet" if mainnet else "test"]
    return strings.WATCH_INTRO.format(keys=keys, coin=0 if mainnet else 1, xpub=xpub)


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
        self.addresses = message_label("plain")  # read and compared: the normal text colour
        self.addresses.hide()
        self.warning = message_label("warning")
        self.warning.hide()
        self.error = message_label("error")
        self.error.hide()
        self.intro = message_label("hint")
        self.intro.setText(intro_text(network))
        self.form = QFormLayout()
        self.form.addRow(strings.WATCH_PAYMENT, self.payment)
        self.form.addRow(strings.WATCH_ORDINALS, self.ordinals)
        self.form.addRow(strings.WATCH_WALLET, self.wallet)
        self.form.addRow(strings.WATCH_PAYMENT_KEY, self.payment_key)
        self.form.addRow(strings.WATCH_ORDINALS_KEY, self.ordinals_key)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addLayout(self.form)
        layout.addWidget(self.addresses)
        layout.addWidget(self.warning)
        layout.addWidget(self.error)
        layout.addStretch(1)
        # Recompute the addresses once typing pauses, not on every key.
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(300)
        self._debounce.timeout.connect(self.refresh_preview)
        for edit in (self.payment, self.ordinals, self.payment_key, self.ordinals_key):
            edit.textChanged.connect(self._edited)
        self.wallet.currentIndexChanged.connect(self._edited)
        self._show_key_rows()

    def preset_id(self) -> str | None:
        """The wallet chosen for an xpub's address types; None: from the key itself."""
        chosen = self.wallet.currentData()
        return str(chosen) if chosen else None

    def inputs(self) -> tuple[str, str, str, str, str | None]:
        """What `preview_watch_only` and `save_watch_only` take, after the network. A public
        key counts only beside an address (its field is hidden otherwise)."""
        return (
            self.payment.text(),
            self.ordinals.text(),
            self.payment_key.text() if watches_an_address(self.payment.text()) else "",
            self.ordinals_key.text() if watches_an_address(self.ordinals.text()) else "",
            self.preset_id(),
        )

    def show_error(self, text: str) -> None:
        """What is refused, in red; Finish waits until it is edited."""
        set_message(self.error, text, "error")
        self.changed.emit()

    def _edited(self, *_: object) -> None:
        """An edit makes the refusal shown stale: it goes (Finish may be pressed, and saving
        checks again) until the new preview says otherwise."""
        self._show_key_rows()
        set_message(self.error, "")
        self._debounce.start()
        self.changed.emit()

    def _show_key_rows(self) -> None:
        """The public key fields only beside an address: an xpub or a descriptor holds it."""
        self.form.setRowVisible(self.payment_key, watches_an_address(self.payment.text()))
        self.form.setRowVisible(self.ordinals_key, watches_an_address(self.ordinals.text()))

    @async_slot()
    async def refresh_preview(self) -> None:
        self._generation += 1
        generation = self._generation
        self.preview = None
        if not (self.payment.text().strip() and self.ordinals.text().strip()):
            set_message(self.addresses, "")
            set_message(self.warning, "")
            self.show_error("")
            return
        set_message(self.addresses, strings.IMPORT_COMPUTING, "hint")
        try:
            preview = await run_blocking(preview_watch_only, self.network, *self.inputs())
        except ValueError as exc:  # SecretInputError: names the role, never quotes the text
            if generation == self._generation:
                set_message(self.addresses, "")
                set_message(self.warning, "")
                self.show_error(strings.WATCH_INVALID.format(reason=exc))
            return
        if generation != self._generation:
            return  # edited meanwhile: a newer preview is on its way
        self.preview = preview
        set_message(self.addresses, preview_text(preview), "plain")
        set_message(self.warning, origin_warning(preview, self.network), "warning")
        self.show_error("")
        self.preview_ready.emit()

    def is_complete(self) -> bool:
        filled = bool(self.payment.text().strip() and self.ordinals.text().strip())
        return filled and not self.error.text()


def preview_text(preview: WatchPreview) -> str:
    lines = [strings.WATCH_PREVIEW_INTRO]
    for name, role in (
        (strings.WATCH_ROLE_PAYMENT, preview.payment),
        (strings.WATCH_ROLE_ORDINALS, preview.ordinals),
    ):
        lines.append(strings.WATCH_PREVIEW_ROLE.format(role=name, address=role.address))
        lines.extend(_details(role))
    return "\n".join(lines)


def origin_warning(preview: WatchPreview, network: str) -> str:
    """A warning for each role watched by a key without its master's origin ("" if none)."""
    coin = 0 if network == "mainnet" else 1
    lines = []
    for name, role in (
        (strings.WATCH_ROLE_PAYMENT, preview.payment),
        (strings.WATCH_ROLE_ORDINALS, preview.ordinals),
    ):
        if role.source == ADDRESS_SOURCE or role.origin_given:
            continue
        purpose = _PURPOSES.get(role.address_type or "", 84)
        path = f"{purpose}h/{coin}h/0h"
        lines.append(strings.WATCH_NO_ORIGIN.format(role=name.lower(), path=path))
    return "\n".join(lines)


def _details(role: WatchedRole) -> list[str]:
    if role.source == ADDRESS_SOURCE:
        return [strings.WATCH_PREVIEW_ADDRESS]
    if role.derived and role.source != "descriptor":
        lines = [strings.WATCH_PREVIEW_KEY.format(type=role.address_type, derived=role.derived)]
    else:
        lines = [strings.WATCH_PREVIEW_DESCRIPTOR.format(type=role.address_type)]
    if role.origin:
        shown = (
            strings.WATCH_PREVIEW_ORIGIN if role.origin_given else strings.WATCH_PREVIEW_OWN_ORIGIN
        )
        lines.append(shown.format(origin=role.origin))
    return lines
