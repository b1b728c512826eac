"""Scanning an animated QR code (BBQr or UR) into an export folder or a single PSBT.

Frames come from image files (saved frames, photos), from the screen (a region, typed or dragged
over the screen (qr_region_overlay.py), grabbed at intervals: a phone mirrored there, another
app's window) or from a camera when Qt Multimedia finds one (the sources: qr_scan_sources.py).
Each image is read (zxing-cpp, app/services/qr_images.py) and its codes given to the
one decoder (app/core/animated_qr.py) off the GUI thread, one image at a time; a refused code is
said and the scan goes on. A complete export is written into an empty folder the user chooses
by `write_scanned_export`, which reads it back with the file import's own checks: the caller
then opens that folder exactly as one picked from disk. A single PSBT is returned as bytes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QRect, QTimer
from PySide6.QtGui import QGuiApplication, QImage
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core.animated_qr import AnimatedQrDecoder, Payload, PayloadKind
from app.ui import strings
from app.ui.async_tools import async_slot, exec_dialog, run_blocking
from app.ui.dialogs.qr_region_overlay import RegionOverlay, aside_of
from app.ui.dialogs.qr_scan_sources import (
    CameraFeed,
    Grab,
    ImageRead,
    ask_image_paths,
    find_camera,
    format_region,
    grab_screen,
    open_camera,
    parse_region,
    progress_text,
    read_into,
    refusal_text,
)
from app.ui.file_dialogs import ask_folder
from app.ui.icons import icon_button, set_themed_icon
from app.ui.widgets import message_label, set_message

if TYPE_CHECKING:
    from PySide6.QtMultimedia import QCamera, QVideoFrame


__all__ = [  # the sources' names, imported from here by callers and tests
    "SCAN_ICON",
    "ImageRead",
    "QrScanDialog",
    "ScanButton",
    "find_camera",
    "parse_region",
    "read_into",
    "scan_export",
    "scan_export_or_psbt",
]

SCAN_ICON = "scan-qr"
DIALOG_WIDTH = 680  # the region field, its two buttons and its hint on one line
SCREEN_INTERVAL_MS = 250  # 4 grabs a second: a code shown at 5-10 fps loops round within seconds
MAX_REFUSALS_SHOWN = 50
HIDDEN_BEFORE_GRAB_S = 0.2  # the window manager takes the hidden dialog off the screen first


def intro_text(accept: frozenset[PayloadKind], signed_back: bool = False) -> str:
    """What the dialog asks for: an export, what comes back signed for an export of this window
    (another wallet's PSBT or the offline signer's signed export), or either."""
    if signed_back or accept == frozenset({PayloadKind.PSBT}):
        return strings.QR_SCAN_INTRO_PSBT
    if accept == frozenset({PayloadKind.EXPORT}):
        return strings.QR_SCAN_INTRO_EXPORT
    return strings.QR_SCAN_INTRO_ANY


class QrScanDialog(QDialog):
    """Reads one animated code. Afterwards `payload` is what was read and, for an export,
    `folder` where it was written and checked (None: closed before). `signed_back`: what comes
    back signed for an export already in a folder, a PSBT or an export bundle, returned as read
    (the caller checks it against that export; nothing is written here)."""

    # Chosen by the user (tests monkeypatch them on the class).
    ask_image_paths = staticmethod(ask_image_paths)
    ask_folder = staticmethod(ask_folder)
    # The camera: looked for when the dialog opens, opened by its button (tests give a device
    # and a feed without one, then set real video frames on the feed's sink).
    find_camera = staticmethod(find_camera)
    open_camera = staticmethod(open_camera)

    def __init__(
        self,
        accept: frozenset[PayloadKind],
        parent: QWidget | None = None,
        grab: Grab = grab_screen,
        signed_back: bool = False,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(strings.QR_SCAN_TITLE)
        self.decoder = AnimatedQrDecoder(accept)
        self._signed_back = signed_back
        self.payload: Payload | None = None
        self.folder: Path | None = None
        self._grab = grab
        self._region: QRect | None = None
        self._reading = False  # a live source drops frames while one is read
        self._decoding = asyncio.Lock()
        self.closed = False  # a plain attribute: still readable once the C++ dialog is gone
        self.camera_feed: CameraFeed | None = None  # while the camera is on
        self.region_overlay: RegionOverlay | None = None  # while a region is being dragged
        self._refusals: set[str] = set()

        intro = message_label("hint")
        intro.setText(intro_text(accept, signed_back))
        self.files_button = icon_button("open", strings.QR_SCAN_FILES)
        self.region_edit = QLineEdit()
        self.region_edit.setPlaceholderText(strings.QR_SCAN_REGION_HINT)
        self.region_edit.setToolTip(strings.QR_SCAN_REGION_TIP)
        region_label = QLabel(strings.QR_SCAN_REGION)
        region_label.setBuddy(self.region_edit)
        self.region_button = QPushButton(strings.QR_SCAN_REGION_SELECT)
        self.region_button.setToolTip(strings.QR_SCAN_REGION_SELECT_TIP)
        self.screen_button = QPushButton(strings.QR_SCAN_SCREEN_START)
        self.camera_button = QPushButton(strings.QR_SCAN_CAMERA_START)
        self._camera_device, why_not = self.find_camera()
        if self._camera_device is None:
            self.camera_button.setEnabled(False)
            self.camera_button.setToolTip(why_not)
        self.progress_bar = QProgressBar()
        self.progress_bar.setRange(0, 1)
        self.progress_bar.setValue(0)
        self.progress_bar.setTextVisible(False)  # the line below says it in words
        self.progress_label = message_label("hint")
        self.progress_label.setText(strings.QR_SCAN_WAITING)
        self.status = message_label("hint")
        self.refusals = QListWidget()
        self.refusals.setMaximumHeight(90)
        self.refusals.setVisible(False)
        self.write_button = QPushButton(strings.QR_SCAN_WRITE)
        self.write_button.setVisible(False)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)

        sources = QHBoxLayout()
        sources.addWidget(self.files_button)
        sources.addWidget(self.camera_button)
        sources.addStretch(1)
        screen_row = QHBoxLayout()
        screen_row.addWidget(region_label)
        screen_row.addWidget(self.region_edit, 1)
        screen_row.addWidget(self.region_button)
        screen_row.addWidget(self.screen_button)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(sources)
        layout.addLayout(screen_row)
        layout.addWidget(self.progress_bar)
        layout.addWidget(self.progress_label)
        layout.addWidget(self.status)
        layout.addWidget(self.refusals)
        layout.addWidget(self.write_button)
        layout.addWidget(buttons)
        self.setMinimumWidth(DIALOG_WIDTH)
        margins = layout.contentsMargins()  # a wrapped label's height is a guess until told
        intro.setMinimumHeight(
            intro.heightForWidth(DIALOG_WIDTH - margins.left() - margins.right())
        )

        self._screen_timer = QTimer(self)
        self._screen_timer.setInterval(SCREEN_INTERVAL_MS)
        self._screen_timer.timeout.connect(self._grab_screen)
        self.files_button.clicked.connect(self.read_files)
        self.screen_button.clicked.connect(self._toggle_screen)
        self.region_button.clicked.connect(self.select_region)
        self.camera_button.clicked.connect(self._toggle_camera)
        self.write_button.clicked.connect(self.write_export)
        self.finished.connect(self._closing)

    def event(self, event: QEvent) -> bool:
        handled = super().event(event)
        if event.type() == QEvent.Type.LayoutRequest and self.isVisible():
            self._fit_height()
        return handled

    def _fit_height(self) -> None:
        """A line, the refusals or the Write button shown once the dialog is open get their
        room: Qt grows a window only to its minimum, which squeezes the wrapped labels until
        their lines overlap the buttons; the dialog grows to its layout's height instead."""
        layout = self.layout()
        needed = layout.totalHeightForWidth(self.width()) if layout is not None else 0
        if needed > self.height():
            self.resize(self.width(), needed)

    async def run(self) -> Payload | None:
        """Shown until the code is read (and, for an export, written) or closed."""
        accepted = await exec_dialog(self) == QDialog.DialogCode.Accepted
        return self.payload if accepted else None

    # -- sources ----------------------------------------------------------------------------

    @async_slot()
    async def read_files(self) -> None:
        paths = await self.ask_image_paths(self)
        empty = 0
        for path in paths:
            if self.payload is not None:
                break
            read = await self.read_image(path)
            if self.closed:
                return
            if read is None:
                self._refuse(strings.QR_SCAN_NO_IMAGE.format(name=path.name))
            elif read.codes == 0:
                empty += 1
        if paths and self.payload is None:
            text = strings.counted(strings.QR_SCAN_IMAGES_READ, len(paths), empty=empty)
            set_message(self.status, text, "hint")

    def _toggle_screen(self) -> None:
        if self._screen_timer.isActive():
            self._screen_timer.stop()
            self.screen_button.setText(strings.QR_SCAN_SCREEN_START)
            return
        try:
            self._region = parse_region(self.region_edit.text())
        except ValueError as exc:
            set_message(self.status, str(exc))
            return
        set_message(self.status, "", "hint")
        self.screen_button.setText(strings.QR_SCAN_SCREEN_STOP)
        self.keep_clear_of(self._region)
        self._screen_timer.start()
        self._grab_screen()

    @async_slot()
    async def select_region(self) -> None:
        """The region dragged over a grab of the screen (this dialog hidden from it) fills the
        region field, and the screen is read there; Esc leaves everything as it was. A screen
        reading pauses meanwhile (it would read the overlay)."""
        was_reading = self.reading_screen
        self._screen_timer.stop()
        self.hide()
        try:
            await asyncio.sleep(HIDDEN_BEFORE_GRAB_S)
            shot = self._grab(None)
            self.region_overlay = RegionOverlay(QGuiApplication.primaryScreen(), shot)
            region = await self.region_overlay.choose()
        finally:
            self.region_overlay = None
            if not self.closed:
                self.show()
                self.raise_()
                self.activateWindow()
        if self.closed or self.payload is not None:
            return
        if region is not None:
            self.region_edit.setText(format_region(region))
            self._region = region
        if region is not None or was_reading:
            self._screen_timer.start()
            self.screen_button.setText(strings.QR_SCAN_SCREEN_STOP)
            set_message(self.status, "", "hint")
            self.keep_clear_of(self._region)

    def keep_clear_of(self, region: QRect | None) -> None:
        """This dialog moved off the region it reads (it would hide the code); if the screen
        has no room for that, the user is asked to move it."""
        screen = self.screen()
        if region is None or screen is None or not self.frameGeometry().intersects(region):
            return
        self.move(aside_of(self.frameGeometry(), region, screen.availableGeometry()))
        if self.frameGeometry().intersects(region):
            set_message(self.status, strings.QR_SCAN_REGION_COVERED, "hint")

    @property
    def reading_screen(self) -> bool:
        return self._screen_timer.isActive()

    def _grab_screen(self) -> None:
        if not self._reading and self.payload is None:
            self._read_frame(self._grab(self._region))

    def _toggle_camera(self) -> None:
        if self.camera_feed is not None or self._camera_device is None:
            self._stop_camera()  # (no device: the button is disabled)
            return
        feed = self.open_camera(self._camera_device, self)
        feed.sink.videoFrameChanged.connect(self._read_frame)
        if feed.camera is not None:
            feed.camera.errorOccurred.connect(self._camera_failed)
        self.camera_feed = feed
        self.camera_button.setText(strings.QR_SCAN_CAMERA_STOP)
        set_message(self.status, "", "hint")
        feed.start()

    def _camera_failed(self, _error: QCamera.Error, reason: str) -> None:
        self._stop_camera()
        set_message(self.status, strings.QR_SCAN_CAMERA_FAILED.format(reason=reason))

    def _stop_camera(self) -> None:
        feed, self.camera_feed = self.camera_feed, None
        if feed is not None:
            feed.sink.videoFrameChanged.disconnect(self._read_frame)  # a late frame is not read
            feed.stop()
            self.camera_button.setText(strings.QR_SCAN_CAMERA_START)

    def _closing(self, *_: object) -> None:
        self.closed = True
        self._stop_sources()

    def _stop_sources(self) -> None:
        self._screen_timer.stop()
        self._stop_camera()

    @property
    def reading(self) -> bool:
        """An image is being read (a live source's frames are dropped meanwhile)."""
        return self._reading

    @async_slot()
    async def _read_frame_task(self, image: QImage | QVideoFrame) -> None:
        await self.read_image(image)

    def _read_frame(self, image: QImage | QVideoFrame) -> None:
        """A grabbed or filmed frame, read unless one is being read (a live source drops
        frames; a camera frame is converted to an image off the GUI thread, as it is read)."""
        if not self._reading and self.payload is None:
            self._reading = True  # taken now: the next tick may come before the task starts
            self._read_frame_task(image)

    # -- decoding ---------------------------------------------------------------------------

    async def read_image(self, image: QImage | Path | QVideoFrame) -> ImageRead | None:
        """`image` read into the decoder; None once the dialog is closed (its widgets may be
        gone: the read that was under way is dropped)."""
        self._reading = True
        try:
            async with self._decoding:  # files and a live source never share the decoder
                read = None if self.closed else await run_blocking(read_into, self.decoder, image)
        finally:
            self._reading = False
        if self.closed:
            return None
        for exc in read.refused if read else ():
            self._refuse(refusal_text(exc))
        self._show_progress()
        if self.decoder.result is not None and self.payload is None:
            await self._complete(self.decoder.result)
        return read

    def _refuse(self, text: str) -> None:
        if text in self._refusals or len(self._refusals) >= MAX_REFUSALS_SHOWN:
            return  # a code left on screen is refused once, not at every grab
        self._refusals.add(text)
        self.refusals.addItem(text)
        self.refusals.scrollToBottom()
        self.refusals.setVisible(True)

    def _show_progress(self) -> None:
        progress = self.decoder.progress
        self.progress_bar.setRange(0, max(progress.needed, 1))
        self.progress_bar.setValue(progress.received)
        self.progress_label.setText(progress_text(progress))

    async def _complete(self, payload: Payload) -> None:
        self.payload = payload
        self._stop_sources()
        self.screen_button.setText(strings.QR_SCAN_SCREEN_START)
        buttons = (self.files_button, self.screen_button, self.region_button, self.camera_button)
        for button in buttons:
            button.setEnabled(False)
        if payload.kind is PayloadKind.PSBT or self._signed_back:
            self.accept()
            return
        needed = self.decoder.progress.needed
        set_message(self.status, strings.counted(strings.QR_SCAN_COMPLETE_EXPORT, needed), "ok")
        self.write_button.setVisible(True)
        await self.write_export()

    @async_slot()
    async def write_export(self) -> None:
        """The complete export written into an empty folder and read back by the import's
        checks; a refusal (a folder not empty, a file failing its digest) is said here."""
        from app.services.errors import ServiceError
        from app.services.offline_qr import write_scanned_export

        if self.payload is None:
            return
        folder = await self.ask_folder(self, strings.QR_SCAN_FOLDER_TITLE)
        if folder is None:
            return
        try:
            await run_blocking(write_scanned_export, folder, self.payload)
        except (ServiceError, OSError) as exc:
            reason = exc.user_message if isinstance(exc, ServiceError) else str(exc)
            set_message(self.status, strings.QR_SCAN_WRITE_FAILED.format(reason=reason))
            return
        self.folder = folder
        self.accept()


async def scan_export(parent: QWidget, grab: Grab = grab_screen) -> Path | None:
    """An export scanned and written to a folder (checked as an import checks it), or None."""
    dialog = QrScanDialog(frozenset({PayloadKind.EXPORT}), parent, grab)
    try:
        return dialog.folder if await dialog.run() is not None else None
    finally:
        dialog.deleteLater()


async def scan_export_or_psbt(parent: QWidget) -> tuple[Path | None, bytes | None]:
    """(the folder of a scanned export, None) or (None, a scanned PSBT); (None, None) if
    the user closed the dialog."""
    dialog = QrScanDialog(frozenset(PayloadKind), parent)
    try:
        payload = await dialog.run()
    finally:
        dialog.deleteLater()
    if payload is None:
        return None, None
    return (dialog.folder, None) if payload.kind is PayloadKind.EXPORT else (None, payload.data)


class ScanButton(QPushButton):
    """ "Scan QR…" beside an Import button: an export read from an animated QR code into a
    folder, then `then(folder)`, the very step a folder picked from disk goes to."""

    def __init__(self, parent: QWidget, then: Callable[[Path], Awaitable[object]]) -> None:
        super().__init__(strings.QR_SCAN_BUTTON, parent)
        self.setToolTip(strings.QR_SCAN_BUTTON_TIP)
        set_themed_icon(self, SCAN_ICON)
        self._then = then
        self.clicked.connect(self.scan)

    @async_slot()
    async def scan(self) -> None:
        folder = await scan_export(self.parentWidget() or self)
        if folder is not None:
            await self._then(folder)
