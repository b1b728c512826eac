"""Screenshots of the PSBT flow tabs (Withdraw, Inscription bid, Listings), the review dialog
(approved, bulk, refused) and the offline signer holding an export, on a real X server (Xvfb,
xcb), against a real sandbox with real data, light and dark: artifacts/screenshots/flows-*.png.

By hand: xvfb-run .venv/bin/python -m tests.ui.test_screenshots_flows artifacts/screenshots
"""

from __future__ import annotations

import asyncio
import secrets
import sys
from collections.abc import Callable
from pathlib import Path

import httpx
from embit import bip39
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QWidget

from app.services.bidding_wallet import get_bidding_wallet
from app.services.bids import BidSpec, place_bid
from app.services.profiles import (
    ApiKeyStore,
    AppProfile,
    AppSettings,
    ProfileStore,
    ServiceKind,
    Theme,
)
from app.services.qa_vault import QA_KDF
from app.services.sandbox_demo import DEMO_PRESET, provision_demo_wallet
from app.services.sandbox_process import start_sandbox
from app.services.session import keys_from_secret, layout_for_preset
from app.ui.context import AppContext, AppOptions
from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog
from app.ui.launch import build_window
from app.ui.main_window import MainWindow
from app.ui.profile_session import profile_session
from app.ui.qa.profiles import SANDBOX_REQUEST_RATE
from app.ui.tabs.inscription_bid_tab import InscriptionBidTab
from app.ui.tabs.listings_tab import ListingsTab
from app.ui.tabs.psbt_files_tab import PsbtFilesTab
from app.ui.tabs.withdraw_tab import WithdrawTab
from app.ui.theme import apply_theme
from app.wallet.vault import Vault
from app.wallet.vault_file_store import FileStore
from app.wallet.vault_models import MnemonicSecret, ProfileMeta
from tests.support.psbt_scenarios import SCENARIOS
from tests.support.psbt_tamper import apply_to, tampers_for
from tests.support.tamper_guard import pay_fee_rate
from tests.support.tamper_ops import Target
from tests.ui.screenshots import SCREEN, assert_drawn, fail_keyring, run_shots, shoot_under_xvfb

SHOTS = ("tab-withdraw", "tab-inscription_bid", "tab-listings", "offline-psbt_files")
DIALOGS = (
    "dialog-review-withdraw",
    "dialog-review-listings",
    "dialog-review-refused",
    "dialog-review-fee-consent",
)


def test_screenshots_of_the_psbt_flows(xvfb_display: str, tmp_path: Path) -> None:
    module = "tests.ui.test_screenshots_flows"
    saved = shoot_under_xvfb(module, xvfb_display, tmp_path, timeout_s=300)
    names = {path.name for path in saved}
    for theme in ("light", "dark"):
        for shot in SHOTS + DIALOGS:
            assert f"flows-{theme}-{shot}.png" in names
    for path in saved:
        assert_drawn(path, 300, 200)


# -- the shooting app (a subprocess under Xvfb) --------------------------------------------


async def pause(ms: int = 250) -> None:
    """Let layouts and paints run (the loop keeps running: no nested loop)."""
    await asyncio.sleep(ms / 1000)


def save(widget: QWidget, path: Path) -> None:
    if not widget.grab().save(str(path)):
        raise SystemExit(f"could not save {path}")
    print(path, flush=True)


class DialogAnswers:
    """Answers each review dialog the app opens: captures it, keeps its plans, presses Sign."""

    def __init__(self, context: AppContext) -> None:
        self.next_name = ""
        self.cancel = False  # press Cancel instead of Sign
        self.captured: dict[str, PsbtReviewDialog] = {}
        self.plans: dict[str, tuple[object, ...]] = {}
        context.dialog_opened.connect(self._opened)

    def _opened(self, dialog: object) -> None:
        if isinstance(dialog, PsbtReviewDialog):
            name = self.next_name
            self.plans[name] = dialog.plans
            QTimer.singleShot(500, lambda: self._answer(name, dialog))

    def _answer(self, name: str, dialog: PsbtReviewDialog) -> None:
        self.captured[name] = dialog  # at the first size it picked on the screen
        if self.cancel or dialog.sign_button is None:
            dialog.cancel_button.click()
        else:
            dialog.sign_button.click()


async def until(check: Callable[[], bool], timeout_s: float = 60) -> None:
    for _ in range(int(timeout_s * 20)):
        if check():
            return
        await asyncio.sleep(0.05)
    raise SystemExit("timed out waiting for the app")


async def prepare(root: str, data_dir: Path) -> tuple[AppContext, MainWindow, MnemonicSecret]:
    secret = MnemonicSecret(bip39.mnemonic_from_bytes(secrets.token_bytes(16)))
    meta = ProfileMeta(name="Shots key", network="regtest", layout=layout_for_preset(DEMO_PRESET))
    Vault(FileStore(data_dir), QA_KDF).create(meta, secret, "shots password")
    profile = AppProfile(
        name="Sandbox shots",
        kind=ServiceKind.CUSTOM,
        network="regtest",
        marketplace_url=f"{root}/v1",
        esplora_url=f"{root}/esplora",
        ord_url=f"{root}/ord",
        key_name="Shots key",
        request_rate=SANDBOX_REQUEST_RATE,
    )
    ProfileStore(data_dir).save(AppSettings().with_profile(profile).with_active(profile.name))
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
    vault = await context.vault()
    context.wallet_lock.unlock(keys_from_secret(secret, vault.info("Shots key").meta), "Shots key")
    return context, window, secret


async def shoot(out: Path, data_dir: Path) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    sandbox = await start_sandbox(data_dir / "sandbox" / "data")
    root = sandbox.url.rstrip("/")
    try:
        context, window, _ = await prepare(root, data_dir / "app")
        keys = context.wallet_lock.keys
        assets = await provision_demo_wallet(root, keys.payment.address, keys.ordinals.address)
        answers = DialogAnswers(context)
        http = httpx.AsyncClient(base_url=root, timeout=120)
        session = profile_session(context)
        await session.ensure_ready()
        ctx = session.signing_context()
        wallet = (await get_bidding_wallet(ctx)).address
        await http.post("/sandbox/faucet", json={"address": wallet, "sats": 300_000})
        await http.post("/sandbox/mine", json={"blocks": 1})
        expiry = ctx.clock.now_ms() + 86_400_000
        await place_bid(ctx, BidSpec.collection(assets.collection_slug, 150_000, 1, expiry))
        del ctx

        # Inscription bid: placed through the tab, then accepted by the sandbox's seller.
        seller = (await http.get("/sandbox/addresses/shots-seller")).json()["address"]
        made = (await http.post("/sandbox/inscriptions", json={"address": seller})).json()
        await http.post("/sandbox/mine", json={"blocks": 1})
        window.show_tab("inscription_bid")
        bid_tab = window.tab("inscription_bid")
        assert isinstance(bid_tab, InscriptionBidTab)
        bid_tab.inscription.setText(made["inscriptionId"])
        bid_tab.price.set_value(25_000)
        answers.next_name = "inscription"
        await bid_tab._place(made["inscriptionId"], 25_000)
        await http.post("/sandbox/inscription-bids/accept", json={"bidId": bid_tab.last_bid_id})
        bid_tab.refresh()
        await until(lambda: bid_tab.state_of(bid_tab.last_bid_id or "") == "accepted")

        # Listings: two of the demo inscriptions listed in one bulk request.
        window.show_tab("listings")
        listings = window.tab("listings")
        assert isinstance(listings, ListingsTab)
        await until(lambda: listings.held is not None)
        for inscription in assets.inscription_ids[:2]:
            listings.items_model.set_checked(listings.row_of(inscription), True)
        listings.items_model.price_selected(120_000)
        answers.next_name = "listings"
        items, prices, _ = listings.batch()
        await listings.flow.sign_and_submit(items, [p or 0 for p in prices])
        listings.refresh()
        await until(lambda: listings.mine is not None and len(listings.mine) == 2)
        listings.items_model.set_checked(listings.row_of(assets.inscription_ids[2]), True)

        # Withdraw: an amount that leaves the open bid uncovered; reviewed, then cancelled.
        window.show_tab("withdraw")
        withdraw = window.tab("withdraw")
        assert isinstance(withdraw, WithdrawTab)
        await until(lambda: withdraw.facts is not None)
        withdraw.amount.set_value(200_000)
        answers.next_name, answers.cancel = "withdraw", True
        await withdraw._withdraw(200_000)
        answers.cancel = False

        # The offline signer holding an export of the third inscription's listing.
        export_dir = data_dir / "export"
        answers.next_name = "export"
        window.show_tab("listings")
        items, prices, _ = listings.batch()
        await listings.flow.export(items[:1], [90_000], export_dir)
        offline_context = AppContext(
            AppOptions(
                data_dir=data_dir / "app",
                offline=True,
                vault_factory=lambda d: Vault(FileStore(d), QA_KDF),
                api_keys_factory=lambda: ApiKeyStore(fail_keyring()),
                window_settings_file=data_dir / "offline-window.ini",
            )
        )
        offline = build_window(offline_context)
        offline.resize(*SCREEN)
        offline.show()
        await offline.controller.start()
        files = offline.tab("psbt_files")
        assert isinstance(files, PsbtFilesTab)

        async def manifest(_parent: object) -> Path:
            return export_dir / "manifest.json"

        files.ask_open_path = manifest  # type: ignore[method-assign]
        files.open_button.click()
        await until(lambda: files.export_folder is not None)

        refused_scenario, _ = apply_to(tampers_for("withdraw")[0], SCENARIOS["withdraw"]())
        refused = [_Reviewed(refused_scenario.review(), refused_scenario.verdict())]
        costly = SCENARIOS["withdraw"]()
        pay_fee_rate(Target(costly.psbt, costly.context), 45)  # 4.5 times the estimate
        consent = [_Reviewed(costly.review(), costly.verdict(), "Withdrawal")]
        for theme in (Theme.LIGHT, Theme.DARK):
            context.theme_changed.emit(apply_theme(app, theme))
            prefix = f"flows-{theme.value}"
            for key in ("withdraw", "inscription_bid", "listings"):
                window.show_tab(key)
                await pause()
                save(window, out / f"{prefix}-tab-{key}.png")
            await pause()
            save(offline, out / f"{prefix}-offline-psbt_files.png")
            for name, plans, action in (
                ("withdraw", answers.plans["withdraw"], "&Sign and withdraw"),
                ("listings", answers.plans["listings"], "&Sign 2 listings"),
                ("refused", tuple(refused), "&Sign"),
                ("fee-consent", tuple(consent), "&Sign and withdraw"),
            ):
                dialog = PsbtReviewDialog(plans, title="Review", action=action, parent=window)  # type: ignore[arg-type]
                dialog.show()  # at the first size it picks on the screen
                await pause(400)
                save(dialog, out / f"{prefix}-dialog-review-{name}.png")
                dialog.close()
                dialog.deleteLater()
        offline.close()
        window.close()
        await offline.controller.shutdown()
        await window.controller.shutdown()
        await http.aclose()
    finally:
        await sandbox.stop()


class _Reviewed:
    def __init__(self, review: object, verdict: object, label: str = "Tampered withdrawal"):
        self.review = review
        self.verdict = verdict
        self.label = label


if __name__ == "__main__":
    sys.exit(run_shots(shoot, Path(sys.argv[1] if len(sys.argv) > 1 else "artifacts/screenshots")))
