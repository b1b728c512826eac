"""The password prompt (app/ui/dialogs/unlock.py) as a user answers it: the app asks when a
signing action finds the wallet locked (Place, Cancel bids, a PSBT flow) or on Ctrl+U.

    before = len(app.harness.dialogs)
    ...press something that signs...
    app.unlock_prompt(before).unlock()          # typed, Enter: unlocked, or ScenarioFailure
    app.unlock_prompt(before).unlock("wrong")   # -> "Wrong password." (the dialog stays open)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from app.ui.dialogs.unlock import UnlockDialog
from app.ui.qa.actions import click
from app.ui.qa.app import DialogPage
from app.ui.qa.expect import shown_messages
from app.ui.qa.pages.form_steps import newest_dialog
from app.ui.qa.profiles import PASSWORD
from app.ui.qa.said import MessageWatch

if TYPE_CHECKING:
    from app.ui.qa.app import App

PROMPT_TIMEOUT_MS = 10_000
UNLOCK_TIMEOUT_MS = 20_000  # the vault's KDF (cheap in tests) off the GUI thread


def open_unlock(
    app: App, before: int | None = None, timeout_ms: int = PROMPT_TIMEOUT_MS
) -> UnlockPage:
    """The password prompt opened after the first `before` dialogs (the newest when None)."""
    dialog = newest_dialog(
        app,
        UnlockPage.name,
        "the password prompt",
        UnlockDialog,
        before,
        timeout_ms,
        lambda: shown_messages(app.window.current_tab()),
    )
    return UnlockPage(app, dialog)


class UnlockPage(DialogPage[UnlockDialog]):
    name = "Unlock"

    def unlock(self, password: str = PASSWORD, timeout_ms: int = UNLOCK_TIMEOUT_MS) -> str | None:
        """Type `password` over the field and press Enter; None once unlocked, else what the
        dialog says (it stays open: "Wrong password.")."""
        field = self.dialog.password
        field.setFocus()
        field.selectAll()
        self.qtbot.keyClicks(field, password)
        watch = MessageWatch(self.dialog, [self.dialog.error])
        said: list[str] = []
        lock = self.app.context.wallet_lock

        def answered() -> bool:
            if lock.unlocked and not self.is_open:
                return True
            error = watch.new(("error",))
            said.extend([] if error is None else [error])
            return bool(said)

        self.qtbot.keyClick(field, Qt.Key.Key_Return)
        self.expect("unlock", "the wallet unlocked or a reason shown", answered, timeout_ms)
        return said[-1] if said else None

    def cancel(self) -> None:
        """Press Cancel: still locked; what asked for the password stops."""
        box = self.dialog.buttons
        reject = QDialogButtonBox.ButtonRole.RejectRole
        (button,) = [b for b in box.buttons() if box.buttonRole(b) == reject]
        click(self.qtbot, button)
        self.expect("cancel", "the prompt closed", lambda: not self.is_open)
