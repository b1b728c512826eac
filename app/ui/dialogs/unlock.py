"""Unlock: the password of the profile's keys, with the "remember in keychain" option."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from app.services.key_vault import (
    VaultError,
    WrongPasswordError,
    can_remember_unlock,
    unlock_keys,
)
from app.ui import strings
from app.ui.async_tools import async_slot, run_blocking
from app.ui.widgets import make_default, message_label, set_message

if TYPE_CHECKING:
    from app.services.key_vault import Vault, WalletKeys


class UnlockDialog(QDialog):
    def __init__(
        self, vault: Vault, key_name: str, profile_label: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(strings.UNLOCK_TITLE.format(profile=profile_label))
        self.setMinimumWidth(420)
        self._vault = vault
        self._key_name = key_name
        self.keys: WalletKeys | None = None
        self._busy = False

        self.password = QLineEdit()
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.remember = QCheckBox(strings.REMEMBER_IN_KEYCHAIN)
        self.remember.setEnabled(can_remember_unlock(vault))
        self.error = message_label("error")
        self.error.hide()
        self.buttons = QDialogButtonBox()
        self.unlock_button = self.buttons.addButton(
            strings.UNLOCK_BUTTON, QDialogButtonBox.ButtonRole.AcceptRole
        )
        cancel = self.buttons.addButton(
            strings.BUTTON_CANCEL, QDialogButtonBox.ButtonRole.RejectRole
        )
        make_default(self.unlock_button, cancel)
        self.buttons.accepted.connect(self.try_unlock)
        self.buttons.rejected.connect(self.reject)

        intro = message_label("hint")
        intro.setText(strings.UNLOCK_INTRO.format(profile=profile_label))
        form = QFormLayout()
        form.addRow(strings.PASSWORD_LABEL, self.password)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.remember)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)
        self.password.setFocus()

    @async_slot()
    async def try_unlock(self) -> None:
        if self._busy:
            return
        password = self.password.text()
        if not password:
            set_message(self.error, strings.PASSWORD_EMPTY)
            return
        # Stay enabled while busy (clicks are ignored): disabling the focused default button
        # would move the default to Cancel, and Enter after a wrong password would cancel.
        self._busy = True
        set_message(self.error, strings.UNLOCKING, "hint")
        try:
            self.keys = await run_blocking(
                unlock_keys, self._vault, self._key_name, password, self.remember.isChecked()
            )
        except WrongPasswordError:
            set_message(self.error, strings.WRONG_PASSWORD)
            self.password.selectAll()
            self.password.setFocus()
            return
        except (VaultError, ValueError) as exc:
            set_message(self.error, strings.UNLOCK_FAILED.format(details=exc))
            return
        finally:
            self._busy = False
        self.password.clear()
        self.accept()

    def reject(self) -> None:
        if not self._busy:
            self.password.clear()
            super().reject()
