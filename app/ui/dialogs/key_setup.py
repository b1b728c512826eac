"""Key setup of a profile: create a new phrase, import one (with a layout preset), import a WIF,
or watch-only (addresses, extended public keys or descriptors). Secrets are encrypted into the
vault under the user's password; the derived keys come back so the wallet starts unlocked."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.services.key_setup import (
    NewKey,
    imported_phrase_key,
    new_mnemonic,
    new_phrase_key,
    save_new_key,
    save_watch_only,
    wif_key,
)
from app.services.key_vault import can_remember_unlock
from app.ui import strings
from app.ui.async_tools import async_slot, run_blocking
from app.ui.dialogs.key_choose_page import ChoosePage, KeyKind
from app.ui.dialogs.key_create_pages import ConfirmPage, CreatePage
from app.ui.dialogs.key_import_page import ImportPage
from app.ui.dialogs.key_other_pages import WifPage
from app.ui.dialogs.key_watch_page import WatchOnlyPage
from app.ui.dialogs.password_page import PasswordPage
from app.ui.dialogs.setup_page import SetupPage
from app.ui.widgets import make_default, message_label, set_message

if TYPE_CHECKING:
    from app.services.key_vault import Vault, WalletKeys


@dataclass(frozen=True)
class KeySetupResult:
    key_name: str
    keys: WalletKeys | None  # None for a watch-only profile

    @property
    def watch_only(self) -> bool:
        return self.keys is None


class KeySetupDialog(QDialog):
    def __init__(
        self,
        vault: Vault,
        key_name: str,
        profile_label: str,
        network: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(strings.KEY_SETUP_TITLE.format(profile=profile_label))
        self.setMinimumSize(860, 600)
        self._vault = vault
        self._network = network
        self.key_name = key_name
        self.result_value: KeySetupResult | None = None
        self._history: list[QWidget] = []
        self._new_key: NewKey | None = None  # chosen, waiting for its password

        self.choose_page = ChoosePage()
        self.create_page = CreatePage()
        self.confirm_page = ConfirmPage()
        self.import_page = ImportPage(network)
        self.wif_page = WifPage()
        self.watch_page = WatchOnlyPage(network)
        self.password_page = PasswordPage(can_remember_unlock(vault))
        self.stack = QStackedWidget()
        for page in self._pages():
            self.stack.addWidget(page)
            if hasattr(page, "changed"):
                page.changed.connect(self._update_buttons)

        self.status = message_label("error")
        self.status.hide()
        self.back_button = QPushButton(strings.BUTTON_BACK)
        self.next_button = QPushButton(strings.BUTTON_NEXT)
        self.cancel_button = QPushButton(strings.BUTTON_CANCEL)
        make_default(self.next_button, self.back_button, self.cancel_button)
        self.back_button.clicked.connect(self.go_back)
        self.next_button.clicked.connect(self.go_next)
        self.cancel_button.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for button in (self.back_button, self.next_button, self.cancel_button):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.status)
        layout.addLayout(buttons)
        self._busy = False
        self._update_buttons()

    def _pages(self) -> list[QWidget]:
        return [
            self.choose_page,
            self.create_page,
            self.confirm_page,
            self.import_page,
            self.wif_page,
            self.watch_page,
            self.password_page,
        ]

    @property
    def page(self) -> SetupPage:
        page = self.stack.currentWidget()
        assert isinstance(page, SetupPage)  # the stack holds only the setup pages
        return page

    def _show(self, page: QWidget) -> None:
        self._history.append(self.page)
        self.stack.setCurrentWidget(page)
        set_message(self.status, "")
        self._update_buttons()
        page.setFocus()

    def go_back(self) -> None:
        if self._history and not self._busy:
            self.stack.setCurrentWidget(self._history.pop())
            set_message(self.status, "")
            self._update_buttons()

    def _update_buttons(self) -> None:
        page = self.page
        complete = page.is_complete()
        last = page is self.password_page or page is self.watch_page
        self.next_button.setText(strings.BUTTON_FINISH if last else strings.BUTTON_NEXT)
        self.next_button.setEnabled(complete and not self._busy)
        self.back_button.setEnabled(bool(self._history) and not self._busy)

    def _set_busy(self, busy: bool, text: str = "") -> None:
        self._busy = busy
        set_message(self.status, text, "hint")
        self._update_buttons()

    @async_slot()
    async def go_next(self) -> None:
        if self._busy:
            return
        try:
            await self._next()
        finally:
            if self._busy:
                self._set_busy(False)

    async def _next(self) -> None:
        page = self.page
        if page is self.choose_page:
            await self._after_choose(self.choose_page.kind())
        elif page is self.create_page:
            self.confirm_page.ask(len(self.create_page.words))
            self._show(self.confirm_page)
        elif page is self.confirm_page:
            if self.confirm_page.check(self.create_page.words):
                self._new_key = new_phrase_key(" ".join(self.create_page.words))
                self._show(self.password_page)
        elif page is self.import_page:
            self._use_import()
        elif page is self.wif_page:
            await self._use_wif()
        elif page is self.watch_page:
            await self._save_watch_only()
        elif page is self.password_page:
            await self._save_secret()

    async def _after_choose(self, kind: KeyKind) -> None:
        if kind is KeyKind.CREATE:
            self.create_page.show_words(await run_blocking(new_mnemonic))
            self._show(self.create_page)
        else:
            target = {
                KeyKind.IMPORT: self.import_page,
                KeyKind.WIF: self.wif_page,
                KeyKind.WATCH: self.watch_page,
            }
            self._show(target[kind])

    def _use_import(self) -> None:
        page = self.import_page
        preset = page.selected_preset()
        if preset is None:
            set_message(self.status, strings.IMPORT_PICK_PRESET)
            return
        try:
            self._new_key = imported_phrase_key(
                page.phrase(),
                page.passphrase.text(),
                preset,
                page.account.value(),
                page.custom_paths(),
            )
        except ValueError as exc:
            set_message(self.status, strings.MNEMONIC_INVALID.format(reason=exc))
            return
        self._show(self.password_page)

    async def _use_wif(self) -> None:
        page = self.wif_page
        try:
            self._new_key = await run_blocking(
                wif_key, page.wif.text(), self._network, page.address_type.currentText()
            )
        except ValueError as exc:
            set_message(page.error, strings.WIF_INVALID.format(reason=exc))
            return
        set_message(page.error, "")
        self._show(self.password_page)

    async def _save_secret(self) -> None:
        password = self.password_page.validate()
        if password is None or self._new_key is None:
            return
        self._set_busy(True, strings.SAVING_KEYS)
        remember = self.password_page.remember.isChecked()
        try:
            keys = await run_blocking(
                save_new_key,
                self._vault,
                self.key_name,
                self._network,
                self._new_key,
                password,
                remember,
            )
        except Exception as exc:  # vault and keychain errors: shown here, the dialog stays
            self._set_busy(False)
            set_message(self.status, strings.KEY_SAVE_FAILED.format(details=exc))
            return
        self._finish(KeySetupResult(self.key_name, keys))

    async def _save_watch_only(self) -> None:
        page = self.watch_page
        self._set_busy(True, strings.SAVING_KEYS)
        try:
            await run_blocking(
                save_watch_only, self._vault, self.key_name, self._network, *page.inputs()
            )
        except ValueError as exc:
            self._set_busy(False)
            page.show_error(strings.WATCH_INVALID.format(reason=exc))  # Finish waits for an edit
            return
        except Exception as exc:
            self._set_busy(False)
            set_message(self.status, strings.KEY_SAVE_FAILED.format(details=exc))
            return
        self._finish(KeySetupResult(self.key_name, None))

    def _finish(self, result: KeySetupResult) -> None:
        self.result_value = result
        self._forget_secrets()
        self.accept()

    def _forget_secrets(self) -> None:
        self._new_key = None
        self.create_page.forget()
        self.import_page.forget()
        self.wif_page.forget()
        self.password_page.clear()

    def reject(self) -> None:
        if self._busy:
            return  # saving: let it finish rather than leave a half-written profile
        self._forget_secrets()
        super().reject()
