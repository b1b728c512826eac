"""Fund the bidding wallet through the Wallet tab against the real sandbox: the addresses and
the balance show, an amount and a fee rate are chosen, the review dialog shows the funding
PSBT, Sign broadcasts it, the txid is shown, the balance refreshes by itself, and the BIP-21
QR for paying from another wallet encodes the bidding wallet's payment link."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from fractions import Fraction

import httpx
import pytest
import segno
from PySide6.QtCore import QRect
from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from app.services.bidding_wallet import bip21_uri
from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog
from app.ui.sign_elsewhere import SignElsewhere
from app.ui.tabs.wallet_fund import ZERO_WIDTH_SPACE
from app.ui.tabs.wallet_tab import WalletTab
from app.ui.widgets.qr_view import QUIET_ZONE, paint_matrix
from tests.ui.conftest import AppHarness, OptionsFactory
from tests.ui.flows import click, open_funded_app, type_into, wait_dialog
from tests.ui.gui_thread import GuiThreadWatch

AMOUNT = 250_000


def test_fund_the_bidding_wallet_review_sign_broadcast_and_qr(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app = funded.app
    gui_thread.start()
    app.window.show_tab("wallet")
    tab = app.window.tab("wallet")
    assert isinstance(tab, WalletTab)
    assert tab.payment.address() == funded.keys.payment.address
    assert tab.ordinals.address() == funded.keys.ordinals.address
    qtbot.waitUntil(lambda: tab.bidding.address() is not None, timeout=20_000)
    wallet = tab.bidding.address()
    assert wallet is not None and wallet.startswith("bcrt1")
    assert tab.total.text().startswith("0 sats")
    assert tab.chart.bars() == ()  # no open bids yet

    # The fee picker offers the estimator's rates; Normal is chosen.
    qtbot.waitUntil(lambda: tab.fund.fee.choice.count() == 4, timeout=20_000)
    assert tab.fund.fee.choice.currentIndex() == 1
    rate = tab.fund.fee.rate()
    assert rate > 0

    # No amount: said at the field, nothing asked.
    dialogs = len(app.dialogs)
    click(qtbot, tab.fund.fund_button)
    need = "Enter the amount to send to the bidding wallet."
    qtbot.waitUntil(lambda: tab.fund.message.text() == need)
    assert tab.fund.message.isVisibleTo(tab) and len(app.dialogs) == dialogs
    type_into(qtbot, tab.fund.amount.edit, f"{AMOUNT:,}")
    assert tab.fund.amount.value() == AMOUNT
    click(qtbot, tab.fund.fund_button)
    dialog = wait_dialog(qtbot, app, PsbtReviewDialog, timeout=30_000)
    assert dialog.sign_button is not None
    assert "passes every check" in dialog.verdict_label.text()
    loads = tab.state.loads
    least_width = tab.fund.minimumSizeHint().width()
    click(qtbot, dialog.sign_button)
    qtbot.waitUntil(lambda: tab.fund.last_txid is not None, timeout=30_000)
    txid = tab.fund.last_txid
    assert txid is not None and txid in tab.fund.message.text().replace(ZERO_WIDTH_SPACE, "")
    # The txid wraps in the message: the panel is no wider than before (at 1024 px a txid on
    # one line widened it and cut the pool chart's text beside it).
    assert tab.fund.minimumSizeHint().width() <= least_width
    assert tab.fund.copy_txid.isVisibleTo(tab)
    # The balance refreshes after the action: unconfirmed funds count for bids at once.
    qtbot.waitUntil(lambda: tab.state.loads > loads, timeout=20_000)
    qtbot.waitUntil(lambda: tab.total.text().startswith(f"{AMOUNT:,} sats"), timeout=20_000)
    assert tab.unconfirmed.text().startswith(f"{AMOUNT:,} sats")

    # Pay from another wallet: the QR is the BIP-21 link with the amount.
    click(qtbot, tab.fund.qr_button)
    expected = bip21_uri(wallet, AMOUNT, label="Bidwallet bidding wallet")
    assert tab.fund.qr.text() == expected == tab.fund.link.text()
    assert tab.fund.link.cursorPosition() == 0  # the link reads from "bitcoin:<address>"
    assert expected.startswith(f"bitcoin:{wallet}?amount=0.0025&")
    code = segno.make(expected, error="m", micro=False)
    assert tab.fund.qr.matrix() == tuple(tuple(bool(c) for c in row) for row in code.matrix)
    _assert_pixmap_draws(tab.fund.qr.pixmap(330), tab.fund.qr.matrix())
    gui_thread.assert_not_blocked()

    with gui_thread.paused(), httpx.Client(base_url=funded.root_url, timeout=30) as http:
        tx = http.get(f"/esplora/tx/{txid}").json()
        paid = [o["value"] for o in tx["vout"] if o.get("scriptpubkey_address") == wallet]
        assert paid == [AMOUNT]
        fee = sum(i["prevout"]["value"] for i in tx["vin"]) - sum(o["value"] for o in tx["vout"])
        assert Fraction(fee, tx["weight"] // 4) >= rate * Fraction(9, 10)  # the chosen rate
    entries = app.context.activity.entries()  # type: ignore[union-attr]
    done = [e for e in entries if e.action == "fund.broadcast"]
    assert len(done) == 1 and done[0].ok and done[0].txid == txid


def _assert_pixmap_draws(pixmap: object, matrix: tuple[tuple[bool, ...], ...]) -> None:
    """Every module's centre pixel has the module's colour (dark or light)."""
    from PySide6.QtGui import QPainter, QPixmap

    assert isinstance(pixmap, QPixmap)
    image = pixmap.toImage()
    side = image.width()
    probe = QPixmap(side, side)
    painter = QPainter(probe)
    module = paint_matrix(painter, matrix, QRect(0, 0, side, side))
    painter.end()
    count = len(matrix) + 2 * QUIET_ZONE
    offset = (side - module * count) // 2
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            cx = offset + (x + QUIET_ZONE) * module + module // 2
            cy = offset + (y + QUIET_ZONE) * module + module // 2
            colour = QColor(image.pixel(cx, cy))
            assert (colour.lightness() < 128) == dark, (x, y)


def test_watch_only_profile_shows_the_wallet_and_funds_by_exporting(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Addresses and public keys only: the balance and pools show; funding is reviewed (the
    review says nothing is signed here), then asks where to write the PSBT for the wallet that
    signs (tests/ui/test_flow_signed_elsewhere.py follows it to the end), and closing that
    question writes nothing."""
    from embit import bip39

    from app.services.key_setup import save_watch_only
    from app.services.profiles import AppProfile, AppSettings, ProfileStore, ServiceKind
    from app.services.sandbox_demo import DEMO_PRESET
    from app.services.session import keys_from_secret, layout_for_preset
    from app.wallet.vault import Vault
    from app.wallet.vault_file_store import FileStore
    from app.wallet.vault_models import MnemonicSecret, ProfileMeta
    from tests.ui.conftest import FAST_KDF
    from tests.ui.flows import SANDBOX_REQUEST_RATE, fund_bidding_wallet, sandbox_post

    options = make_options()
    secret = MnemonicSecret(bip39.mnemonic_from_bytes(bytes(range(16))))
    meta = ProfileMeta(name="seed", network="regtest", layout=layout_for_preset(DEMO_PRESET))
    keys = keys_from_secret(secret, meta)  # only to know the public side
    vault = Vault(FileStore(options.data_dir), FAST_KDF)
    save_watch_only(
        vault, "Watch key", "regtest", keys.payment.address, keys.ordinals.address,
        keys.payment.public.public_key.hex(), keys.ordinals.public.public_key.hex(),
    )  # fmt: skip
    root = sandbox.url.rstrip("/")
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
    ProfileStore(options.data_dir).save(AppSettings().with_profile(profile).with_active("Watch"))
    app = open_app(options)
    qtbot.waitSignal(app.window.controller.ready, timeout=30_000).wait()
    assert app.context.watch_only and not app.context.wallet_lock.unlocked
    fund_bidding_wallet(app, qloop, 70_000)
    sandbox_post(root, "/sandbox/faucet", {"address": keys.payment.address, "sats": 200_000})
    sandbox_post(root, "/sandbox/mine", {"blocks": 1})  # coins to fund from

    gui_thread.start()
    app.window.show_tab("wallet")
    tab = app.window.tab("wallet")
    assert isinstance(tab, WalletTab)
    # The funds came from outside the app: they show at the next refresh, as after Refresh.
    qtbot.waitUntil(tab.refresh_button.isEnabled, timeout=20_000)
    click(qtbot, tab.refresh_button)
    qtbot.waitUntil(lambda: tab.total.text().startswith("70,000 sats"), timeout=20_000)
    assert tab.payment.address() == keys.payment.address
    assert tab.ordinals.address() == keys.ordinals.address
    asked: list[str] = []

    async def no_folder(_parent: object, title: str) -> None:
        asked.append(title)

    monkeypatch.setattr(SignElsewhere, "ask_folder", staticmethod(no_folder))
    assert tab.fund.import_button.isVisible()
    type_into(qtbot, tab.fund.amount.edit, "10,000")
    click(qtbot, tab.fund.fund_button)
    review = wait_dialog(qtbot, app, PsbtReviewDialog, timeout=30_000)
    assert asked == []  # the folder is asked once the review is accepted
    assert review.sign_button is not None
    assert "nothing is signed here" in review.verdict_label.text()
    assert "will be signed" not in review.verdict_label.text()
    click(qtbot, review.sign_button)
    qtbot.waitUntil(lambda: asked == [strings.ELSEWHERE_EXPORT_FOLDER])
    qtbot.waitUntil(lambda: tab.fund.message.text() == strings.ELSEWHERE_NOT_EXPORTED)
    qtbot.waitUntil(tab.fund.fund_button.isEnabled)
    gui_thread.assert_not_blocked()


def test_a_fee_far_above_the_market_is_signed_only_once_accepted(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
) -> None:
    """A custom 80 sat/vB on a quiet sandbox mempool: the review says the fee is outside the
    bounds, in sats, sat/vB and share of the amount; Sign stays disabled until the box is
    ticked, then the very fee shown is paid."""
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app = funded.app
    app.window.show_tab("wallet")
    tab = app.window.tab("wallet")
    assert isinstance(tab, WalletTab)
    qtbot.waitUntil(lambda: tab.fund.fee.choice.count() == 4, timeout=20_000)
    tab.fund.fee.choice.setCurrentIndex(tab.fund.fee.choice.count() - 1)  # Custom
    tab.fund.fee.custom.setValue(80.0)
    type_into(qtbot, tab.fund.amount.edit, f"{AMOUNT:,}")
    click(qtbot, tab.fund.fund_button)
    dialog = wait_dialog(qtbot, app, PsbtReviewDialog, timeout=30_000)
    assert dialog.consent_box is not None and dialog.sign_button is not None
    assert not dialog.sign_button.isEnabled()
    assert "its fee" in dialog.verdict_label.text()
    assert "times the estimate for the next block" in dialog.verdict_label.text()
    assert f"of the {AMOUNT:,} sats moved" in dialog.consent_box.text()
    click(qtbot, dialog.consent_box)
    assert dialog.sign_button.isEnabled()
    click(qtbot, dialog.sign_button)
    qtbot.waitUntil(lambda: tab.fund.last_txid is not None, timeout=30_000)
    with httpx.Client(base_url=funded.root_url, timeout=30) as http:
        tx = http.get(f"/esplora/tx/{tab.fund.last_txid}").json()
    fee = sum(i["prevout"]["value"] for i in tx["vin"]) - sum(o["value"] for o in tx["vout"])
    assert Fraction(fee, tx["weight"] // 4) >= 70  # the rate the user accepted
