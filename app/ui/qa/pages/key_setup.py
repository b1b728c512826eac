"""Key setup (app/ui/dialogs/key_setup.py and its pages) as a user goes through it: a new
phrase (the words shown once, some typed back), an imported phrase with its wallet's layout
picked in the preview table, a WIF, or watch-only; then the password (Finish).

    setup = app.key_setup()
    words = setup.new_phrase()                     # the 12 words shown
    setup.wrote_them_down()
    assert setup.confirm_words(words) == ""        # "" : on to the password
    assert setup.finish_with_password(PASSWORD) == ""   # "" : saved, the dialog closed

Each step returns what a refusal says ("" when the dialog moved on)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

from app.ui.dialogs.key_choose_page import KeyKind
from app.ui.dialogs.key_setup import KeySetupDialog
from app.ui.qa.actions import click
from app.ui.qa.app import DialogPage
from app.ui.qa.expect import DEFAULT_TIMEOUT_MS, ScenarioFailure
from app.ui.qa.pages.form_steps import click_and_track, newest_dialog, replace_text
from app.ui.qa.profiles import PASSWORD

if TYPE_CHECKING:
    from app.services.key_setup import PreviewRow
    from app.ui.qa.app import App

NAME = "Key setup"
STEP_TIMEOUT_MS = 20_000  # a phrase made, a preview derived, the vault's KDF (cheap in tests)


def open_key_setup(app: App, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> KeySetupPage:
    """The newest key-setup dialog the window opened, once shown."""
    dialog = newest_dialog(app, NAME, "the key-setup dialog", KeySetupDialog, None, timeout_ms)
    return KeySetupPage(app, dialog)


class KeySetupPage(DialogPage[KeySetupDialog]):
    name = NAME

    @property
    def can_go_next(self) -> bool:
        """Next (or Finish) is enabled."""
        return self._open().next_button.isEnabled()

    @property
    def step(self) -> QWidget:
        """The page of the dialog shown now (compare with `widget.password_page`, ...)."""
        return self._open().page

    # -- choosing ---------------------------------------------------------------------------

    def choose(self, kind: KeyKind) -> None:
        """Tick `kind` on the first page and press Next: its page shown."""
        dialog = self._open()
        click(self.qtbot, dialog.choose_page.radios[kind])
        target = {
            KeyKind.CREATE: dialog.create_page,
            KeyKind.IMPORT: dialog.import_page,
            KeyKind.WIF: dialog.wif_page,
            KeyKind.WATCH: dialog.watch_page,
        }[kind]
        click(self.qtbot, dialog.next_button)
        shown = lambda: dialog.page is target  # noqa: E731
        self.expect(f"choose({kind.value})", f"the {kind.value} page", shown, STEP_TIMEOUT_MS)

    # -- a new phrase -----------------------------------------------------------------------

    def new_phrase(self) -> list[str]:
        """Choose "Create a new wallet": the words shown, in order (read from the labels)."""
        self.choose(KeyKind.CREATE)
        page = self.dialog.create_page
        self.expect("new_phrase", "the words shown", lambda: bool(page.words), STEP_TIMEOUT_MS)
        shown = [page.findChild(QLabel, f"word{n}") for n in range(1, len(page.words) + 1)]
        return [label.text().split(". ", 1)[1] for label in shown if label is not None]

    def wrote_them_down(self) -> None:
        """Tick "I have written them down" and press Next: the words asked back."""
        dialog = self._open()
        click(self.qtbot, dialog.create_page.wrote_them)
        self._next("wrote_them_down", lambda: dialog.page is dialog.confirm_page)

    @property
    def positions_asked(self) -> list[int]:
        """The word numbers the confirm page asks for (1-based)."""
        return list(self._open().confirm_page.positions)

    def confirm_words(self, words: Sequence[str], typed: dict[int, str] | None = None) -> str:
        """Type the words asked for, taken from the phrase `words` (or, for a number in
        `typed`, that text instead), and press Next: "" once on the password page, else the
        refusal ("Word 3 does not match.")."""
        dialog = self._open()
        confirm = dialog.confirm_page
        for number, edit in zip(confirm.positions, confirm.edits, strict=True):
            text = (typed or {}).get(number, words[number - 1])
            replace_text(self.qtbot, edit, text)
        return self._next_or_refusal(
            "confirm_words", lambda: dialog.page is dialog.password_page, confirm.error
        )

    # -- importing --------------------------------------------------------------------------

    def import_phrase(self, phrase: str, passphrase: str = "") -> list[PreviewRow]:
        """Choose "Import", type `phrase` (and a passphrase): the layouts' addresses shown in
        the preview table, one row per wallet; ScenarioFailure quoting a refusal."""
        if self.dialog.page is not self.dialog.import_page:
            self.choose(KeyKind.IMPORT)
        page = self.dialog.import_page
        if passphrase:
            replace_text(self.qtbot, page.passphrase, passphrase)
        # A preview starts by saying `changed` (then "Computing…"), and ends with
        # `preview_ready` or a refusal: one said before the typing is not taken for it.
        started: list[bool] = []
        ready: list[bool] = []
        page.changed.connect(lambda: started.append(True))
        page.preview_ready.connect(lambda: ready.append(True))
        page.mnemonic.setFocus()
        page.mnemonic.selectAll()
        self.qtbot.keyClicks(page.mnemonic, phrase)

        def shown() -> bool:
            refused = page.status.property("role") == "error" and page.status.isVisibleTo(page)
            return bool(ready) or (bool(started) and refused)

        self.expect("import_phrase", "the layouts' addresses", shown, STEP_TIMEOUT_MS)
        if not page.rows:
            raise ScenarioFailure(
                f"{self.name} page, import_phrase: expected the layouts' addresses; it shows:"
                f" {self.import_status!r}"
            )
        return list(page.rows)

    @property
    def import_status(self) -> str:
        """The import page's line ("Not a valid recovery phrase: ...", "Pick ...")."""
        return self._open().import_page.status.text()

    def pick_layout(self, preset_id: str) -> None:
        """Click the preview table's row of `preset_id` (e.g. "xverse-native"), then Next:
        the password page."""
        dialog = self._open()
        page = dialog.import_page
        ids = [row.preset_id for row in page.rows]
        if preset_id not in ids:
            raise ScenarioFailure(
                f"{self.name} page, pick_layout: expected a row {preset_id!r}; rows {ids}"
            )
        item = page.table.item(ids.index(preset_id), 0)
        assert item is not None
        cell = page.table.visualItemRect(item).center()
        self.qtbot.mouseClick(page.table.viewport(), Qt.MouseButton.LeftButton, pos=cell)
        self.expect("pick_layout", f"{preset_id} picked",
                    lambda: page.selected_preset() == preset_id, 1_000)  # fmt: skip
        self._next("pick_layout", lambda: dialog.page is dialog.password_page)

    def import_wif(self, wif: str) -> str:
        """Choose "Import a private key" (once), type `wif` over the field, Next: "" once on
        the password page, else the refusal."""
        if self.dialog.page is not self.dialog.wif_page:
            self.choose(KeyKind.WIF)
        dialog = self.dialog
        replace_text(self.qtbot, dialog.wif_page.wif, wif)
        return self._next_or_refusal(
            "import_wif", lambda: dialog.page is dialog.password_page, dialog.wif_page.error
        )

    # -- watch-only -------------------------------------------------------------------------

    def watch_only(self, payment: str, ordinals: str) -> str:
        """Choose "Watch-only" (once), type the payment and ordinals addresses or keys over
        the fields, Finish: "" once saved and closed, else the refusal shown."""
        if self.dialog.page is not self.dialog.watch_page:
            self.choose(KeyKind.WATCH)
        dialog = self.dialog
        page = dialog.watch_page
        replace_text(self.qtbot, page.payment, payment)
        replace_text(self.qtbot, page.ordinals, ordinals)
        return self._next_or_refusal("watch_only", lambda: not self.is_open, page.error)

    # -- the password -----------------------------------------------------------------------

    @property
    def password_strength(self) -> str:
        return self._open().password_page.strength.text()

    def finish_with_password(
        self, password: str = PASSWORD, confirm: str | None = None, remember: bool = False
    ) -> str:
        """Type `password` and its confirmation (`confirm`, else the same) over the fields,
        tick "Remember" if asked, Finish: "" once saved and the dialog closed, else the
        refusal ("The passwords do not match.")."""
        dialog = self._open()
        self.expect("finish_with_password", "the password page",
                    lambda: dialog.page is dialog.password_page, STEP_TIMEOUT_MS)  # fmt: skip
        page = dialog.password_page
        replace_text(self.qtbot, page.password, password)
        replace_text(self.qtbot, page.confirm, password if confirm is None else confirm)
        if remember and not page.remember.isChecked():
            click(self.qtbot, page.remember)
        return self._next_or_refusal("finish_with_password", lambda: not self.is_open, page.error)

    # -- helpers ----------------------------------------------------------------------------

    def _next(self, action: str, moved: Callable[[], bool]) -> None:
        said = self._next_or_refusal(action, moved, self.dialog.status)
        if said:
            raise ScenarioFailure(
                f"{self.name} page, {action}: expected the next step; it shows: error {said!r}"
            )

    def _next_or_refusal(self, action: str, moved: Callable[[], bool], error: QLabel) -> str:
        """Press Next (Finish) and wait until its step ran (the task the click started is
        done, so a refusal shown before is not taken for this one's); "" once `moved()`,
        else the refusal in `error` or the dialog's own line."""
        dialog = self._open()
        if not dialog.next_button.isEnabled():
            raise ScenarioFailure(
                f"{self.name} page, {action}: expected {dialog.next_button.text()!r} enabled;"
                f" it shows: {self.shown()}"
            )
        ran = click_and_track(self, dialog.next_button)

        def refusal() -> str:
            for label in (error, dialog.status):
                if label.isVisibleTo(dialog) and label.property("role") == "error":
                    return label.text()
            return ""

        def answered() -> bool:
            return moved() or ran()

        self.expect(action, "the next step or a refusal", answered, STEP_TIMEOUT_MS)
        return "" if moved() else refusal()
