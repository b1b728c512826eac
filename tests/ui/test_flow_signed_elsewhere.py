"""A watch-only profile of the collector's extended public keys, through the widgets, against
the real sandbox: the wallet shows; a withdrawal is reviewed and exported for the other wallet,
which signs it (the test, with the real keys, through the origins the PSBT carries) and saves it
in the folder; Import signed reviews it again and submits it. A bid's exact message and a
cancel's challenge are signed the same way and pasted back; a tampered signature is refused in
the dialog, which stays open, and nothing is sent."""

from __future__ import annotations

import asyncio
import base64
import secrets
from collections.abc import Callable
from pathlib import Path

from embit import bip32, bip39
from embit.networks import NETWORKS
from pytestqt.qtbot import QtBot

from app.core.animated_qr import Payload, PayloadKind, QrFormat
from app.services.key_setup import save_watch_only
from app.services.profiles import AppProfile, AppSettings, ProfileStore, ServiceKind
from app.services.qa_vault import file_vault
from app.services.sandbox_process import SandboxProcess
from app.services.session import keys_from_secret, layout_for_preset
from app.ui.dialogs.animated_qr_dialog import AnimatedQrDialog
from app.ui.qa.actions import click, wait_new_dialog
from app.ui.qa.app import App
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.pages import sign_elsewhere as elsewhere
from app.ui.qa.profiles import SANDBOX_REQUEST_RATE
from app.ui.qa.sandbox import fund_bidding_wallet, new_collection, sandbox_post
from app.ui.tabs.open_bids_confirm import ConfirmCancelDialog
from app.ui.tabs.open_bids_tab import OpenBidsTab
from app.wallet.keys import WalletKeys
from app.wallet.message import sign_message
from app.wallet.psbt_fixes import FixedPSBT
from app.wallet.psbt_io import psbt_to_base64
from app.wallet.vault_models import MnemonicSecret, ProfileMeta
from tests.ui.test_animated_qr_dialog import decode_on_screen

FUNDS = 400_000


class Collector:
    def __init__(self, app: AppHarness, keys: WalletKeys, root: bip32.HDKey, url: str) -> None:
        self.app = app
        self.keys = keys
        self.root = root
        self.url = url


def open_collector(
    qtbot: QtBot,
    open_app: Callable[..., AppHarness],
    make_options: OptionsFactory,
    sandbox: SandboxProcess,
) -> Collector:
    """A profile watching a fresh wallet's vpub (payment) and taproot descriptor (ordinals)."""
    words = bip39.mnemonic_from_bytes(secrets.token_bytes(16))
    meta = ProfileMeta(name="seed", network="regtest", layout=layout_for_preset("xverse-native"))
    keys = keys_from_secret(MnemonicSecret(words), meta)  # the other wallet's keys
    root = bip32.HDKey.from_seed(bip39.mnemonic_to_seed(words))
    fingerprint = root.my_fingerprint.hex()
    vpub = root.derive("m/84h/1h/0h").to_public().to_base58(NETWORKS["test"]["zpub"])
    tpub = root.derive("m/86h/1h/0h").to_public().to_base58(NETWORKS["test"]["xpub"])
    options = make_options()
    vault = file_vault(options.data_dir)
    save_watch_only(
        vault, "Watch key", "regtest", f"[{fingerprint}/84h/1h/0h]{vpub}",
        f"tr([{fingerprint}/86h/1h/0h]{tpub}/0/*)", "", "",
    )  # fmt: skip
    url = sandbox.url.rstrip("/")
    profile = AppProfile(
        name="Watch",
        kind=ServiceKind.CUSTOM,
        network="regtest",
        marketplace_url=f"{url}/v1",
        esplora_url=f"{url}/esplora",
        ord_url=f"{url}/ord",
        key_name="Watch key",
        request_rate=SANDBOX_REQUEST_RATE,
    )
    ProfileStore(options.data_dir).save(AppSettings().with_profile(profile).with_active("Watch"))
    app = open_app(options)
    qtbot.waitSignal(app.window.controller.ready, timeout=30_000).wait()
    assert app.context.watch_only and not app.context.wallet_lock.unlocked
    return Collector(app, keys, root, url)


def test_a_withdrawal_exported_signed_elsewhere_and_imported(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
    tmp_path: Path,
) -> None:
    collector = open_collector(qtbot, open_app, make_options, sandbox)
    app = collector.app
    fund_bidding_wallet(app, qloop, FUNDS)
    folder = tmp_path / "to-sign"
    qa = App(app, qtbot, qloop, collector.url)
    gui_thread.start()
    wallet = qa.wallet
    wallet.refresh()
    wallet.expect_balance(FUNDS)
    addresses = wallet.addresses()
    assert addresses.payment == collector.keys.payment.address
    assert addresses.ordinals == collector.keys.ordinals.address

    page = qa.withdraw
    tab = page.widget
    assert tab.import_button.isVisible()  # a watch-only profile imports what it signs elsewhere
    review = page.withdraw(150_000)
    assert review.can_approve and "signing elsewhere" in review.action
    said = elsewhere.export_reviewed(page, review, folder, "export")
    assert said.startswith("Exported to") and said == page.status
    (exported,) = folder.glob("*-withdraw.psbt")
    assert exported.name in page.status

    before = len(app.dialogs)  # the PSBT as an animated QR, as other wallets scan it
    click(qtbot, tab.qr_button)
    shown = wait_new_dialog(qtbot, app, AnimatedQrDialog, before)
    with gui_thread.paused():
        assert decode_on_screen(qtbot, shown) == Payload(PayloadKind.PSBT, exported.read_bytes())
    assert shown.chosen_format is QrFormat.BBQR  # the default, until UR is chosen: kept
    shown.format_choice.setCurrentIndex(shown.format_choice.findData(QrFormat.UR))
    shown.reject()
    qtbot.waitUntil(lambda: app.context.settings.qr_format is QrFormat.UR, timeout=10_000)
    with gui_thread.paused():
        assert ProfileStore(app.context.options.data_dir).load().qr_format is QrFormat.UR

    with gui_thread.paused():  # the other wallet signs, through the origins the PSBT names
        psbt = FixedPSBT.parse(exported.read_bytes())
        assert psbt.sign_with(collector.root, sighash=None) == 1
        (folder / "signed by my other wallet.psbt").write_text(psbt_to_base64(psbt))

    review = page.import_signed(folder)
    assert review.can_approve
    assert review.approve().startswith("Withdrawn 150,000 sats")
    gui_thread.assert_not_blocked()


def test_a_bid_and_its_cancel_signed_elsewhere_tampered_first(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    collector = open_collector(qtbot, open_app, make_options, sandbox)
    app, keys = collector.app, collector.keys
    fund_bidding_wallet(app, qloop, FUNDS)
    slug = new_collection(collector.url, {"hat": ["red"]})
    qa = App(app, qtbot, qloop, collector.url)
    gui_thread.start()
    bid = qa.bid.ready()
    bid.fill_collection_bid(slug, 20_000, 2)
    qtbot.waitUntil(lambda: bid.can_place, timeout=10_000)

    before = len(app.dialogs)
    bid.press_place()
    signer = qa.sign_message(before)
    (shown,) = signer.messages()
    assert shown.address == keys.payment.address
    message = shown.message
    assert message.startswith(f"{keys.payment.address}:") and f":{slug}:" in message
    assert not signer.can_send  # nothing pasted yet
    with gui_thread.paused():
        signature = sign_message(keys.payment, message).signature
    raw = bytearray(base64.b64decode(signature))
    raw[-3] ^= 0x01
    signer.paste_signature(base64.b64encode(bytes(raw)).decode())
    assert "signed by another key" in signer.send_refused()
    assert signer.is_open  # refused here: the user can paste the right one
    signer.paste_signature(signature)
    signer.send()
    placement = bid.outcome()
    assert placement.ok and placement.said.startswith("Placed: 2 bids")

    open_bids = app.window.tab("open_bids")
    assert isinstance(open_bids, OpenBidsTab)
    app.window.show_tab("open_bids")
    qtbot.waitUntil(lambda: open_bids.model.rowCount() == 2, timeout=20_000)
    open_bids.table.selectRow(0)
    before = len(app.dialogs)
    click(qtbot, open_bids.cancel_button)
    confirm = wait_new_dialog(qtbot, app, ConfirmCancelDialog, before)
    click(qtbot, confirm.yes_button)
    signer = qa.sign_message(before)
    (shown,) = signer.messages()
    assert shown.address == keys.ordinals.address  # the sandbox keys bids by it
    with gui_thread.paused():
        signed = sign_message(keys.ordinals, shown.message).signature
    signer.paste_signature(signed)
    signer.send()
    qtbot.waitUntil(lambda: open_bids.results.count() == 1, timeout=30_000)
    qtbot.waitUntil(lambda: open_bids.model.rowCount() == 1, timeout=20_000)
    gui_thread.assert_not_blocked()


def test_an_address_watch_only_profile_exports_its_funding(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
    tmp_path: Path,
) -> None:
    """The Fund panel of a watch-only profile reviews, then writes the PSBT to sign elsewhere
    with the payment key named by its origin."""
    collector = open_collector(qtbot, open_app, make_options, sandbox)
    app = collector.app
    fund_bidding_wallet(app, qloop, 10_000)  # the bidding wallet is known
    sandbox_post(collector.url, "/sandbox/faucet", {"address": collector.keys.payment.address,
                                                    "sats": 500_000})  # fmt: skip
    sandbox_post(collector.url, "/sandbox/mine", {"blocks": 1})
    gui_thread.start()
    said = App(app, qtbot, qloop, collector.url).wallet.export_funding(100_000, tmp_path)
    assert said.startswith("Exported")
    (exported,) = tmp_path.glob("*-funding.psbt")
    with gui_thread.paused():
        psbt = FixedPSBT.parse(exported.read_bytes())
    origins = {d.fingerprint for i in psbt.inputs for d in i.bip32_derivations.values()}
    assert origins == {collector.root.my_fingerprint}
    gui_thread.assert_not_blocked()
