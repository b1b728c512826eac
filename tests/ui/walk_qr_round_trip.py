"""A walk of issue 19's air-gapped round trip as a newcomer meets it, a PNG at each step (a QA
tool, not a test: its name keeps it out of the suite). On the real sandbox: the Listings tab
lists two inscriptions for offline signing, shows the export as an animated QR (BBQr, then UR
at version 10 and 2 frames a second); the `--offline` window scans it from the frames saved as
PNGs, reviews and signs, shows the signed set as QR; the Listings tab's Scan QR… reads it back,
reviews it again and submits. Each step saves the window and every dialog open over it.

    WALK_OUT=/tmp/walk WALK_THEME=dark QT_QPA_PLATFORM=offscreen \
        .venv/bin/python -m pytest -q -p no:cacheprovider -n0 -s tests/ui/walk_qr_round_trip.py

The screen region read (Select region… over the code another window shows) needs a real screen:
tests/ui/screenshot_qr_scan.py under Xvfb.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
from PySide6.QtWidgets import QAbstractButton, QApplication, QDialog, QWidget
from pytestqt.qtbot import QtBot

from app.core.animated_qr import QrFormat
from app.services.offline_qr import export_payload, signed_payload
from app.services.profiles import Theme
from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.dialogs.animated_qr_dialog import AnimatedQrDialog
from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog
from app.ui.dialogs.qr_scan_dialog import QrScanDialog
from app.ui.dialogs.unlock import UnlockDialog
from app.ui.offline_signing import MANIFEST_NAME
from app.ui.qa.actions import click, type_into, wait_dialog, wait_new_dialog
from app.ui.qa.harness import AppHarness, OptionsFactory, close_app
from app.ui.qa.profiles import PASSWORD, open_funded_app
from app.ui.tabs.listings_tab import ListingsTab
from app.ui.tabs.psbt_files_tab import PsbtFilesTab
from app.ui.theme import apply_theme
from tests.ui.test_flow_qr_scan import frames_of

OUT = Path(os.environ.get("WALK_OUT", "/tmp/walk-qr"))
THEME = Theme(os.environ.get("WALK_THEME", "light"))
PRICE = 40_000
D = TypeVar("D", bound=QWidget)


class Shots:
    """Saves `window` and each dialog open over it as OUT/<theme>-<name>[-dialogN].png."""

    def __init__(self, window: QWidget) -> None:
        self.window = window
        OUT.mkdir(parents=True, exist_ok=True)

    def __call__(self, name: str) -> None:
        QApplication.processEvents()
        path = OUT / f"{THEME.value}-{name}.png"
        self.window.grab().save(str(path))
        dialogs = [
            w
            for w in QApplication.topLevelWidgets()
            if isinstance(w, QDialog) and w.isVisible() and w is not self.window
        ]
        for n, dialog in enumerate(dialogs):
            dialog.grab().save(str(path.with_name(f"{path.stem}-dialog{n}.png")))
        print("saved", path, flush=True)


def the_open(kind: type[D]) -> list[D]:
    return [w for w in QApplication.topLevelWidgets() if isinstance(w, kind) and w.isVisible()]


def opened(qtbot: QtBot, button: QAbstractButton, kind: type[D]) -> D:
    click(qtbot, button)
    qtbot.waitUntil(lambda: len(the_open(kind)) == 1, timeout=10_000)
    return the_open(kind)[0]


def test_walk(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    apply_theme(app, THEME)
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    online = funded.app
    online.window.resize(1024, 700)
    shot = Shots(online.window)
    exported, scanned, back = tmp_path / "exported", tmp_path / "scanned", tmp_path / "back"
    folders = [scanned, back]
    images: list[list[Path]] = []

    async def ask_folder(_parent: object, title: str) -> Path:
        return folders.pop(0) if title == strings.QR_SCAN_FOLDER_TITLE else exported

    async def ask_images(_parent: object) -> list[Path]:
        return images.pop(0)

    monkeypatch.setattr(ListingsTab, "ask_folder", staticmethod(ask_folder))
    monkeypatch.setattr(QrScanDialog, "ask_folder", staticmethod(ask_folder))
    monkeypatch.setattr(QrScanDialog, "ask_image_paths", staticmethod(ask_images))

    # (a) Listings: two inscriptions exported for offline signing, shown as QR.
    online.window.show_tab("listings")
    tab = online.window.tab("listings")
    assert isinstance(tab, ListingsTab)
    qtbot.waitUntil(lambda: tab.held is not None, timeout=30_000)
    shot("a1-listings")
    for inscription in funded.assets.inscription_ids[:2]:
        tab.items_model.set_checked(tab.row_of(inscription), True)
    type_into(qtbot, tab.price_all.edit, f"{PRICE:,}")
    click(qtbot, tab.apply_price)
    shot("a2-listings-two-priced")
    click(qtbot, tab.export_button)
    review = wait_dialog(qtbot, online, PsbtReviewDialog, timeout=60_000)
    shot("a3-export-review")
    assert review.sign_button is not None
    click(qtbot, review.sign_button)
    qtbot.waitUntil(lambda: (exported / MANIFEST_NAME).is_file(), timeout=30_000)
    shot("a4-exported")
    qr = opened(qtbot, tab.flow.qr_button, AnimatedQrDialog)
    qtbot.waitUntil(lambda: qr.shown >= 2, timeout=10_000)
    shot("a5-show-qr-bbqr")
    qr.format_choice.setCurrentIndex(qr.format_choice.findData(QrFormat.UR))
    qr.density_choice.setCurrentIndex(0)
    qr.speed.setValue(2)
    qtbot.waitUntil(lambda: "(UR, version" in qr.caption.text(), timeout=10_000)
    shot("a6-show-qr-ur-v10")
    qr.reject()
    images.append(frames_of(export_payload(exported), QrFormat.BBQR, tmp_path / "out"))

    # (b) The --offline window: the export scanned from its frames, reviewed, signed.
    offline = open_app(make_options(offline=True))
    with qtbot.waitSignal(offline.window.controller.ready, timeout=30_000):
        pass
    offline.window.resize(1024, 700)
    shot.window = offline.window
    files = offline.window.tab("psbt_files")
    assert isinstance(files, PsbtFilesTab)
    shot("b1-offline")
    scan = opened(qtbot, files.scan_button, QrScanDialog)
    shot("b2-scan-dialog")
    with qtbot.waitSignal(scan.accepted, timeout=60_000):
        click(qtbot, scan.files_button)
    qtbot.waitUntil(lambda: files.export_folder is not None, timeout=10_000)
    shot("b3-scanned-loaded")
    click(qtbot, files.review_button)
    unlock = wait_dialog(qtbot, offline, UnlockDialog)
    shot("b4-unlock")
    type_into(qtbot, unlock.password, PASSWORD)
    click(qtbot, unlock.unlock_button)
    review = wait_dialog(qtbot, offline, PsbtReviewDialog, timeout=30_000)
    shot("b5-offline-review")
    assert review.sign_button is not None
    click(qtbot, review.sign_button)
    signed = strings.counted(strings.OFFLINE_SIGNED, 2, folder=scanned)
    qtbot.waitUntil(lambda: files.review_status.text() == signed, timeout=30_000)
    shot("b6-offline-signed")
    qr = opened(qtbot, files.qr_signed_button, AnimatedQrDialog)
    qtbot.waitUntil(lambda: qr.shown >= 2, timeout=10_000)
    shot("b7-show-signed-qr")
    qr.reject()
    close_app(offline, qloop)

    # (c) Online again: the signed set scanned (a third of the UR frames missed), submitted.
    shot.window = online.window
    images.append(frames_of(signed_payload(scanned), QrFormat.UR, tmp_path / "in", 3))
    before = len(online.dialogs)
    scan = opened(qtbot, tab.scan_button, QrScanDialog)
    shot("c1-online-scan-dialog")
    with qtbot.waitSignal(scan.accepted, timeout=60_000):
        click(qtbot, scan.files_button)
    again = wait_new_dialog(qtbot, online, PsbtReviewDialog, before)
    shot("c2-online-review-signed")
    assert again.sign_button is not None
    with qtbot.waitSignal(tab.refreshed, timeout=60_000):
        click(qtbot, again.sign_button)
        qtbot.waitUntil(lambda: not tab.flow.busy, timeout=60_000)
    shot("c3-online-submitted")
    assert tab.status.text() == strings.counted(strings.LISTINGS_DONE, 2)
