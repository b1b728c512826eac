"""Where the QR scan's frames come from, and how one frame is read and said.

Image files (the picker), the screen (grabbed whole or a region of it, in its logical pixels),
a camera (Qt Multimedia, loaded only once the scan dialog opens: it brings FFmpeg), and
`read_into`, which reads one image (a file, a grab, a camera frame) with zxing-cpp and gives
its codes to the decoder; a refused code and the progress in words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QRect
from PySide6.QtGui import QGuiApplication, QImage
from PySide6.QtWidgets import QFileDialog, QWidget

from app.core.animated_qr import (
    AnimatedQrDecoder,
    AnimatedQrError,
    ForeignFrameError,
    WrongQrTypeError,
)
from app.ui import strings
from app.ui.async_tools import exec_dialog

if TYPE_CHECKING:
    from PySide6.QtMultimedia import (
        QCamera,
        QCameraDevice,
        QMediaCaptureSession,
        QVideoFrame,
        QVideoSink,
    )

    from app.core.animated_qr import Progress

Grab = Callable[[QRect | None], QImage]


def grab_screen(region: QRect | None) -> QImage:
    """The primary screen, or `region` of it (in its logical pixels)."""
    screen = QGuiApplication.primaryScreen()
    if region is None:
        return screen.grabWindow(0).toImage()
    return screen.grabWindow(0, region.x(), region.y(), region.width(), region.height()).toImage()


def parse_region(text: str) -> QRect | None:
    """ "x, y, width, height" as a QRect; None for an empty text (the whole screen)."""
    if not text.strip():
        return None
    parts = text.replace(",", " ").split()
    if len(parts) != 4 or not all(p.isdigit() for p in parts):
        raise ValueError(strings.QR_SCAN_REGION_BAD)
    x, y, width, height = (int(p) for p in parts)
    if width == 0 or height == 0:
        raise ValueError(strings.QR_SCAN_REGION_BAD)
    return QRect(x, y, width, height)


def format_region(region: QRect) -> str:
    """The text `parse_region` reads back as `region`."""
    return f"{region.x()}, {region.y()}, {region.width()}, {region.height()}"


def find_camera() -> tuple[QCameraDevice | None, str]:
    """(the first camera, "") or (None, why there is none)."""
    try:
        from PySide6.QtMultimedia import QMediaDevices
    except ImportError as exc:  # not installed, or a library of its missing (libpulse0)
        return None, strings.QR_SCAN_NO_CAMERA_SUPPORT.format(reason=exc)
    inputs = QMediaDevices.videoInputs()
    return (inputs[0], "") if inputs else (None, strings.QR_SCAN_NO_CAMERA)


class CameraFeed:
    """A camera's frames, each given to `sink` (a QVideoSink: its videoFrameChanged signal)
    between start() and stop(). Without a camera (tests) frames are set on the sink directly."""

    def __init__(
        self,
        sink: QVideoSink,
        camera: QCamera | None = None,
        session: QMediaCaptureSession | None = None,
    ) -> None:
        self.sink = sink
        self.camera = camera
        self._session = session  # kept: the session routes the camera's frames to the sink

    def start(self) -> None:
        if self.camera is not None:
            self.camera.start()

    def stop(self) -> None:
        if self.camera is not None:
            self.camera.stop()


def open_camera(device: QCameraDevice, parent: QObject) -> CameraFeed:
    """`device`'s frames routed to a new video sink (the camera not started yet)."""
    from PySide6.QtMultimedia import QCamera, QMediaCaptureSession, QVideoSink

    camera, session, sink = (
        QCamera(device, parent),
        QMediaCaptureSession(parent),
        QVideoSink(parent),
    )
    session.setCamera(camera)
    session.setVideoSink(sink)
    return CameraFeed(sink, camera, session)


@dataclass(frozen=True)
class ImageRead:
    codes: int  # QR codes found in the image
    refused: tuple[AnimatedQrError, ...]


def read_into(decoder: AnimatedQrDecoder, image: QImage | Path | QVideoFrame) -> ImageRead | None:
    """Every QR code of `image` given to `decoder` (run off the GUI thread, one at a time: a
    camera frame is converted here too); None when it is not an image."""
    from app.services.qr_images import read_codes

    if isinstance(image, Path):
        image = QImage(str(image))
    elif not isinstance(image, QImage):
        image = image.toImage()
    if image.isNull():
        return None
    refused: list[AnimatedQrError] = []
    texts = read_codes(image)
    for text in texts:
        try:
            decoder.add(text)
        except AnimatedQrError as exc:
            refused.append(exc)
    return ImageRead(len(texts), tuple(refused))


def refusal_text(exc: AnimatedQrError) -> str:
    if isinstance(exc, WrongQrTypeError):
        return strings.QR_SCAN_REFUSED_TYPE.format(reason=exc)
    if isinstance(exc, ForeignFrameError):
        return strings.QR_SCAN_REFUSED_FOREIGN.format(reason=exc)
    return strings.QR_SCAN_REFUSED_CORRUPT.format(reason=exc)


def progress_text(progress: Progress) -> str:
    if progress.needed == 0:
        return strings.QR_SCAN_WAITING
    return strings.counted(
        strings.QR_SCAN_PROGRESS,
        progress.needed,
        received=progress.received,
        needed=progress.needed,
    )


async def ask_image_paths(parent: QWidget) -> list[Path]:
    dialog = QFileDialog(parent, strings.QR_SCAN_FILES_TITLE)
    dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
    dialog.setNameFilter(strings.QR_SCAN_FILES_FILTER)
    try:
        accepted = await exec_dialog(dialog) == QFileDialog.DialogCode.Accepted
        return [Path(f) for f in dialog.selectedFiles()] if accepted else []
    finally:
        dialog.deleteLater()
