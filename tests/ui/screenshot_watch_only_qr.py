"""Shoot a watch-only profile's withdrawal crossing to its other wallet as a QR code (issue 19),
on a real sandbox and a fresh profile: the Withdraw tab once the withdrawal is exported, with
Import signed…, Scan signed QR… and Show PSBT as QR…; the dialog showing the exported PSBT
itself as BBQr type P; the scan dialog waiting for the signed PSBT. Light and dark.

    export BIDWALLET_DATA_DIR=$(mktemp -d) XDG_CONFIG_HOME=$(mktemp -d)
    xvfb-run -a -s "-screen 0 1024x700x24" .venv/bin/python -m tests.ui.screenshot_watch_only_qr OUT
"""

from __future__ import annotations

import secrets
import sys
from pathlib import Path

import httpx
from embit import bip32, bip39
from embit.networks import NETWORKS
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from app.services.bidding_wallet import get_bidding_wallet
from app.services.key_setup import save_watch_only
from app.services.profiles import (
    ApiKeyStore,
    AppProfile,
    AppSettings,
    ProfileStore,
    ServiceKind,
    Theme,
)
from app.services.qa_vault import QA_KDF
from app.services.sandbox_process import start_sandbox
from app.ui.context import AppContext, AppOptions
from app.ui.dialogs.animated_qr_dialog import AnimatedQrDialog
from app.ui.dialogs.qr_scan_dialog import QrScanDialog
from app.ui.launch import build_window
from app.ui.profile_session import profile_session
from app.ui.qa.profiles import SANDBOX_REQUEST_RATE
from app.ui.sign_elsewhere import SignElsewhere
from app.ui.tabs.withdraw_tab import WithdrawTab
from app.ui.theme import apply_theme
from app.wallet.vault import Vault
from app.wallet.vault_file_store import FileStore
from tests.ui.screenshots import SCREEN, fail_keyring, run_shots
from tests.ui.test_screenshots_flows import DialogAnswers, pause, save, until


def watch_only_profile(data_dir: Path, root: str) -> None:
    """A profile watching a fresh wallet's vpub and taproot descriptor (keys kept elsewhere)."""
    seed = bip32.HDKey.from_seed(bip39.mnemonic_to_seed(bip39.mnemonic_from_bytes(
        secrets.token_bytes(16))))  # fmt: skip
    fingerprint = seed.my_fingerprint.hex()
    vpub = seed.derive("m/84h/1h/0h").to_public().to_base58(NETWORKS["test"]["zpub"])
    tpub = seed.derive("m/86h/1h/0h").to_public().to_base58(NETWORKS["test"]["xpub"])
    save_watch_only(
        Vault(FileStore(data_dir), QA_KDF), "Watch key", "regtest",
        f"[{fingerprint}/84h/1h/0h]{vpub}", f"tr([{fingerprint}/86h/1h/0h]{tpub}/0/*)", "", "",
    )  # fmt: skip
    profile = AppProfile(
        name="Watch",
        kind=ServiceKind.CUSTOM,
        network="regtest",
        marketplace_url=f"{root}/v1",
        esplora_url=f"{root}/esplora",
        ord_url=f"{root}/ord",
        key_name="Watch key",
        request_rate=SANDBOX_REQUEST_RATE,
    )
    ProfileStore(data_dir).save(AppSettings().with_profile(profile).with_active("Watch"))


async def shoot(out: Path, data_dir: Path) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    sandbox = await start_sandbox(data_dir / "sandbox" / "data")
    root = sandbox.url.rstrip("/")
    try:
        watch_only_profile(data_dir / "app", root)
        context = AppContext(
            AppOptions(
                data_dir=data_dir / "app",
                vault_factory=lambda d: Vault(FileStore(d), QA_KDF),
                api_keys_factory=lambda: ApiKeyStore(fail_keyring()),
                window_settings_file=data_dir / "app" / "window.ini",
            )
        )
        window = build_window(context)
        window.resize(*SCREEN)
        window.show()
        await window.controller.start()
        session = profile_session(context)
        await session.ensure_ready()
        address = (await get_bidding_wallet(session.read_context())).address
        async with httpx.AsyncClient(base_url=root, timeout=60) as http:
            for path, body in (("faucet", {"address": address, "sats": 400_000}), ("mine", {})):
                (await http.post(f"/sandbox/{path}", json=body)).raise_for_status()

        folder = data_dir / "to-sign"

        async def ask_folder(_parent: object, _title: str) -> Path:
            return folder

        SignElsewhere.ask_folder = staticmethod(ask_folder)  # type: ignore[method-assign]
        answers = DialogAnswers(
            context
        )  # kept while it answers; presses "Export for signing elsewhere" in the review
        opened: list[object] = []
        context.dialog_opened.connect(opened.append)
        window.show_tab("withdraw")
        tab = window.tab("withdraw")
        assert isinstance(tab, WithdrawTab)
        await until(lambda: tab.facts is not None)
        QTest.keyClicks(tab.amount.edit, "150000")
        await until(tab.review_button.isEnabled)
        tab.review_button.click()
        await until(lambda: tab.status.text().startswith("Exported to"))
        assert answers.captured  # the review was answered by "Export for signing elsewhere"
        for theme in (Theme.LIGHT, Theme.DARK):
            context.theme_changed.emit(apply_theme(app, theme))
            await pause(400)
            save(window, out / f"{theme.value}-watch-only-withdraw-qr-buttons.png")
            tab.qr_button.click()
            await until(lambda: any(isinstance(d, AnimatedQrDialog) for d in opened))
            shown = next(d for d in opened if isinstance(d, AnimatedQrDialog))
            await until(lambda dialog=shown: dialog.shown >= 3)  # type: ignore[misc]
            save(shown, out / f"{theme.value}-watch-only-show-psbt-qr.png")
            shown.reject()
            opened.clear()
            await until(tab.scan_button.isEnabled)
            tab.scan_button.click()  # the export just made: no folder asked
            await until(lambda: any(isinstance(d, QrScanDialog) for d in opened))
            scan = next(d for d in opened if isinstance(d, QrScanDialog))
            await pause(400)
            save(scan, out / f"{theme.value}-watch-only-scan-signed-qr.png")
            scan.reject()
            opened.clear()
            await until(tab.scan_button.isEnabled)
        window.close()
        await window.controller.shutdown()
    finally:
        await sandbox.stop()


if __name__ == "__main__":
    sys.exit(run_shots(shoot, Path(sys.argv[1] if len(sys.argv) > 1 else "artifacts/screenshots")))
