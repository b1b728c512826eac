"""The QR scan dialog (app/ui/dialogs/qr_scan_dialog.py) as a user drives it: image files read
(the file question answered by the page, as a user picks them), the progress and refusals it
says, the export written into the folder asked for; camera frames when a `fake_camera` gives
it a feed.

    scan = files.scan_qr()                         # "Scan QR…" pressed on a tab
    payload = scan.read_whole(frame_pngs, folder)  # read until whole, written to `folder`

The dialog is not announced on `AppContext.dialog_opened` (it is opened by the tab's own task):
`open_qr_scan` finds it among the visible top-level windows."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QObject
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QWidget

from app.core.animated_qr import Payload
from app.ui import strings
from app.ui.dialogs.qr_scan_dialog import QrScanDialog
from app.ui.qa.actions import click
from app.ui.qa.app import DialogPage, Page
from app.ui.qa.expect import ScenarioFailure, expect
from app.ui.qa.said import MessageWatch

if TYPE_CHECKING:
    from PySide6.QtMultimedia import QVideoSink

    from app.ui.qa.app import App

NAME = "QR scan"
OPEN_TIMEOUT_MS = 10_000
READ_TIMEOUT_MS = 60_000  # every image read by zxing-cpp off the GUI thread, the export checked


def scan_dialogs() -> list[QrScanDialog]:
    return [
        w
        for w in QApplication.topLevelWidgets()
        if isinstance(w, QrScanDialog) and shiboken6.isValid(w) and w.isVisible()
    ]


def open_qr_scan(
    app: App, opener: Page | None = None, action: str = "open", timeout_ms: int = OPEN_TIMEOUT_MS
) -> QrScanPage:
    """The scan dialog shown (the only one); a failure names `opener`'s page and `action`."""
    page = opener.name if opener is not None else NAME
    shown = opener.shown if opener is not None else lambda: ""
    expect(app.qtbot, page, action, "the QR scan dialog to open", lambda: len(scan_dialogs()) == 1,
           shown=shown, timeout_ms=timeout_ms)  # fmt: skip
    return QrScanPage(app, scan_dialogs()[0])


@dataclass
class FakeCamera:
    """A camera without hardware: the scan dialogs opened within `fake_camera()` find it, and
    their feed is a real QVideoSink (`sinks`, one per Start camera) the page films frames on."""

    sinks: list[QVideoSink] = field(default_factory=list)


@contextmanager
def fake_camera() -> Iterator[FakeCamera]:
    """Within: every QR scan dialog opened finds a camera whose frames the page gives
    (`QrScanPage.film`). Qt Multimedia is loaded here (it brings FFmpeg)."""
    from PySide6.QtMultimedia import QCameraDevice, QVideoSink

    from app.ui.dialogs.qr_scan_sources import CameraFeed

    camera = FakeCamera()

    def open_camera(device: QCameraDevice, parent: QObject) -> CameraFeed:
        camera.sinks.append(QVideoSink(parent))
        return CameraFeed(camera.sinks[-1])

    originals = QrScanDialog.__dict__["find_camera"], QrScanDialog.__dict__["open_camera"]
    QrScanDialog.find_camera = staticmethod(lambda: (QCameraDevice(), ""))
    QrScanDialog.open_camera = staticmethod(open_camera)
    try:
        yield camera
    finally:
        QrScanDialog.find_camera, QrScanDialog.open_camera = originals


class QrScanPage(DialogPage[QrScanDialog]):
    """One open QR scan dialog. After a scan: `payload` (what was read), `folder` (where an
    export was written and checked)."""

    name = NAME

    def __init__(self, app: App, dialog: QrScanDialog) -> None:
        super().__init__(app, dialog)
        self.folders_asked: list[str] = []  # the folder questions' titles, in order
        # Kept when it closes: the tab deletes the dialog once it has its result.
        self._payload: Payload | None = dialog.payload
        self._folder: Path | None = dialog.folder
        dialog.finished.connect(self._keep_result)

    def _keep_result(self, *_: object) -> None:
        self._payload, self._folder = self.dialog.payload, self.dialog.folder

    # -- what it says -----------------------------------------------------------------------

    @property
    def progress(self) -> str:
        """The line under the bar ("3 of 7 frames read.")."""
        return self._open().progress_label.text()

    @property
    def status(self) -> str:
        """What the last read or write said ("" for nothing)."""
        dialog = self._open()
        return dialog.status.text() if dialog.status.isVisibleTo(dialog) else ""

    def refusals(self) -> list[str]:
        """The refused codes and unreadable images, as listed."""
        box = self._open().refusals
        return [box.item(i).text() for i in range(box.count())]

    @property
    def payload(self) -> Payload | None:
        """What was read whole (None before)."""
        return self.dialog.payload if shiboken6.isValid(self.dialog) else self._payload

    @property
    def folder(self) -> Path | None:
        """Where the export was written (None before, or for a PSBT)."""
        return self.dialog.folder if shiboken6.isValid(self.dialog) else self._folder

    @property
    def can_read(self) -> bool:
        return self._open().files_button.isEnabled()

    # -- what a user does -------------------------------------------------------------------

    def read_files(self, paths: Sequence[Path], folder: Path | None = None) -> str:
        """Press "From image files…" and pick `paths`; a whole export is written to `folder`
        (the folder question answered; None: that question closed unanswered). What the
        dialog says once the files are read: "" when the code was read and the dialog closed,
        else its status ("7 images read, no QR code in 1.", a write refused...)."""
        dialog = self._open()
        picked = list(paths)

        async def answer_images(parent: QWidget) -> list[Path]:
            return picked

        dialog.ask_image_paths = answer_images  # an instance's own: the class's stays
        self._answer_folder(folder)
        watch = MessageWatch(dialog, [dialog.status])
        said: list[str] = []

        def ended() -> bool:
            if not self.is_open:
                return True
            new = watch.new(("hint", "error"))
            said.extend([] if new is None else [new])
            unanswered = folder is None and bool(self.folders_asked)  # the export not written
            return (bool(said) or unanswered) and not dialog.reading

        click(self.qtbot, dialog.files_button)
        self.expect("read_files", "the files read (the dialog closed or a status)", ended,
                    READ_TIMEOUT_MS)  # fmt: skip
        return "" if not self.is_open else self.status

    def read_whole(self, paths: Sequence[Path], folder: Path | None = None) -> Payload:
        """`read_files`, expecting the code whole (and an export written to `folder`): the
        payload read; ScenarioFailure quoting the dialog otherwise."""
        return self._whole("read_whole", self.read_files(paths, folder), folder)

    def film_whole(
        self, camera: FakeCamera, frames: Sequence[QImage], folder: Path | None = None
    ) -> Payload:
        """`film`, expecting the code whole (and an export written to `folder`): the payload
        read; ScenarioFailure quoting the dialog otherwise."""
        return self._whole("film_whole", self.film(camera, frames, folder), folder)

    def _whole(self, action: str, said: str, folder: Path | None) -> Payload:
        payload = self.payload
        if self.is_open or payload is None:
            shown = "the dialog closed"
            if self.is_open:
                shown = f"{self.status or said!r}, {self.progress!r}, refused {self.refusals()}"
            raise ScenarioFailure(
                f"{self.name} page, {action}: expected the code read whole; it shows: {shown}"
            )
        if folder is not None and self.folders_asked != [strings.QR_SCAN_FOLDER_TITLE]:
            raise ScenarioFailure(
                f"{self.name} page, {action}: expected the question"
                f" {strings.QR_SCAN_FOLDER_TITLE!r}; asked {self.folders_asked}"
            )
        return payload

    def film(self, camera: FakeCamera, frames: Sequence[QImage], folder: Path | None = None) -> str:
        """Press Start camera and show it `frames`, one after the other, each once the one
        before is read (as a camera's frames come while the code is on screen), until the
        code is whole (a PSBT: the dialog closes; an export: written to `folder`, the question
        answered, then it closes). What the progress line says after the last frame read
        ("" once the dialog closed; a write refused: `status`)."""
        from PySide6.QtMultimedia import QVideoFrame

        dialog = self._open()
        self._answer_folder(folder)
        before = len(camera.sinks)
        click(self.qtbot, dialog.camera_button)
        self.expect("film", "the camera on", lambda: len(camera.sinks) > before, 2_000)
        sink = camera.sinks[-1]
        for n, image in enumerate(frames, start=1):
            if self.payload is not None:
                break
            self.expect("film", f"frame {n} taken", lambda: not dialog.reading, READ_TIMEOUT_MS)
            sink.setVideoFrame(QVideoFrame(image))
            done = lambda: not self.is_open or not dialog.reading  # noqa: E731
            self.expect("film", f"frame {n} read", done, READ_TIMEOUT_MS)
        if self.payload is not None and folder is not None:  # an export: written, or refused

            def written() -> bool:
                return not self.is_open or dialog.status.property("role") == "error"

            self.expect("film", f"the export written to {folder}", written, READ_TIMEOUT_MS)
        return self.progress if self.is_open else ""

    def _answer_folder(self, folder: Path | None) -> None:
        """The folder question (where a whole export is written) answered with `folder`
        (None: closed unanswered); each question's title kept in `folders_asked`."""

        async def answer(parent: QWidget, title: str) -> Path | None:
            self.folders_asked.append(title)
            return folder

        self._open().ask_folder = answer  # an instance's own: the class's stays

    def close(self) -> None:
        """Press Close: nothing is written (a live source stops)."""
        box = self._open().findChild(QDialogButtonBox)
        assert box is not None
        click(self.qtbot, box.button(QDialogButtonBox.StandardButton.Close))
        self.expect("close", "the dialog closed", lambda: not self.is_open)
