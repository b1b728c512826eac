"""The QR scan's live sources without a device: the camera's video sink given real QVideoFrames
of frames drawn by the show dialog's own code (read by zxing-cpp, no fake decoder); the camera
button without a camera or without Qt Multimedia; the screen region dragged on the overlay
(QTest mouse press, move, release; Esc) and then read from a screen that shows the code there.
"""

from __future__ import annotations

import asyncio
import sys

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QColor, QGuiApplication, QImage, QPainter
from PySide6.QtMultimedia import QCameraDevice, QMediaDevices, QVideoFrame, QVideoSink
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.core.animated_qr import PayloadKind, QrFormat, encode_frames
from app.ui import strings
from app.ui.dialogs.animated_qr_dialog import draw_frame
from app.ui.dialogs.qr_region_overlay import RegionOverlay
from app.ui.dialogs.qr_scan_dialog import QrScanDialog, find_camera
from app.ui.dialogs.qr_scan_sources import CameraFeed
from app.ui.qa.actions import click
from app.ui.qa.gui_thread import GuiThreadWatch
from tests.support.qr_frames import camera_sees
from tests.ui.mnemonics import shared_mnemonics
from tests.ui.test_qr_scan_dialog import PSBT, open_dialog

SIDE = 360  # the drawn frame: what a camera filming the show dialog's code would give


def with_a_camera(monkeypatch: pytest.MonkeyPatch) -> list[QVideoSink]:
    """The dialog finds a camera (a device without hardware) and its feed is a real video sink
    the test sets frames on; the sinks opened, in order."""
    sinks: list[QVideoSink] = []

    def open_camera(_device: QCameraDevice, parent: QWidget) -> CameraFeed:
        sinks.append(QVideoSink(parent))
        return CameraFeed(sinks[-1])

    monkeypatch.setattr(QrScanDialog, "find_camera", staticmethod(lambda: (QCameraDevice(), "")))
    monkeypatch.setattr(QrScanDialog, "open_camera", staticmethod(open_camera))
    return sinks


def filmed(text: str, version: int) -> QVideoFrame:
    return QVideoFrame(draw_frame(text, version, SIDE))


def progress(received: int, needed: int) -> str:
    return strings.counted(strings.QR_SCAN_PROGRESS, needed, received=received, needed=needed)


def test_camera_frames_are_read_one_at_a_time_until_the_code_is_whole(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    monkeypatch: pytest.MonkeyPatch,
    gui_thread: GuiThreadWatch,
) -> None:
    sinks = with_a_camera(monkeypatch)
    sequence = encode_frames(PSBT, QrFormat.BBQR, max_version=5)
    total = sequence.frames_needed
    assert total >= 3
    images = [draw_frame(text, sequence.qr_version, SIDE) for text in sequence.take(total)]
    dialog = open_dialog(qtbot, frozenset(PayloadKind))
    assert dialog.camera_button.isEnabled() and dialog.camera_button.toolTip() == ""
    assert shared_mnemonics(dialog) == {}  # every source's button has its own Alt+letter
    click(qtbot, dialog.camera_button)
    assert dialog.camera_feed is not None and dialog.camera_feed.sink is sinks[0]
    assert dialog.camera_button.text() == strings.QR_SCAN_CAMERA_STOP
    gui_thread.start()
    sink = sinks[0]
    # A new QVideoFrame each time, as from a camera (the sink signals a frame that changed).
    for n, image in enumerate(images):
        qtbot.waitUntil(lambda: not dialog.reading, timeout=20_000)
        if n + 1 < total:
            sink.setVideoFrame(QVideoFrame(image))
            sink.setVideoFrame(QVideoFrame(images[n + 1]))  # comes while n is read: dropped
            qtbot.waitUntil(lambda n=n: dialog.progress_label.text() == progress(n + 1, total))
            assert dialog.camera_feed is not None  # on until the code is whole
        else:
            with qtbot.waitSignal(dialog.accepted, timeout=20_000):
                sink.setVideoFrame(QVideoFrame(image))
    gui_thread.assert_not_blocked()
    assert dialog.payload == PSBT
    assert dialog.progress_label.text() == progress(total, total)
    assert dialog.camera_feed is None  # stopped once complete
    assert not dialog.camera_button.isEnabled()


def test_a_fountain_code_filmed_with_frames_missed(
    qtbot: QtBot, qloop: asyncio.AbstractEventLoop, monkeypatch: pytest.MonkeyPatch
) -> None:
    sinks = with_a_camera(monkeypatch)
    sequence = encode_frames(PSBT, QrFormat.UR, max_version=5)
    seen = camera_sees(sequence, drop_every=3)
    dialog = open_dialog(qtbot, frozenset(PayloadKind))
    click(qtbot, dialog.camera_button)
    with qtbot.waitSignal(dialog.accepted, timeout=30_000):
        for text in seen:
            qtbot.waitUntil(lambda: not dialog.reading or dialog.payload is not None)
            sinks[0].setVideoFrame(filmed(text, sequence.qr_version))
    assert dialog.payload == PSBT and dialog.refusals.count() == 0


def read_over(dialog: QrScanDialog, frames: int) -> bool:
    """`frames` frames read, and the last read ended."""
    return dialog.decoder.progress.received == frames and not dialog.reading


def test_the_camera_stops_when_asked_and_when_the_dialog_closes(
    qtbot: QtBot, qloop: asyncio.AbstractEventLoop, monkeypatch: pytest.MonkeyPatch
) -> None:
    sinks = with_a_camera(monkeypatch)
    sequence = encode_frames(PSBT, QrFormat.BBQR, max_version=5)
    frames = [filmed(text, sequence.qr_version) for text in sequence.take(3)]
    dialog = open_dialog(qtbot, frozenset(PayloadKind))
    click(qtbot, dialog.camera_button)
    sinks[0].setVideoFrame(frames[0])
    # The read over, not just the decoder fed: the executor thread feeds it before the read
    # ends on the GUI thread (`reading` still true meanwhile, on a busy machine a while).
    qtbot.waitUntil(lambda: read_over(dialog, 1), timeout=20_000)
    click(qtbot, dialog.camera_button)  # Stop the camera
    assert dialog.camera_feed is None
    assert dialog.camera_button.text() == strings.QR_SCAN_CAMERA_START
    sinks[0].setVideoFrame(frames[1])  # a frame after the stop is not read
    assert not dialog.reading

    click(qtbot, dialog.camera_button)  # on again: a new feed
    assert len(sinks) == 2 and dialog.camera_feed is not None
    sinks[1].setVideoFrame(frames[1])
    qtbot.waitUntil(lambda: read_over(dialog, 2), timeout=20_000)
    with qtbot.waitSignal(dialog.rejected):
        dialog.reject()
    assert dialog.closed and dialog.camera_feed is None
    sinks[1].setVideoFrame(frames[2])
    assert not dialog.reading and dialog.decoder.progress.received == 2


def test_without_a_camera_or_without_qt_multimedia_the_button_says_why(
    qtbot: QtBot, qloop: asyncio.AbstractEventLoop, monkeypatch: pytest.MonkeyPatch
) -> None:
    if QMediaDevices.videoInputs():
        pytest.skip("this machine has a camera")
    assert find_camera() == (None, strings.QR_SCAN_NO_CAMERA)
    dialog = open_dialog(qtbot, frozenset(PayloadKind))
    assert not dialog.camera_button.isEnabled()
    assert dialog.camera_button.toolTip() == strings.QR_SCAN_NO_CAMERA

    monkeypatch.setitem(sys.modules, "PySide6.QtMultimedia", None)  # cannot be imported
    camera, why = find_camera()
    assert camera is None
    assert why.startswith("No camera can be used: Qt Multimedia (PySide6-Addons) cannot be")
    assert "PySide6.QtMultimedia" in why  # the import's own words: what is missing
    without = open_dialog(qtbot, frozenset(PayloadKind))
    assert not without.camera_button.isEnabled()
    assert without.camera_button.toolTip() == why


class Screen:
    """The primary screen's picture, white, with an animated code's frames shown in turn at
    `spot` (one more each time the screen is grabbed)."""

    def __init__(self, texts: list[str], version: int, spot: QPoint) -> None:
        size = QGuiApplication.primaryScreen().geometry().size()
        self.frames = [draw_frame(text, version, SIDE) for text in texts]
        self.spot = spot
        self.size = size
        self.grabs: list[QRect | None] = []

    def grab(self, region: QRect | None) -> QImage:
        self.grabs.append(region)
        picture = QImage(self.size, QImage.Format.Format_RGB32)
        picture.fill(QColor("white"))
        painter = QPainter(picture)
        painter.drawImage(self.spot, self.frames[len(self.grabs) % len(self.frames)])
        painter.end()
        return picture if region is None else picture.copy(region)


def wait_overlay(qtbot: QtBot, dialog: QrScanDialog) -> RegionOverlay:
    qtbot.waitUntil(
        lambda: dialog.region_overlay is not None and dialog.region_overlay.isVisible(),
        timeout=10_000,
    )
    assert dialog.region_overlay is not None
    return dialog.region_overlay


def test_a_region_dragged_on_the_overlay_is_read(
    qtbot: QtBot, qloop: asyncio.AbstractEventLoop, gui_thread: GuiThreadWatch
) -> None:
    sequence = encode_frames(PSBT, QrFormat.BBQR, max_version=5)
    screen = Screen(sequence.take(sequence.frames_needed), sequence.qr_version, QPoint(150, 100))
    dialog = open_dialog(qtbot, frozenset(PayloadKind), grab=screen.grab)
    click(qtbot, dialog.region_button)
    overlay = wait_overlay(qtbot, dialog)
    assert not dialog.isVisible()  # not in the grab the overlay shows
    assert overlay.geometry() == QGuiApplication.primaryScreen().geometry()
    assert screen.grabs == [None]

    left = Qt.MouseButton.LeftButton
    QTest.mousePress(overlay, left, Qt.KeyboardModifier.NoModifier, QPoint(530, 480))
    QTest.mouseMove(overlay, QPoint(300, 300))
    QTest.mouseMove(overlay, QPoint(130, 80))  # dragged up and left of where it began
    assert overlay.selection == QRect(130, 80, 400, 400)
    shown = overlay.grab().toImage()
    inside, outside = shown.pixelColor(140, 90), shown.pixelColor(20, 20)
    assert inside == QColor("white")  # the screen, clear inside the rectangle
    assert outside.lightness() < 160  # under the veil outside it
    gui_thread.start()
    QTest.mouseRelease(overlay, left, Qt.KeyboardModifier.NoModifier, QPoint(130, 80))
    qtbot.waitUntil(lambda: dialog.isVisible() and dialog.region_overlay is None)
    assert dialog.region_edit.text() == "130, 80, 400, 400"
    assert dialog.reading_screen  # started on the region chosen
    with qtbot.waitSignal(dialog.accepted, timeout=30_000):
        pass
    gui_thread.assert_not_blocked()
    assert dialog.payload == PSBT
    assert set(screen.grabs[1:]) == {QRect(130, 80, 400, 400)}


def test_esc_and_a_click_without_a_drag_choose_nothing(
    qtbot: QtBot, qloop: asyncio.AbstractEventLoop
) -> None:
    sequence = encode_frames(PSBT, QrFormat.BBQR, max_version=5)
    screen = Screen(sequence.take(1), sequence.qr_version, QPoint(0, 0))
    dialog = open_dialog(qtbot, frozenset(PayloadKind), grab=screen.grab)
    dialog.region_edit.setText("1, 2, 300, 400")
    click(qtbot, dialog.region_button)
    overlay = wait_overlay(qtbot, dialog)
    QTest.mouseClick(
        overlay, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(50, 50)
    )
    assert overlay.isVisible() and overlay.selection.isEmpty()  # a click: still choosing
    QTest.keyClick(overlay, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: dialog.isVisible() and dialog.region_overlay is None)
    assert dialog.region_edit.text() == "1, 2, 300, 400"
    assert not dialog.reading_screen
    assert screen.grabs == [None]  # only the picture the overlay showed


def test_a_screen_reading_pauses_while_a_region_is_chosen(
    qtbot: QtBot, qloop: asyncio.AbstractEventLoop
) -> None:
    sequence = encode_frames(PSBT, QrFormat.BBQR, max_version=5)
    screen = Screen(sequence.take(1), sequence.qr_version, QPoint(0, 0))  # never complete
    dialog = open_dialog(qtbot, frozenset(PayloadKind), grab=screen.grab)
    dialog.region_edit.setText("0, 0, 400, 400")
    click(qtbot, dialog.screen_button)
    qtbot.waitUntil(lambda: len(screen.grabs) >= 2, timeout=10_000)
    click(qtbot, dialog.region_button)
    overlay = wait_overlay(qtbot, dialog)
    assert not dialog.reading_screen  # it would read the overlay
    left, none = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    QTest.mousePress(overlay, left, none, QPoint(10, 10))
    QTest.mouseMove(overlay, QPoint(300, 300))
    QTest.mouseRelease(overlay, left, none, QPoint(300, 300))
    qtbot.waitUntil(lambda: dialog.isVisible() and dialog.region_overlay is None)
    assert dialog.reading_screen and dialog.region_edit.text() == "10, 10, 290, 290"
    qtbot.waitUntil(lambda: QRect(10, 10, 290, 290) in screen.grabs, timeout=10_000)
    shot = screen.grabs.index(None)  # the overlay's picture: nothing grabbed while it showed
    assert set(screen.grabs[:shot]) == {QRect(0, 0, 400, 400)}
    assert set(screen.grabs[shot + 1 :]) == {QRect(10, 10, 290, 290)}

    click(qtbot, dialog.region_button)  # and Esc: the reading goes on where it was
    QTest.keyClick(wait_overlay(qtbot, dialog), Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: dialog.isVisible() and dialog.region_overlay is None)
    assert dialog.reading_screen and dialog.region_edit.text() == "10, 10, 290, 290"
    count = len(screen.grabs)
    qtbot.waitUntil(lambda: len(screen.grabs) > count, timeout=10_000)
    assert screen.grabs[-1] == QRect(10, 10, 290, 290)
