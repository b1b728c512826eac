"""Screenshots of the collector tabs (Wallet, Bid, Open bids) with real data, and of the
questions they ask (coin choice, placing a bid, cancelling bids), in light and
dark, on a real X server (Xvfb, xcb platform), saved to artifacts/screenshots/. Skipped
without Xvfb. The same module is the subprocess that draws them:

    xvfb-run .venv/bin/python -m tests.ui.test_screenshots_collector artifacts/screenshots

It starts a sandbox, funds a fresh wallet and its bidding wallet, places a few collection,
trait and rune bids, fills the Bid form with a trait bid and shows the funding QR.
"""

from __future__ import annotations

import asyncio
import secrets
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tests.ui.screenshots import (
    SCREEN,
    assert_drawn,
    fail_keyring,
    run_shots,
    save_png,
    shoot_under_xvfb,
)

if TYPE_CHECKING:
    from app.services.sandbox_process import SandboxProcess
    from app.ui.context import AppContext
    from app.ui.main_window import MainWindow

TABS = ("wallet", "bid", "open_bids")
# The questions a collector meets, each shot as it opens and then answered "no".
DIALOGS = ("dialog-choose-coins", "dialog-bid-confirm", "dialog-cancel-bids")


def test_screenshots_of_the_collector_tabs(xvfb_display: str, tmp_path: Path) -> None:
    module = "tests.ui.test_screenshots_collector"
    saved = shoot_under_xvfb(module, xvfb_display, tmp_path, timeout_s=240)
    themes = ("light", "dark")
    assert {p.name for p in saved} == {
        f"{theme}-tab-{tab}-data.png" for theme in themes for tab in TABS
    } | {f"{theme}-{dialog}.png" for theme in themes for dialog in DIALOGS}
    for path in saved:
        assert_drawn(path, 300, 200) if "dialog" in path.name else assert_drawn(path, 800, 500)


# -- the subprocess ----------------------------------------------------------------------------


async def _arrange(data_dir: Path) -> tuple[AppContext, MainWindow, str, SandboxProcess]:
    """A window on a fresh sandbox with a funded wallet and open bids."""
    import httpx
    from embit import bip39

    from app.services.bids import BidSpec, place_bid
    from app.services.profiles import (
        ApiKeyStore,
        AppProfile,
        AppSettings,
        ProfileStore,
        ServiceKind,
    )
    from app.services.qa_vault import QA_KDF
    from app.services.sandbox_demo import DEMO_PRESET, DEMO_RUNE, provision_demo_wallet
    from app.services.sandbox_process import start_sandbox
    from app.services.session import keys_from_secret, layout_for_preset
    from app.ui.context import AppContext, AppOptions
    from app.ui.launch import build_window
    from app.ui.profile_session import profile_session
    from app.ui.qa.profiles import PASSWORD, SANDBOX_REQUEST_RATE
    from app.wallet.vault import Vault
    from app.wallet.vault_file_store import FileStore
    from app.wallet.vault_models import MnemonicSecret, ProfileMeta

    sandbox = await start_sandbox(data_dir / "sandbox")
    root = sandbox.url.rstrip("/")
    mnemonic = bip39.mnemonic_from_bytes(secrets.token_bytes(16))
    meta = ProfileMeta(name="Shot key", network="regtest", layout=layout_for_preset(DEMO_PRESET))
    vault = Vault(FileStore(data_dir), QA_KDF)
    vault.create(meta, MnemonicSecret(mnemonic), PASSWORD)
    profile = AppProfile(
        name="Collector",
        kind=ServiceKind.CUSTOM,
        network="regtest",
        marketplace_url=f"{root}/v1",
        esplora_url=f"{root}/esplora",
        ord_url=f"{root}/ord",
        key_name="Shot key",
        request_rate=SANDBOX_REQUEST_RATE,
    )
    ProfileStore(data_dir).save(AppSettings().with_profile(profile).with_active("Collector"))
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
    keys = keys_from_secret(vault.unlock("Shot key", PASSWORD), meta)
    context.wallet_lock.unlock(keys, "Shot key")
    assets = await provision_demo_wallet(root, keys.payment.address, keys.ordinals.address)
    session = profile_session(context)
    await session.ensure_ready()
    ctx = session.signing_context()
    from app.services.bidding_wallet import get_bidding_wallet

    wallet = (await get_bidding_wallet(ctx)).address
    async with httpx.AsyncClient(base_url=root, timeout=60) as http:
        await http.post("/sandbox/faucet", json={"address": wallet, "sats": 400_000})
        await http.post("/sandbox/mine", json={"blocks": 1})
    slug = assets.collection_slug
    expiry = ctx.clock.now_ms() + 86_400_000
    from app.core.bid_request import Trait

    for spec in (
        BidSpec.collection(slug, 60_000, 3, expiry),
        BidSpec.collection("sub10k", 25_000, 2, expiry),
        BidSpec.trait(slug, [Trait("Hat", "Crown"), Trait("Eyes", "Laser")], 90_000, 2, expiry),
        BidSpec.rune(DEMO_RUNE, 50_000, 1_000, expiry),
    ):
        await place_bid(ctx, spec)
    del ctx
    return context, window, slug, sandbox


async def shoot(out: Path, data_dir: Path) -> None:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QDialog

    from app.services.profiles import Theme
    from app.ui.state.wallet_state import WalletState
    from app.ui.tabs.bid_tab import BidTab
    from app.ui.tabs.open_bids_tab import OpenBidsTab
    from app.ui.tabs.wallet_tab import WalletTab
    from app.ui.theme import apply_theme
    from tests.ui.screenshot_app import save

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    context, window, slug, sandbox = await _arrange(data_dir)
    await WalletState.of(context).refresh()
    wallet = window.tab("wallet")
    assert isinstance(wallet, WalletTab)
    wallet.fund.amount.edit.setText("150,000")
    wallet.fund.qr_button.setChecked(True)
    bid = window.tab("bid")
    assert isinstance(bid, BidTab)
    window.show_tab("bid")
    await bid.load_catalog()
    bid.form.slug.setText(slug)
    bid.form.price.edit.setText("45,000")
    bid.form.quantity.setValue(2)
    for pair in (("Background", "Blue"), ("Eyes", "🔥 Fire")):
        bid.form.traits.set_checked(pair, True)
    open_bids = window.tab("open_bids")
    assert isinstance(open_bids, OpenBidsTab)
    shots: list[Path] = []

    def shoot_and_close(dialog: object) -> None:
        assert isinstance(dialog, QDialog)
        save(dialog, shots.pop(0))
        dialog.reject()

    context.dialog_opened.connect(
        lambda dialog: QTimer.singleShot(300, lambda: shoot_and_close(dialog))
    )
    for theme in (Theme.LIGHT, Theme.DARK):
        context.theme_changed.emit(apply_theme(app, theme))
        for key in TABS:
            window.show_tab(key)
            await pause(450)
            save_png(window.grab(), out / f"{theme.value}-tab-{key}-data.png")
        window.show_tab("wallet")
        shots.append(out / f"{theme.value}-dialog-choose-coins.png")
        await wallet.fund.choose_coins()
        window.show_tab("bid")
        shots.append(out / f"{theme.value}-dialog-bid-confirm.png")
        await bid.place()
        window.show_tab("open_bids")
        await pause(300)
        open_bids.table.selectAll()
        shots.append(out / f"{theme.value}-dialog-cancel-bids.png")
        await open_bids.cancel_selected()
        assert not shots, f"no dialog opened for {shots}"
    window.close()
    await window.controller.shutdown()
    await sandbox.stop()


async def pause(ms: int) -> None:
    """Let layouts, paints and the app's reads run on the loop itself: a nested Qt loop
    inside this task (screenshot_app.settle) ran other tasks' steps while it was current,
    which asyncio refuses ("Cannot enter into task"), losing them; the script then hung."""
    await asyncio.sleep(ms / 1000)


if __name__ == "__main__":
    sys.exit(run_shots(shoot, Path(sys.argv[1] if len(sys.argv) > 1 else "artifacts/screenshots")))
