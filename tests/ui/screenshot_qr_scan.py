"""A scan in progress in the `--offline` window, light and dark: 12 of the 77 frames of an
export-sized code read from PNG files, one refused code (a wrong type) listed; then the region
overlay over the screen (the animated QR dialog showing the code there), a rectangle being
dragged around the code. By hand:

    xvfb-run -a -s "-screen 0 1024x700x24" .venv/bin/python -m tests.ui.screenshot_qr_scan \
        artifacts/screenshots

The code carries 35,500 random bytes as an export: what a 100-listing export is in size
(docs/offline-signing.md), so its frame count at the default density is the real one.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from app.core.animated_qr import Payload, PayloadKind, QrFormat, encode_frames
from app.services.profiles import ApiKeyStore, Theme
from app.services.qa_vault import QA_KDF
from app.ui.context import AppContext, AppOptions
from app.ui.dialogs.animated_qr_dialog import AnimatedQrDialog
from app.ui.dialogs.qr_region_overlay import RegionOverlay
from app.ui.dialogs.qr_scan_dialog import QrScanDialog
from app.ui.launch import build_window
from app.ui.qa.profiles import prepare_profile
from app.ui.tabs.psbt_files_tab import PsbtFilesTab
from app.ui.theme import apply_theme
from app.wallet.vault import Vault
from app.wallet.vault_file_store import FileStore
from tests.ui.screenshot_app import save, settle
from tests.ui.screenshots import SCREEN, fail_keyring, run_shots
from tests.ui.test_qr_scan_dialog import save_frames

READ = 12


async def shoot(out: Path, data_dir: Path) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    prepare_profile(data_dir)
    options = AppOptions(
        data_dir=data_dir,
        vault_factory=lambda d: Vault(FileStore(d), QA_KDF),
        api_keys_factory=lambda: ApiKeyStore(fail_keyring()),
        window_settings_file=data_dir / "window.ini",
        offline=True,
    )
    context = AppContext(options)
    window = build_window(context)
    window.resize(*SCREEN)
    window.show()
    await window.controller.start()
    payload = Payload(PayloadKind.EXPORT, random.Random(5).randbytes(35_500))
    sequence = encode_frames(payload, QrFormat.BBQR)
    frames = sequence.take(sequence.frames_needed)[:READ]
    paths = save_frames(data_dir / "frames", frames, sequence.qr_version, "frame")
    paths += save_frames(data_dir / "frames", ["https://example.com/"], 5, "wrong")
    tab = window.tab("psbt_files")
    assert isinstance(tab, PsbtFilesTab)
    for theme in (Theme.LIGHT, Theme.DARK):
        context.theme_changed.emit(apply_theme(app, theme))
        dialog = QrScanDialog(frozenset(PayloadKind), tab)
        dialog.show()
        for path in paths:
            await dialog.read_image(path)
        settle(300)
        screen = app.primaryScreen().grabWindow(0)  # the window with the dialog over it
        assert screen.save(str(out / f"{theme.value}-offline-qr-scan-screen.png"))
        save(dialog, out / f"{theme.value}-dialog-qr-scan.png")
        await shoot_overlay(app, dialog, payload, out / f"{theme.value}-qr-scan-region-drag.png")
        dialog.close()
        dialog.deleteLater()
    window.close()


async def shoot_overlay(
    app: QApplication, dialog: QrScanDialog, payload: Payload, path: Path
) -> None:
    """The code shown by the show dialog at the screen's right, the overlay over it all, a
    rectangle dragged from above the code's top left towards its bottom right."""
    shown = AnimatedQrDialog(payload, "Animated QR", "Shown to be scanned")
    shown.show()
    shown.move(SCREEN[0] - shown.width() - 10, 10)
    await asyncio.sleep(0.6)
    dialog.select_region()
    while not isinstance(dialog.region_overlay, RegionOverlay) or not (
        dialog.region_overlay.isVisible()
    ):
        await asyncio.sleep(0.05)
    overlay = dialog.region_overlay
    code = shown.code.mapToGlobal(QPoint(0, 0))
    start = code - QPoint(12, 12)
    end = code + QPoint(shown.code.width() - 30, shown.code.height() - 90)
    QTest.mousePress(overlay, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    QTest.mouseMove(overlay, end)
    await asyncio.sleep(0.3)
    assert app.primaryScreen().grabWindow(0).save(str(path))
    print(path, flush=True)
    QTest.keyClick(overlay, Qt.Key.Key_Escape)
    while dialog.region_overlay is not None:
        await asyncio.sleep(0.05)
    shown.close()
    await asyncio.sleep(0.3)  # the frame it was drawing finishes before it goes
    shown.deleteLater()


if __name__ == "__main__":
    sys.exit(run_shots(shoot, Path(sys.argv[1] if len(sys.argv) > 1 else "artifacts/screenshots")))
