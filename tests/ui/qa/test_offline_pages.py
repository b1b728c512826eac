"""The offline and QR page objects on their own: the PSBT files tab refusing a broken export
(its failure naming the page, the action and what it shows), the QR scan dialog reading files
(progress, refusals, a code not yet whole) and camera frames from a fake camera, and the
animated QR dialog of a real export with format, density and speed chosen as a user does."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.core.animated_qr import QrFormat, encode_frames
from app.services.offline_qr import export_payload
from app.ui import strings
from app.ui.dialogs.animated_qr_dialog import draw_frame
from app.ui.qa.app import App
from app.ui.qa.expect import ScenarioFailure
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.pages.psbt_files import open_offline_app
from app.ui.qa.pages.qr_scan import fake_camera
from app.ui.qa.pages.qr_show import QrShowPage, open_qr_show
from app.ui.qa.profiles import prepare_profile
from tests.ui.test_qr_scan_dialog import PSBT, save_frames


def test_the_psbt_files_page_says_why_an_export_does_not_open(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    prepare_profile(data_dir)
    files = open_offline_app(qtbot, open_app, make_options, qloop).psbt_files
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "manifest.json").write_text("{}")
    with pytest.raises(ScenarioFailure) as failure:
        files.open_export(broken)
    text = str(failure.value)
    assert text.startswith(f"PSBT files page, open_export: expected the export in {broken} open;")
    assert "error 'Not signed: Not a Bidwallet offline manifest" in text  # the tab's, quoted
    assert files.export_folder is None and not files.can_review
    with pytest.raises(ScenarioFailure, match="start_review: expected Review and sign enabled"):
        files.start_review()


def test_the_qr_scan_page_reads_files_and_camera_frames(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    prepare_profile(data_dir)
    files = open_offline_app(qtbot, open_app, make_options, qloop).psbt_files
    sequence = encode_frames(PSBT, QrFormat.BBQR, max_version=5)
    total = sequence.frames_needed
    texts = sequence.take(total)
    assert total >= 3
    partial = save_frames(tmp_path / "frames", texts[:-1], sequence.qr_version, "bbqr")
    not_an_image = tmp_path / "notes.png"
    not_an_image.write_text("not a picture")

    scan = files.scan_qr()
    said = scan.read_files([not_an_image, *partial])
    assert said == strings.counted(strings.QR_SCAN_IMAGES_READ, total, empty=0)
    assert scan.refusals() == [strings.QR_SCAN_NO_IMAGE.format(name="notes.png")]
    read = strings.counted(strings.QR_SCAN_PROGRESS, total, received=total - 1, needed=total)
    assert scan.progress == read
    with pytest.raises(ScenarioFailure) as failure:
        scan.read_whole(partial[:1])  # a frame seen already: still not whole
    assert str(failure.value).startswith(
        "QR scan page, read_whole: expected the code read whole; it shows: "
    )
    assert scan.payload is None
    scan.close()

    with fake_camera() as camera:
        filmed = files.scan_qr()
        frames = [draw_frame(text, sequence.qr_version, 360) for text in texts[:-1]]
        assert filmed.film(camera, frames) == read
        filmed.close()
        # Every frame filmed: the PSBT is whole, saved where the tab asks, and opened.
        pngs = save_frames(tmp_path / "all", texts, sequence.qr_version, "bbqr")
        saved = tmp_path / "filmed.psbt"
        assert files.scan_psbt(pngs, saved, camera).name == "scanned.psbt"
        assert len(camera.sinks) == 2  # the camera of each dialog opened
    assert saved.read_bytes() == PSBT.data
    assert files.outcome == strings.OFFLINE_NO_MANIFEST.format(name="filmed.psbt")


def test_the_qr_show_page_chooses_and_reads_back_a_real_export(
    bidwallet_app: App, tmp_path: Path
) -> None:
    app = bidwallet_app
    listings = app.listings.open()
    folder = tmp_path / "export"
    listings.export(listings.held()[:1], 30_000, folder)
    shown = QrShowPage(app, listings.show_export_qr())
    assert shown.title == strings.QR_TITLE_EXPORT and shown.how == strings.QR_HOW_EXPORT
    shown.choose_format(QrFormat.UR)  # the keyboard
    assert shown.format is QrFormat.UR and "(UR, version " in shown.caption
    shown.choose_density(10, by_click=True)  # the list clicked open, the entry chosen in it
    assert shown.density == 10
    shown.set_speed(8)
    assert shown.speed == 8
    assert shown.frames_until_whole() == export_payload(folder)
    caption = shown.next_frame()
    assert caption.startswith("Frame ") and "(UR, version " in caption
    shown.close()
    # kept for the next time (saved once the dialog closed)
    app.qtbot.waitUntil(lambda: app.context.settings.qr_format is QrFormat.UR, timeout=5_000)
    with pytest.raises(ScenarioFailure, match="the dialog is closed already"):
        shown.caption  # noqa: B018
    with pytest.raises(ScenarioFailure) as failure:
        open_qr_show(app, timeout_ms=200)
    assert str(failure.value).startswith(
        "QR show page, open: expected the animated QR code shown within 0.2 s"
    )
