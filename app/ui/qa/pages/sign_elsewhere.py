"""A watch-only profile's steps, where the keys are in another wallet (app/ui/sign_elsewhere.py):
a reviewed PSBT exported to a folder, what the other wallet signed imported back and reviewed
again, and a bid's message or a cancel's challenge signed elsewhere in the `SignMessagePage`.

The folder is asked in a file dialog, which cannot be driven offscreen: `folder_answered`
answers that question (and checks it was the one expected) for the steps below; the Wallet,
Withdraw and Inscription bid pages use them (`export_*`, `import_signed`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QPushButton, QWidget

from app.ui import strings
from app.ui.dialogs.sign_message_dialog import SignMessageDialog
from app.ui.qa.actions import click, paste_into
from app.ui.qa.app import DialogPage, Page
from app.ui.qa.expect import DEFAULT_TIMEOUT_MS, ScenarioFailure, shown_messages
from app.ui.qa.pages.form_steps import newest_dialog
from app.ui.sign_elsewhere import SignElsewhere

if TYPE_CHECKING:
    from app.ui.qa.app import App
    from app.ui.qa.pages.review import ReviewPage

EXPORTED = strings.ELSEWHERE_EXPORTED.one.split("{", 1)[0]  # "Exported to "
SEND_TIMEOUT_MS = 30_000  # the signature verified, the bid placed or the bids cancelled


@contextmanager
def folder_answered(page: Page, action: str, folder: Path, question: str) -> Iterator[None]:
    """Within: the folder question of a watch-only flow answered with `folder`; afterwards,
    a ScenarioFailure unless `question` (its title) was asked, once."""
    asked: list[str] = []

    async def answer(parent: QWidget, title: str) -> Path | None:
        asked.append(title)
        return folder

    original = SignElsewhere.__dict__["ask_folder"]
    SignElsewhere.ask_folder = staticmethod(answer)
    try:
        yield
    finally:
        SignElsewhere.ask_folder = original
    if asked != [question]:
        raise ScenarioFailure(
            f"{page.name} page, {action}: expected the question {question!r}; asked {asked}"
        )


def export_reviewed(page: Page, review: ReviewPage, folder: Path, action: str) -> str:
    """Accept `review` of a watch-only flow ("Review, then export for signing elsewhere"),
    the folder asked answered with `folder`: what the tab then says ("Exported to ...")."""
    with folder_answered(page, action, folder, strings.ELSEWHERE_EXPORT_FOLDER):
        said = review.approve()
    if not said.startswith(EXPORTED):
        raise ScenarioFailure(f"{page.name} page, {action}: expected an export; it says {said!r}")
    return said


def import_signed(page: Page, button: QPushButton, folder: Path, action: str) -> ReviewPage:
    """Press Import signed… with `folder` chosen (the export's, with the signed PSBT saved
    in it): the review of what the other wallet signed, to approve (then submitted)."""
    before = len(page.app.harness.dialogs)
    with folder_answered(page, action, folder, strings.ELSEWHERE_IMPORT_FOLDER):
        click(page.qtbot, button)
        review = page.app.review(before)
    return review


@dataclass(frozen=True)
class MessageShown:
    """One text to sign elsewhere as the dialog shows it, and the address that must sign it."""

    address: str
    message: str


def open_sign_message(
    app: App, before: int | None = None, timeout_ms: int = DEFAULT_TIMEOUT_MS
) -> SignMessagePage:
    """The newest sign-message dialog opened (after the first `before` dialogs), once shown."""
    dialog = newest_dialog(
        app,
        SignMessagePage.name,
        "a message to sign elsewhere",
        SignMessageDialog,
        before,
        timeout_ms,
        lambda: shown_messages(app.window.current_tab()),
    )
    return SignMessagePage(app, dialog)


class SignMessagePage(DialogPage[SignMessageDialog]):
    """The dialog that shows a bid's exact message (or a cancel's challenges) to sign in
    another wallet and takes the signatures back (`app.sign_message()`)."""

    name = "Sign message"

    def messages(self) -> list[MessageShown]:
        """Each text to sign, with its address, in the dialog's order."""
        return [
            MessageShown(box.address.text(), box.message.toPlainText())
            for box in self._open().boxes
        ]

    @property
    def status(self) -> str:
        """What the dialog says under the messages (a refusal, "Sending…"; "" for none)."""
        dialog = self._open()
        return dialog.status.text() if dialog.status.isVisibleTo(dialog) else ""

    @property
    def time_left(self) -> str:
        """The countdown's line ("" without a deadline)."""
        dialog = self._open()
        return dialog.time_left.text() if dialog.time_left.isVisibleTo(dialog) else ""

    @property
    def can_send(self) -> bool:
        return self._open().send_button.isEnabled()

    def paste_signature(self, signature: str, index: int = 0) -> None:
        """Paste `signature` (Ctrl+V) into the field of the `index`th message, over what it
        held."""
        field = self._open().boxes[index].signature
        field.selectAll()
        paste_into(self.qtbot, field, signature)

    def send(self, timeout_ms: int = SEND_TIMEOUT_MS) -> None:
        """Press Send: the signatures verified and sent, the dialog closed (the tab then
        says the result). A refusal shown instead is quoted in the ScenarioFailure."""
        click(self.qtbot, self._open().send_button)
        self.expect("send", "the signatures sent and the dialog closed",
                    lambda: not self.is_open, timeout_ms)  # fmt: skip

    def send_refused(self, timeout_ms: int = SEND_TIMEOUT_MS) -> str:
        """Press Send expecting a refusal: the dialog's error, the dialog still open."""
        dialog = self._open()
        click(self.qtbot, dialog.send_button)

        def refused() -> bool:
            return self.is_open and dialog.status.property("role") == "error" and self.status != ""

        self.expect("send_refused", "a refusal said in the dialog", refused, timeout_ms)
        return self.status

    def cancel(self) -> None:
        click(self.qtbot, self._open().cancel_button)
        self.expect("cancel", "the dialog closed", lambda: not self.is_open)
