"""The animated QR dialog over the `--offline` window, light and dark: frames 12 and 13 of an
export-sized code in BBQr (the two must differ only in the code: nothing else moves), and a UR
frame at version 20. By hand:

    xvfb-run -a -s "-screen 0 1024x700x24" .venv/bin/python -m tests.ui.screenshot_animated_qr \
        artifacts/screenshots

The code carries 35,500 random bytes as an export: what a 100-listing export is in size
(docs/offline-signing.md), so its frame count at the default density is the real one.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

from PySide6.QtWidgets import QApplication

from app.core.animated_qr import Payload, PayloadKind, QrFormat
from app.services.profiles import ApiKeyStore, Theme
from app.services.qa_vault import QA_KDF
from app.ui import strings
from app.ui.context import AppContext, AppOptions
from app.ui.dialogs.animated_qr_dialog import AnimatedQrDialog
from app.ui.launch import build_window
from app.ui.qa.profiles import prepare_profile
from app.ui.theme import apply_theme
from app.wallet.vault import Vault
from app.wallet.vault_file_store import FileStore
from tests.ui.screenshot_app import save, settle
from tests.ui.screenshots import SCREEN, fail_keyring, run_shots


async def shoot(out: Path, data_dir: Path) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    prepare_profile(data_dir)
    options = AppOptions(
        data_dir=data_dir,
        vault_factory=lambda d: Vault(FileStore(d), QA_KDF),
        api_keys_factory=lambda: ApiKeyStore(fail_keyring()),  # type: ignore[arg-type]
        window_settings_file=data_dir / "window.ini",
        offline=True,
    )
    context = AppContext(options)
    window = build_window(context)
    window.resize(*SCREEN)
    window.show()
    await window.controller.start()
    payload = Payload(PayloadKind.EXPORT, random.Random(5).randbytes(35_500))
    for theme in (Theme.LIGHT, Theme.DARK):
        context.theme_changed.emit(apply_theme(app, theme))
        dialog = AnimatedQrDialog(payload, strings.QR_TITLE_EXPORT, strings.QR_HOW_EXPORT, window)
        dialog.format_choice.setCurrentIndex(dialog.format_choice.findData(QrFormat.BBQR))
        dialog.show()
        while dialog.shown < 1 or not dialog.timer.isActive():
            await asyncio.sleep(0.05)  # the loop runs the restart (no nested loop)
        dialog.timer.stop()
        while dialog.shown < 12:
            await dialog.show_next()
        settle(300)
        screen = app.primaryScreen().grabWindow(0)  # the window with the dialog over it
        assert screen.save(str(out / f"{theme.value}-animated-qr-screen.png"))
        save(dialog, out / f"{theme.value}-dialog-animated-qr-frame12.png")
        await dialog.show_next()
        save(dialog, out / f"{theme.value}-dialog-animated-qr-frame13.png")
        dialog.format_choice.setCurrentIndex(dialog.format_choice.findData(QrFormat.UR))
        dialog.density_choice.setCurrentIndex(dialog.density_choice.findData(20))
        while dialog.shown != 1 or not dialog.timer.isActive():
            await asyncio.sleep(0.05)  # the loop runs the restart (no nested loop)
        dialog.timer.stop()
        save(dialog, out / f"{theme.value}-dialog-animated-qr-ur20.png")
        dialog.close()
        dialog.deleteLater()
    window.close()


if __name__ == "__main__":
    sys.exit(run_shots(shoot, Path(sys.argv[1] if len(sys.argv) > 1 else "artifacts/screenshots")))
