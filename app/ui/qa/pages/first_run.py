"""The first-run dialog (app/ui/dialogs/first_run.py; also "Add profile"): the sandbox, the
public service with its API key, or a custom service's URLs, answered as a user answers it.

    app = App(bidwallet_open_app(bidwallet_options()), qtbot, bidwallet_loop)
    app.first_run().choose_custom(bidwallet_sandbox.url)    # then app.key_setup()
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from app.ui.dialogs.first_run import FirstRunDialog
from app.ui.qa.actions import click
from app.ui.qa.app import DialogPage
from app.ui.qa.expect import DEFAULT_TIMEOUT_MS, ScenarioFailure
from app.ui.qa.pages.form_steps import newest_dialog, replace_text

if TYPE_CHECKING:
    from app.ui.qa.app import App

NAME = "First run"
# What a custom service's three URLs are under one root (the sandbox's layout).
SERVICE_SUFFIXES = ("/v1", "/esplora", "/ord")


def open_first_run(app: App, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> FirstRunPage:
    """The newest first-run dialog the window opened, once shown."""
    dialog = newest_dialog(app, NAME, "the first-run dialog", FirstRunDialog, None, timeout_ms)
    return FirstRunPage(app, dialog)


class FirstRunPage(DialogPage[FirstRunDialog]):
    name = NAME

    @property
    def service_chosen(self) -> str:
        """Which service is ticked: "sandbox", "satflow" or "custom"."""
        dialog = self._open()
        if dialog.sandbox_radio.isChecked():
            return "sandbox"
        return "satflow" if dialog.satflow_radio.isChecked() else "custom"

    @property
    def error(self) -> str:
        """Why Continue was refused ("" when nothing is said)."""
        dialog = self._open()
        return dialog.error.text() if dialog.error.isVisibleTo(dialog) else ""

    # -- what a user does -------------------------------------------------------------------

    def choose_sandbox(self) -> None:
        """The embedded sandbox, Continue: the dialog closes (key setup comes next)."""
        click(self.qtbot, self._open().sandbox_radio)
        self._continue_closing("choose_sandbox")

    def choose_satflow(self, api_key: str) -> None:
        """The public service with `api_key` typed, Continue."""
        dialog = self._open()
        click(self.qtbot, dialog.satflow_radio)
        replace_text(self.qtbot, dialog.satflow_key, api_key)
        self._continue_closing("choose_satflow")

    def fill_custom(
        self,
        root_url: str,
        network: str = "regtest",
        name: str | None = None,
        api_key: str | None = None,
    ) -> None:
        """Choose Custom and type its fields: the three URLs under `root_url` (/v1, /esplora,
        /ord), the network chosen with the keyboard, a name over the one offered, a key."""
        dialog = self._open()
        click(self.qtbot, dialog.custom_radio)
        if name is not None:
            replace_text(self.qtbot, dialog.custom_name, name)
        edits = (dialog.marketplace_url, dialog.esplora_url, dialog.ord_url)
        for edit, suffix in zip(edits, SERVICE_SUFFIXES, strict=True):
            replace_text(self.qtbot, edit, root_url.rstrip("/") + suffix)
        choice = dialog.network
        if choice.findText(network) < 0:
            offered = [choice.itemText(i) for i in range(choice.count())]
            raise ScenarioFailure(
                f"{self.name} page, fill_custom: expected the network {network!r}; offered"
                f" {offered}"
            )
        choice.setFocus()
        self.qtbot.keyClick(choice, Qt.Key.Key_Home)
        for _ in range(choice.count()):
            if choice.currentText() == network:
                break
            self.qtbot.keyClick(choice, Qt.Key.Key_Down)
        self.expect("fill_custom", f"the network {network!r} chosen",
                    lambda: choice.currentText() == network, 1_000)  # fmt: skip
        if api_key is not None:
            replace_text(self.qtbot, dialog.custom_key, api_key)

    def choose_custom(
        self,
        root_url: str,
        network: str = "regtest",
        name: str | None = None,
        api_key: str | None = None,
    ) -> None:
        """`fill_custom`, then Continue: the dialog closes (key setup comes next)."""
        self.fill_custom(root_url, network, name, api_key)
        self._continue_closing("choose_custom")

    def press_continue(self) -> str:
        """Press Continue: "" once the dialog closed, else the refusal it shows."""
        click(self.qtbot, self._open().continue_button)
        self.expect("press_continue", "the dialog closed or a refusal",
                    lambda: not self.is_open or self.error != "")  # fmt: skip
        return "" if not self.is_open else self.error

    def cancel(self) -> None:
        box = self._open().buttons
        reject = QDialogButtonBox.ButtonRole.RejectRole
        (button,) = [b for b in box.buttons() if box.buttonRole(b) == reject]
        click(self.qtbot, button)
        self.expect("cancel", "the dialog closed", lambda: not self.is_open)

    def _continue_closing(self, action: str) -> None:
        said = self.press_continue()
        if said:
            raise ScenarioFailure(
                f"{self.name} page, {action}: expected the dialog to close; it shows: error"
                f" {said!r}"
            )
