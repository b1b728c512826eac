"""The `--offline` window's PSBT files tab (app/ui/tabs/psbt_files_tab.py) as the signer uses
it: an export opened (its manifest picked; the file question answered by the page, as a user
picks it), its set reviewed in the review dialog, signed with the stored key (the password asked
first when locked), the outcome said under the buttons; "Scan QR…" and "Show signed as QR…".

    offline = open_offline_app(qtbot, bidwallet_open_app, bidwallet_options, bidwallet_loop)
    files = offline.psbt_files
    files.open_export(folder)                      # "2 PSBTs for secure listing in ..."
    assert files.sign() == strings.counted(strings.OFFLINE_SIGNED, 2, folder=folder)
    assert files.show_signed_qr().frames_until_whole() == signed_payload(folder)
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtGui import QImage
from PySide6.QtWidgets import QAbstractButton, QWidget
from pytestqt.qtbot import QtBot

from app.ui.context import AppOptions
from app.ui.offline_signing import MANIFEST_NAME
from app.ui.qa.actions import click
from app.ui.qa.app import App, Page
from app.ui.qa.expect import ScenarioFailure
from app.ui.qa.harness import AppHarness
from app.ui.qa.pages.form_steps import click_and_track
from app.ui.qa.profiles import PASSWORD, READY_TIMEOUT_MS
from app.ui.qa.said import MessageWatch
from app.ui.tabs.psbt_files_tab import PsbtFilesTab

if TYPE_CHECKING:
    from app.ui.qa.pages.qr_scan import FakeCamera, QrScanPage
    from app.ui.qa.pages.qr_show import QrShowPage
    from app.ui.qa.pages.review import ReviewPage

OPEN_TIMEOUT_MS = 10_000  # a manifest and its PSBTs read off the GUI thread
SIGN_TIMEOUT_MS = 60_000  # every PSBT signed and written


def open_offline_app(
    qtbot: QtBot,
    open_app: Callable[[AppOptions], AppHarness],
    options: Callable[..., AppOptions],
    loop: asyncio.AbstractEventLoop,
) -> App:
    """The `--offline` window (no network client) on the test's data directory, started."""
    harness = open_app(options(offline=True))
    qtbot.waitSignal(harness.window.controller.ready, timeout=READY_TIMEOUT_MS).wait()
    return App(harness, qtbot, loop)


class PsbtFilesPage(Page):
    name = "PSBT files"

    @property
    def widget(self) -> PsbtFilesTab:
        tab = self.app.window.tab("psbt_files")
        assert isinstance(tab, PsbtFilesTab)
        return tab

    # -- what it says -----------------------------------------------------------------------

    @property
    def file_status(self) -> str:
        """The line about what is open ("2 PSBTs for secure listing in ...", a refusal)."""
        return self.widget.file_status.text()

    @property
    def outcome(self) -> str:
        """The line under it: the next step, or how signing ended ("" when hidden)."""
        label = self.widget.review_status
        return label.text() if label.isVisibleTo(self.widget) else ""

    @property
    def outcome_role(self) -> str:
        """ "ok", "error" or "hint": how the outcome line is styled."""
        return str(self.widget.review_status.property("role"))

    @property
    def export_folder(self) -> Path | None:
        return self.widget.export_folder

    @property
    def can_review(self) -> bool:
        return self.widget.review_button.isEnabled()

    @property
    def can_save(self) -> bool:
        return self.widget.save_button.isEnabled()

    @property
    def can_show_signed(self) -> bool:
        return self.widget.qr_signed_button.isEnabled()

    # -- opening ----------------------------------------------------------------------------

    def open_file(self, path: Path) -> str:
        """Press Open… and pick `path` (an export's manifest.json or any PSBT file): what the
        tab says of it once read (the file line; for a lone PSBT, the line says it is not
        signed here)."""
        with self._answered("open_file", path):
            read = click_and_track(self, self.widget.open_button)
            self.expect("open_file", f"{path.name} read", read, OPEN_TIMEOUT_MS)
        return self.file_status

    def open_export(self, folder: Path) -> str:
        """Open the export in `folder` (its manifest picked): the file line ("2 PSBTs for
        secure listing in ..."); ScenarioFailure quoting the tab unless it opened."""
        said = self.open_file(folder / MANIFEST_NAME)
        if self.export_folder != folder:
            raise ScenarioFailure(
                f"{self.name} page, open_export: expected the export in {folder} open;"
                f" it shows: {self.shown()}"
            )
        return said

    # -- reviewing and signing --------------------------------------------------------------

    def start_review(self, password: str | None = PASSWORD) -> ReviewPage:
        """Press Review and sign: the password prompt answered with `password` if the key is
        locked (None: expect it unlocked), then the review of the export's set."""
        before = len(self.app.harness.dialogs)
        locked = not self.app.context.wallet_lock.unlocked
        if not self.can_review:
            raise ScenarioFailure(
                f"{self.name} page, start_review: expected Review and sign enabled;"
                f" it shows: {self.shown()}"
            )
        click(self.qtbot, self.widget.review_button)
        if locked:
            if password is None:
                raise ScenarioFailure(
                    f"{self.name} page, start_review: expected the key unlocked; it is locked"
                )
            said = self.app.unlock_prompt(before).unlock(password)
            if said is not None:
                raise ScenarioFailure(
                    f"{self.name} page, start_review: expected the key unlocked; the prompt"
                    f" says {said!r}"
                )
        return self.app.review(before)

    def sign(self, password: str | None = PASSWORD) -> str:
        """Review and sign the export's set, approved: the outcome line once signed and
        written ("2 PSBTs signed ... in <folder>") or why not."""
        review = self.start_review(password)
        return self.approve(review)

    def approve(self, review: ReviewPage, timeout_ms: int = SIGN_TIMEOUT_MS) -> str:
        """Press Sign in `review` (this tab's): the outcome line once signing ended."""
        said = review.approve(timeout_ms=timeout_ms)
        self.expect("approve", "signing ended", lambda: self.widget.review_button.isEnabled(),
                    timeout_ms)  # fmt: skip
        return said

    # -- QR codes ---------------------------------------------------------------------------

    def scan_qr(self) -> QrScanPage:
        """Press Scan QR…: the scan dialog (an export is then opened as picked from disk; a
        lone PSBT saved where asked: `scan_psbt`)."""
        from app.ui.qa.pages.qr_scan import open_qr_scan

        click(self.qtbot, self.widget.scan_button)
        return open_qr_scan(self.app, self, "scan_qr")

    def scan_export(
        self, images: Sequence[Path], folder: Path, camera: FakeCamera | None = None
    ) -> str:
        """Scan the export drawn in `images` (picked as files; given `camera`, filmed) into
        the empty `folder`: the file line once the tab opened it (as `open_export`)."""
        tab = self.widget
        watch = MessageWatch(tab, [tab.file_status])
        self._scan_whole(images, folder, camera)
        self.expect("scan_export", f"the export in {folder} open",
                    lambda: watch.new(("ok", "error")) is not None and self.export_folder == folder,
                    OPEN_TIMEOUT_MS)  # fmt: skip
        return self.file_status

    def scan_psbt(
        self, images: Sequence[Path], save_as: Path, camera: FakeCamera | None = None
    ) -> Path:
        """Scan one PSBT drawn in `images` (picked as files; given `camera`, filmed), saved
        as `save_as` when the tab asks where (then opened as that file): the path the tab
        proposed."""
        tab = self.widget
        proposed: list[Path] = []

        async def answer(parent: QWidget, suggested: Path) -> Path | None:
            proposed.append(suggested)
            return save_as

        tab.ask_save_path = answer  # type: ignore[method-assign]  # an instance's own
        try:
            self._scan_whole(images, None, camera)
            self.expect("scan_psbt", f"{save_as.name} opened",
                        lambda: tab.loaded is not None and tab.loaded.path == save_as,
                        OPEN_TIMEOUT_MS)  # fmt: skip
        finally:
            del tab.ask_save_path
        return proposed[0]

    def _scan_whole(
        self, images: Sequence[Path], folder: Path | None, camera: FakeCamera | None
    ) -> None:
        scan = self.scan_qr()
        if camera is None:
            scan.read_whole(images, folder)
        else:
            scan.film_whole(camera, [QImage(str(path)) for path in images], folder)

    def show_signed_qr(self) -> QrShowPage:
        """Press Show signed as QR…: the signed set as an animated QR code, for the online
        window to scan."""
        return self._show_qr(self.widget.qr_signed_button, "show_signed_qr")

    def _show_qr(self, button: QAbstractButton, action: str) -> QrShowPage:
        from app.ui.qa.pages.qr_show import open_qr_show

        if not button.isEnabled():
            raise ScenarioFailure(
                f"{self.name} page, {action}: expected {button.text()!r} enabled (nothing"
                f" signed yet?); it shows: {self.shown()}"
            )
        before = len(self.app.harness.dialogs)
        click(self.qtbot, button)
        return open_qr_show(self.app, before)

    @contextmanager
    def _answered(self, action: str, path: Path) -> Iterator[None]:
        """Within: the tab's file question answered with `path`; it must be asked, once."""
        tab = self.widget
        asked: list[bool] = []

        async def answer(parent: QWidget) -> Path | None:
            asked.append(True)
            return path

        tab.ask_open_path = answer  # type: ignore[method-assign]  # an instance's own
        try:
            yield
        finally:
            del tab.ask_open_path
        if len(asked) != 1:
            raise ScenarioFailure(
                f"{self.name} page, {action}: expected the file question asked once;"
                f" asked {len(asked)} times"
            )
