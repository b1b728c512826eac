"""The animated-QR scan dialog: frames drawn by segno, saved as PNG files (shuffled, repeated,
UR frames missed) and read through the dialog's file picker by zxing-cpp; a wrong-type code
and a frame of another code refused by name while the scan goes on; the screen path fed by a
fake grab; an export that fails the import's checks refused with the dialog left open. (The
camera and the dragged region: test_qr_scan_camera_region.py; a real export scanned end to end:
test_flow_qr_scan.py.)"""

from __future__ import annotations

import asyncio
import base64
import random
from pathlib import Path

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from app.core import qr_export_bundle
from app.core.animated_qr import Payload, PayloadKind, QrFormat, encode_frames
from app.services.qr_images import render
from app.ui import strings
from app.ui.dialogs.qr_scan_dialog import QrScanDialog, parse_region
from app.ui.qa.actions import click, type_into
from app.ui.qa.gui_thread import GuiThreadWatch
from tests.ui.test_offline import bip174_psbt

PSBT = Payload(PayloadKind.PSBT, base64.b64decode(bip174_psbt()))


def frame_image(text: str, version: int) -> QImage:
    gray = render(text, version, scale=3)
    return QImage(
        gray.pixels, gray.width, gray.height, gray.width, QImage.Format.Format_Grayscale8
    ).copy()


def save_frames(folder: Path, texts: list[str], version: int, stem: str) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for n, text in enumerate(texts):
        path = folder / f"{stem}-{n:03d}.png"
        assert frame_image(text, version).save(str(path))
        paths.append(path)
    return paths


def open_dialog(qtbot: QtBot, accept: frozenset[PayloadKind], **kwargs: object) -> QrScanDialog:
    dialog = QrScanDialog(accept, **kwargs)  # type: ignore[arg-type]
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def feed_files(monkeypatch: pytest.MonkeyPatch, batches: list[list[Path]]) -> None:
    """Each click on "From image files…" picks the next batch."""
    queue = list(batches)

    async def ask(_parent: object) -> list[Path]:
        return queue.pop(0)

    monkeypatch.setattr(QrScanDialog, "ask_image_paths", staticmethod(ask))


def test_bbqr_frames_from_files_with_refusals_along_the_way(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    gui_thread: GuiThreadWatch,
) -> None:
    sequence = encode_frames(PSBT, QrFormat.BBQR, max_version=5)
    frames = sequence.take(sequence.frames_needed)
    total = len(frames)
    assert total >= 4
    rng = random.Random(7)
    first = rng.sample(frames, total // 2)
    first += first[:1]  # a repeat
    rest = [f for f in frames if f not in first] + first[:2]
    rng.shuffle(rest)
    # Another animated code: another PSBT, split into more frames (another header).
    longer = PSBT.data + random.Random(1).randbytes(300)
    other = encode_frames(Payload(PayloadKind.PSBT, longer), QrFormat.BBQR, max_version=5)
    assert other.frames_needed != total
    foreign = save_frames(tmp_path, other.take(1), other.qr_version, "foreign")
    wrong = save_frames(tmp_path, ["HELLO, NOT AN ANIMATED CODE"], 5, "wrong")
    not_image = tmp_path / "notes.png"
    not_image.write_text("not an image")
    batch_one = save_frames(tmp_path, first, sequence.qr_version, "one") + wrong + foreign
    batch_two = [not_image, *save_frames(tmp_path, rest, sequence.qr_version, "two")]

    dialog = open_dialog(qtbot, frozenset(PayloadKind))
    assert dialog.progress_label.text() == strings.QR_SCAN_WAITING
    feed_files(monkeypatch, [batch_one, batch_two])
    gui_thread.start()
    click(qtbot, dialog.files_button)
    read = len(set(first))
    progress = strings.counted(strings.QR_SCAN_PROGRESS, total, received=read, needed=total)
    qtbot.waitUntil(lambda: dialog.progress_label.text() == progress, timeout=20_000)
    qtbot.waitUntil(lambda: dialog.refusals.count() == 2, timeout=20_000)
    refused = [dialog.refusals.item(n).text() for n in range(2)]
    assert refused[0] == "Not read: this QR code is neither BBQr nor UR."
    assert refused[1].startswith("Not read: this frame is of another animated code")
    assert dialog.isVisible() and dialog.files_button.isEnabled()  # the scan goes on
    with qtbot.waitSignal(dialog.accepted, timeout=20_000):
        click(qtbot, dialog.files_button)
    gui_thread.assert_not_blocked()
    assert dialog.payload == PSBT and dialog.folder is None
    assert dialog.refusals.item(2).text() == strings.QR_SCAN_NO_IMAGE.format(name="notes.png")
    done = strings.counted(strings.QR_SCAN_PROGRESS, total, received=total, needed=total)
    assert dialog.progress_label.text() == done


def test_ur_frames_with_misses_and_a_wrong_kind(
    qtbot: QtBot, qloop: asyncio.AbstractEventLoop, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sequence = encode_frames(PSBT, QrFormat.UR, max_version=5)
    needed = sequence.frames_needed
    frames = sequence.take(needed * 3)
    kept = [f for n, f in enumerate(frames) if n % 4 != 1]  # a quarter missed
    kept += kept[:3]
    random.Random(3).shuffle(kept)
    paths = save_frames(tmp_path, kept, sequence.qr_version, "ur")

    # Where only an export is read, a single PSBT's code is refused by name.
    export_only = open_dialog(qtbot, frozenset({PayloadKind.EXPORT}))
    feed_files(monkeypatch, [paths[:1]])
    click(qtbot, export_only.files_button)
    qtbot.waitUntil(lambda: export_only.refusals.count() == 1, timeout=20_000)
    text = "Not read: this code carries a PSBT, not what is read here."
    assert export_only.refusals.item(0).text() == text
    assert export_only.progress_label.text() == strings.QR_SCAN_WAITING

    dialog = open_dialog(qtbot, frozenset(PayloadKind))
    feed_files(monkeypatch, [paths])
    with qtbot.waitSignal(dialog.accepted, timeout=30_000):
        click(qtbot, dialog.files_button)
    assert dialog.payload == PSBT
    assert dialog.refusals.count() == 0


def test_the_screen_is_read_at_intervals_from_the_region_typed(
    qtbot: QtBot, qloop: asyncio.AbstractEventLoop, gui_thread: GuiThreadWatch
) -> None:
    sequence = encode_frames(PSBT, QrFormat.BBQR, max_version=5)
    frames = sequence.take(sequence.frames_needed)
    shown = [frame_image(f, sequence.qr_version) for f in frames]
    blank = QImage(200, 200, QImage.Format.Format_RGB32)
    blank.fill(0xFFFFFFFF)
    regions: list[QRect | None] = []

    def grab(region: QRect | None) -> QImage:  # a screen showing the code in a loop
        regions.append(region)
        return [blank, *shown][len(regions) % (len(shown) + 1)]

    dialog = open_dialog(qtbot, frozenset(PayloadKind), grab=grab)
    type_into(qtbot, dialog.region_edit, "10, 20, 300")
    click(qtbot, dialog.screen_button)
    assert dialog.status.text() == strings.QR_SCAN_REGION_BAD and not dialog.reading_screen
    dialog.region_edit.setText("10, 20, 300, 280")
    gui_thread.start()
    click(qtbot, dialog.screen_button)
    assert dialog.reading_screen
    assert dialog.screen_button.text() == strings.QR_SCAN_SCREEN_STOP
    with qtbot.waitSignal(dialog.accepted, timeout=30_000):
        pass
    gui_thread.assert_not_blocked()
    assert dialog.payload == PSBT
    assert not dialog.reading_screen  # stopped once complete
    assert set(regions) == {QRect(10, 20, 300, 280)}
    assert parse_region("") is None


def test_an_export_failing_the_imports_checks_is_refused_and_the_dialog_stays(
    qtbot: QtBot, qloop: asyncio.AbstractEventLoop, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bundle = qr_export_bundle.pack({"01-listing.psbt": PSBT.data})  # no manifest.json
    payload = Payload(PayloadKind.EXPORT, bundle)
    sequence = encode_frames(payload, QrFormat.BBQR, max_version=10)
    paths = save_frames(tmp_path / "frames", sequence.take(sequence.frames_needed), 10, "x")
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "something.txt").write_text("mine")

    async def ask_folder(_parent: object, _title: str) -> Path:
        return busy

    monkeypatch.setattr(QrScanDialog, "ask_folder", staticmethod(ask_folder))
    dialog = open_dialog(qtbot, frozenset({PayloadKind.EXPORT}))
    feed_files(monkeypatch, [paths])
    click(qtbot, dialog.files_button)
    refused = strings.QR_SCAN_WRITE_FAILED.format(reason="The scanned export has no manifest.json.")
    qtbot.waitUntil(lambda: dialog.status.text() == refused, timeout=20_000)
    assert dialog.isVisible() and dialog.folder is None and dialog.write_button.isVisible()
    assert [p.name for p in busy.iterdir()] == ["something.txt"]  # nothing written there


def test_closing_the_dialog_while_files_are_read_drops_the_rest(
    qtbot: QtBot, qloop: asyncio.AbstractEventLoop, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sequence = encode_frames(PSBT, QrFormat.BBQR, max_version=5)
    paths = save_frames(tmp_path, sequence.take(sequence.frames_needed), 5, "f")
    dialog = open_dialog(qtbot, frozenset(PayloadKind))
    feed_files(monkeypatch, [paths])
    with qtbot.waitSignal(dialog.rejected, timeout=10_000):
        click(qtbot, dialog.files_button)
        dialog.reject()  # Close, the first image being read
    qtbot.waitUntil(lambda: not dialog._reading, timeout=10_000)
    assert dialog.closed and dialog.payload is None
    assert dialog.decoder.progress.received <= 1  # the rest was not read


def test_the_intro_says_what_the_scan_is_for(qtbot: QtBot) -> None:
    """An export, what comes back signed (watch-only's Scan signed QR…: another wallet's PSBT
    or the offline signer's signed export), or either (the offline window): each dialog asks
    for what it will take."""
    for accept, signed_back, text in (
        (frozenset({PayloadKind.EXPORT}), False, strings.QR_SCAN_INTRO_EXPORT),
        (frozenset({PayloadKind.PSBT}), False, strings.QR_SCAN_INTRO_PSBT),
        (frozenset(PayloadKind), True, strings.QR_SCAN_INTRO_PSBT),
        (frozenset(PayloadKind), False, strings.QR_SCAN_INTRO_ANY),
    ):
        dialog = QrScanDialog(accept, signed_back=signed_back)
        qtbot.addWidget(dialog)
        assert any(label.text() == text for label in dialog.findChildren(QLabel))
    for both in ("signed PSBT your other wallet", "signed export Bidwallet's offline signer"):
        assert both in strings.QR_SCAN_INTRO_PSBT
