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

from pytestqt.qtbot import QtBot

from app.core.animated_qr import Payload, QrFormat, encode_frames
from app.services.offline_files import read_manifest
from app.services.offline_qr import export_payload, signed_payload
from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.offline_signing import MANIFEST_NAME
from app.ui.qa.actions import click
from app.ui.qa.app import App
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory, close_app
from app.ui.qa.pages.psbt_files import open_offline_app
from app.ui.qa.profiles import PASSWORD, open_funded_app, prepare_profile
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


def test_export_scanned_offline_signed_and_scanned_back(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    online = App(funded.app, qtbot, qloop, funded.root_url)
    chosen = funded.assets.inscription_ids[:2]
    exported, scanned, back = tmp_path / "exported", tmp_path / "scanned", tmp_path / "back"

    # 1. Online: export the two listings for offline signing.
    page = online.listings.open()
    page.export(chosen, PRICE, exported)  # the folder asked is answered
    assert (exported / MANIFEST_NAME).is_file()
    images = frames_of(export_payload(exported), QrFormat.BBQR, tmp_path / "frames-out")

    # 2. Offline: scan the export into an empty folder, open it, unlock, review, sign.
    offline = open_offline_app(qtbot, open_app, make_options, qloop)
    files = offline.psbt_files
    gui_thread.start()
    loaded = strings.counted(
        strings.OFFLINE_MANIFEST_LOADED, 2, folder=scanned, flow="secure listing"
    )
    assert files.scan_export(images, scanned) == loaded
    review = files.start_review(PASSWORD)
    assert review.dialog.plans_model.rowCount() == 2 and review.can_approve
    signed = strings.counted(strings.OFFLINE_SIGNED, 2, folder=scanned)
    assert files.approve(review) == signed
    gui_thread.assert_not_blocked()
    close_app(offline.harness, qloop)

    # 3. Online: the signed set as UR frames, a third of them missed; Import signed from it.
    manifest = read_manifest(scanned)
    names = [MANIFEST_NAME, *(i.psbt_file for i in manifest.items)]
    names += [i.signed_psbt_file for i in manifest.items]
    # What the offline window's "Show signed as QR…" shows: the export with its signed files.
    images = frames_of(signed_payload(scanned), QrFormat.UR, tmp_path / "in", 3)
    before = len(online.harness.dialogs)
    click(qtbot, page.widget.scan_button)
    online.qr_scan().read_whole(images, back)
    again = online.review(before)
    assert again.can_approve
    assert again.action == strings.counted(strings.LISTINGS_SUBMIT_ACTION, 2).replace("&", "")
    assert page.approve(again) == strings.counted(strings.LISTINGS_DONE, 2)
    assert all(page.widget.state_of(i) == "active" for i in chosen)
    assert sorted(p.name for p in back.iterdir()) == sorted(names)


def test_a_single_psbt_scanned_offline_is_saved_and_opened_as_a_file(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    prepare_profile(data_dir)
    images = frames_of(PSBT, QrFormat.UR, tmp_path / "frames", drop_every=4, max_version=5)
    saved = tmp_path / "scanned.psbt"
    files = open_offline_app(qtbot, open_app, make_options, qloop).psbt_files
    assert files.scan_psbt(images, saved).name == "scanned.psbt"  # the name proposed
    assert saved.read_bytes() == PSBT.data  # the binary PSBT, as BIP-174 writes it
    no_manifest = strings.OFFLINE_NO_MANIFEST.format(name="scanned.psbt")
    assert files.outcome == no_manifest  # described, not signed: as a lone file
    assert not files.can_review
