"""Screenshots of every tab and the main dialogs, in light and dark: run by
tests/ui/test_screenshots.py under Xvfb on the xcb platform (a real X server), or by hand:

    xvfb-run .venv/bin/python -m tests.ui.screenshot_app artifacts/screenshots

The window shows a custom regtest profile (never contacted) with a few activity entries.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication, QWidget

from app.net.errors import HttpError
from app.services.profiles import ApiKeyStore, Theme
from app.services.qa_vault import QA_KDF
from app.ui.context import AppContext, AppOptions
from app.ui.dialogs.first_run import FirstRunDialog
from app.ui.dialogs.key_setup import KeySetupDialog
from app.ui.dialogs.unlock import UnlockDialog
from app.ui.launch import build_window
from app.ui.qa.profiles import ABANDON, prepare_profile
from app.ui.theme import apply_theme
from app.wallet.vault import Vault
from app.wallet.vault_file_store import FileStore
from tests.ui.screenshots import SCREEN, fail_keyring, run_shots

TXIDS = (
    "b5ec3d107f6c57510ee779f318ab1fdf9b080fbd2e715575aa836688b43c42e0",
    "96fa08bb265c0da24b08351058bc03dccf2abe72e1841ad43b52eaeb459f8464",
)


def settle(ms: int = 150) -> None:
    """Let layouts, paints and pending tasks run."""
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def save(widget: QWidget, path: Path) -> None:
    settle()
    if not widget.grab().save(str(path)):
        raise SystemExit(f"could not save {path}")
    print(path, flush=True)


async def fill_activity(context: AppContext) -> None:
    activity = context.activity
    assert activity is not None
    for number, txid in enumerate(TXIDS):
        async with activity.track("sandbox.faucet" if number else "bid.place") as result:
            result.txid = txid
            result.message = "confirmed in block 152"
    try:
        async with activity.track("bid.cancel"):
            raise HttpError("marketplace", 409, "the bid is already filled", "BID_FILLED")
    except HttpError:
        pass


async def shoot(out: Path, data_dir: Path) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    prepare_profile(data_dir)
    options = AppOptions(
        data_dir=data_dir,
        vault_factory=lambda d: Vault(FileStore(d), QA_KDF),
        api_keys_factory=lambda: ApiKeyStore(fail_keyring()),
        window_settings_file=data_dir / "window.ini",
    )
    context = AppContext(options)
    window = build_window(context)
    window.resize(*SCREEN)  # the smallest screen the window is made for
    window.show()
    await window.controller.start()
    await fill_activity(context)
    vault = await context.vault()
    for theme in (Theme.LIGHT, Theme.DARK):
        context.theme_changed.emit(apply_theme(app, theme))
        for index, spec in enumerate(window.tab_specs):
            window.tabs.setCurrentIndex(index)
            save(window, out / f"{theme.value}-tab-{spec.key}.png")
        first_run = FirstRunDialog(set(), window)
        first_run.show()
        save(first_run, out / f"{theme.value}-dialog-first-run.png")
        first_run.close()
        setup = KeySetupDialog(vault, "shot", "Main", "mainnet", window)
        setup.show()
        setup.stack.setCurrentWidget(setup.import_page)
        setup.import_page.mnemonic.setPlainText(ABANDON)
        await setup.import_page.refresh_preview()
        setup.import_page.select_preset("xverse-native")
        save(setup, out / f"{theme.value}-dialog-key-import.png")
        setup.close()
        unlock = UnlockDialog(vault, "Main key", "Main", window)
        unlock.show()
        unlock.password.setText("wrong")
        await unlock.try_unlock()
        save(unlock, out / f"{theme.value}-dialog-unlock-wrong-password.png")
        unlock.close()
    window.close()
    await window.controller.shutdown()


if __name__ == "__main__":
    sys.exit(run_shots(shoot, Path(sys.argv[1] if len(sys.argv) > 1 else "artifacts/screenshots")))
