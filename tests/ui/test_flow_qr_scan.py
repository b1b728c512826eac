"""An offline round trip through animated QR codes: the online window exports two secure
listings; their export, drawn as BBQr frames saved to PNG files (shuffled, repeated), is scanned
in the `--offline` window's "Scan QR…" into an empty folder, opened as a manifest picked from
disk, reviewed and signed; the signed set, as UR frames with some missed, is scanned in the
online Listings tab's "Scan QR…" and goes through Import signed: reviewed again, submitted."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtWidgets import QAbstractButton, QApplication
from pytestqt.qtbot import QtBot

from app.core.animated_qr import Payload, QrFormat, encode_frames
from app.services.offline_files import read_manifest
from app.services.offline_qr import export_payload, signed_payload
from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog
from app.ui.dialogs.qr_scan_dialog import QrScanDialog
from app.ui.dialogs.unlock import UnlockDialog
from app.ui.offline_signing import MANIFEST_NAME
from app.ui.qa.actions import click, type_into, wait_dialog, wait_new_dialog
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory, close_app
from app.ui.qa.profiles import PASSWORD, open_funded_app, prepare_profile
from app.ui.tabs.listings_tab import ListingsTab
from app.ui.tabs.psbt_files_tab import PsbtFilesTab
from tests.support.qr_frames import camera_sees
from tests.ui.test_qr_scan_dialog import PSBT, save_frames

PRICE = 40_000


def frames_of(
    payload: Payload, fmt: QrFormat, folder: Path, drop_every: int = 0, max_version: int = 15
) -> list[Path]:
    sequence = encode_frames(payload, fmt, max_version)
    texts = camera_sees(sequence, drop_every)
    texts += texts[:3]
    random.Random(len(texts)).shuffle(texts)
    return save_frames(folder, texts, sequence.qr_version, fmt.value)


def scan_in_dialog(qtbot: QtBot, button: QAbstractButton) -> QrScanDialog:
    """Press `button` ("Scan QR…"), then "From image files…" in the scan dialog it opens."""
    click(qtbot, button)

    def opened() -> list[QrScanDialog]:
        return [
            w
            for w in QApplication.topLevelWidgets()
            if isinstance(w, QrScanDialog) and w.isVisible()
        ]

    qtbot.waitUntil(lambda: len(opened()) == 1, timeout=10_000)
    dialog = opened()[0]
    with qtbot.waitSignal(dialog.accepted, timeout=60_000):
        click(qtbot, dialog.files_button)
    return dialog


def test_export_scanned_offline_signed_and_scanned_back(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    online = funded.app
    chosen = funded.assets.inscription_ids[:2]
    exported, scanned, back = tmp_path / "exported", tmp_path / "scanned", tmp_path / "back"
    folders = [scanned, back]

    async def ask_folder(_parent: object, _title: str) -> Path:
        return folders.pop(0) if _title == strings.QR_SCAN_FOLDER_TITLE else exported

    images: list[list[Path]] = []

    async def ask_images(_parent: object) -> list[Path]:
        return images.pop(0)

    monkeypatch.setattr(ListingsTab, "ask_folder", staticmethod(ask_folder))
    monkeypatch.setattr(QrScanDialog, "ask_folder", staticmethod(ask_folder))
    monkeypatch.setattr(QrScanDialog, "ask_image_paths", staticmethod(ask_images))

    # 1. Online: export the two listings for offline signing.
    online.window.show_tab("listings")
    tab = online.window.tab("listings")
    assert isinstance(tab, ListingsTab)
    qtbot.waitUntil(lambda: tab.held is not None, timeout=30_000)
    for inscription in chosen:
        tab.items_model.set_checked(tab.row_of(inscription), True)
    type_into(qtbot, tab.price_all.edit, f"{PRICE:,}")
    click(qtbot, tab.apply_price)
    click(qtbot, tab.export_button)
    dialog = wait_dialog(qtbot, online, PsbtReviewDialog, timeout=60_000)
    assert dialog.sign_button is not None
    click(qtbot, dialog.sign_button)
    qtbot.waitUntil(lambda: (exported / MANIFEST_NAME).is_file(), timeout=30_000)
    images.append(frames_of(export_payload(exported), QrFormat.BBQR, tmp_path / "frames-out"))

    # 2. Offline: scan the export into an empty folder, open it, unlock, review, sign.
    offline = open_app(make_options(offline=True))
    qtbot.waitSignal(offline.window.controller.ready, timeout=30_000).wait()
    files = offline.window.tab("psbt_files")
    assert isinstance(files, PsbtFilesTab)
    gui_thread.start()
    scan_in_dialog(qtbot, files.scan_button)
    loaded = strings.counted(
        strings.OFFLINE_MANIFEST_LOADED, 2, folder=scanned, flow="secure listing"
    )
    qtbot.waitUntil(lambda: files.file_status.text() == loaded, timeout=10_000)
    click(qtbot, files.review_button)
    unlock = wait_dialog(qtbot, offline, UnlockDialog)
    type_into(qtbot, unlock.password, PASSWORD)
    click(qtbot, unlock.unlock_button)
    review = wait_dialog(qtbot, offline, PsbtReviewDialog, timeout=30_000)
    assert review.plans_model.rowCount() == 2 and review.sign_button is not None
    click(qtbot, review.sign_button)
    signed = strings.counted(strings.OFFLINE_SIGNED, 2, folder=scanned)
    qtbot.waitUntil(lambda: files.review_status.text() == signed, timeout=30_000)
    gui_thread.assert_not_blocked()
    close_app(offline, qloop)

    # 3. Online: the signed set as UR frames, a third of them missed; Import signed from it.
    manifest = read_manifest(scanned)
    names = [MANIFEST_NAME, *(i.psbt_file for i in manifest.items)]
    names += [i.signed_psbt_file for i in manifest.items]
    # What the offline window's "Show signed as QR…" shows: the export with its signed files.
    images.append(frames_of(signed_payload(scanned), QrFormat.UR, tmp_path / "in", 3))
    before = len(online.dialogs)
    scan_in_dialog(qtbot, tab.scan_button)
    again = wait_new_dialog(qtbot, online, PsbtReviewDialog, before)
    assert again.sign_button is not None
    assert again.sign_button.text() == strings.counted(strings.LISTINGS_SUBMIT_ACTION, 2)
    with qtbot.waitSignal(tab.refreshed, timeout=60_000):
        click(qtbot, again.sign_button)
        qtbot.waitUntil(lambda: not tab.flow.busy, timeout=60_000)
    assert tab.status.text() == strings.counted(strings.LISTINGS_DONE, 2)
    assert all(tab.state_of(i) == "active" for i in chosen)
    assert sorted(p.name for p in back.iterdir()) == sorted(names)


def test_a_single_psbt_scanned_offline_is_saved_and_opened_as_a_file(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    prepare_profile(data_dir)
    images = [frames_of(PSBT, QrFormat.UR, tmp_path / "frames", drop_every=4, max_version=5)]
    saved = tmp_path / "scanned.psbt"

    async def ask_images(_parent: object) -> list[Path]:
        return images.pop(0)

    async def ask_save(_parent: object, proposal: Path) -> Path:
        assert proposal.name == "scanned.psbt"
        return saved

    monkeypatch.setattr(QrScanDialog, "ask_image_paths", staticmethod(ask_images))
    monkeypatch.setattr(PsbtFilesTab, "ask_save_path", staticmethod(ask_save))
    offline = open_app(make_options(offline=True))
    qtbot.waitSignal(offline.window.controller.ready, timeout=30_000).wait()
    files = offline.window.tab("psbt_files")
    assert isinstance(files, PsbtFilesTab)
    scan_in_dialog(qtbot, files.scan_button)
    qtbot.waitUntil(lambda: files.loaded is not None, timeout=10_000)
    assert saved.read_bytes() == PSBT.data  # the binary PSBT, as BIP-174 writes it
    no_manifest = strings.OFFLINE_NO_MANIFEST.format(name="scanned.psbt")
    assert files.review_status.text() == no_manifest  # described, not signed: as a lone file
    assert not files.review_button.isEnabled()
