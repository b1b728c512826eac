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
from app.ui.qa.actions import click
from app.ui.qa.app import App
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.sign_elsewhere import SignElsewhere
from app.ui.tabs.wallet_fund import ZERO_WIDTH_SPACE
from app.ui.widgets.qr_view import QUIET_ZONE, paint_matrix

AMOUNT = 250_000


def test_fund_the_bidding_wallet_review_sign_broadcast_and_qr(
    bidwallet_app: App, bidwallet_gui_thread: GuiThreadWatch
) -> None:
    app, gui_thread = bidwallet_app, bidwallet_gui_thread
    keys = app.keys
    assert keys is not None and app.root_url is not None
    gui_thread.start()
    wallet = app.wallet
    tab = wallet.widget
    addresses = wallet.addresses()
    assert addresses.payment == keys.payment.address
    assert addresses.ordinals == keys.ordinals.address
    bidding = addresses.bidding
    assert bidding is not None and bidding.startswith("bcrt1")
    assert wallet.balance().total_text.startswith("0 sats")
    assert tab.chart.bars() == ()  # no open bids yet

    # The fee picker offers the estimator's rates; Normal is chosen.
    wallet.fill_fund(None)
    assert tab.fund.fee.choice.count() == 4
    assert tab.fund.fee.choice.currentIndex() == 1
    rate = tab.fund.fee.rate()
    assert rate > 0

    # No amount: said at the field, nothing asked.
    dialogs = len(app.harness.dialogs)
    wallet.press_fund()
    need = "Enter the amount to send to the bidding wallet."
    assert wallet.expect_fund_message(need) == need
    assert len(app.harness.dialogs) == dialogs
    review = wallet.fund(AMOUNT)
    assert tab.fund.amount.value() == AMOUNT
    assert review.can_approve
    assert "passes every check" in review.verdict
    loads = tab.state.loads
    least_width = tab.fund.minimumSizeHint().width()
    said = review.approve()
    txid = tab.fund.last_txid
    assert txid is not None and txid in said.replace(ZERO_WIDTH_SPACE, "")
    assert txid in wallet.fund_message
    # The txid wraps in the message: the panel is no wider than before (at 1024 px a txid on
    # one line widened it and cut the pool chart's text beside it).
    assert tab.fund.minimumSizeHint().width() <= least_width
    assert tab.fund.copy_txid.isVisibleTo(tab)
    # The balance refreshes after the action: unconfirmed funds count for bids at once.
    app.qtbot.waitUntil(lambda: tab.state.loads > loads, timeout=20_000)
    balance = wallet.expect_balance(AMOUNT)
    assert balance.unconfirmed == AMOUNT and balance.unconfirmed_text.startswith(f"{AMOUNT:,} sats")

    # Pay from another wallet: the QR is the BIP-21 link with the amount.
    link = wallet.payment_link()
    expected = bip21_uri(bidding, AMOUNT, label="Bidwallet bidding wallet")
    assert tab.fund.qr.text() == expected == link
    assert tab.fund.link.cursorPosition() == 0  # the link reads from "bitcoin:<address>"
    assert expected.startswith(f"bitcoin:{bidding}?amount=0.0025&")
    code = segno.make(expected, error="m", micro=False)
    assert tab.fund.qr.matrix() == tuple(tuple(bool(c) for c in row) for row in code.matrix)
    _assert_pixmap_draws(tab.fund.qr.pixmap(330), tab.fund.qr.matrix())
    gui_thread.assert_not_blocked()

    with gui_thread.paused(), httpx.Client(base_url=app.root_url, timeout=30) as http:
        tx = http.get(f"/esplora/tx/{txid}").json()
        paid = [o["value"] for o in tx["vout"] if o.get("scriptpubkey_address") == bidding]
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
    from app.services.qa_vault import file_vault
    from app.services.sandbox_demo import DEMO_PRESET
    from app.services.session import keys_from_secret, layout_for_preset
    from app.ui.qa.profiles import SANDBOX_REQUEST_RATE
    from app.ui.qa.sandbox import fund_bidding_wallet, sandbox_post
    from app.wallet.vault_models import MnemonicSecret, ProfileMeta

    options = make_options()
    secret = MnemonicSecret(bip39.mnemonic_from_bytes(bytes(range(16))))
    meta = ProfileMeta(name="seed", network="regtest", layout=layout_for_preset(DEMO_PRESET))
    keys = keys_from_secret(secret, meta)  # only to know the public side
    vault = file_vault(options.data_dir)
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
    wallet = App(app, qtbot, qloop, root).wallet
    tab = wallet.widget
    # The funds came from outside the app: they show at the next refresh, as after Refresh.
    wallet.refresh()
    wallet.expect_balance(70_000)
    shown = wallet.addresses()
    assert (shown.payment, shown.ordinals) == (keys.payment.address, keys.ordinals.address)
    asked: list[str] = []

    async def no_folder(_parent: object, title: str) -> None:
        asked.append(title)

    monkeypatch.setattr(SignElsewhere, "ask_folder", staticmethod(no_folder))
    assert tab.fund.import_button.isVisible()
    review = wallet.fund(10_000)
    assert asked == []  # the folder is asked once the review is accepted
    assert review.can_approve
    assert "nothing is signed here" in review.verdict
    assert "will be signed" not in review.verdict
    assert review.dialog.sign_button is not None
    click(qtbot, review.dialog.sign_button)  # no folder chosen: no outcome for approve()
    qtbot.waitUntil(lambda: asked == [strings.ELSEWHERE_EXPORT_FOLDER])
    assert wallet.expect_fund_message(strings.ELSEWHERE_NOT_EXPORTED)
    qtbot.waitUntil(tab.fund.fund_button.isEnabled)
    gui_thread.assert_not_blocked()


def test_a_fee_far_above_the_market_is_signed_only_once_accepted(bidwallet_app: App) -> None:
    """A custom 80 sat/vB on a quiet sandbox mempool: the review says the fee is outside the
    bounds, in sats, sat/vB and share of the amount; Sign stays disabled until the box is
    ticked, then the very fee shown is paid."""
    app = bidwallet_app
    assert app.root_url is not None
    wallet = app.wallet
    review = wallet.fund(AMOUNT, fee_rate=80)
    assert wallet.widget.fund.fee.rate() == 80
    assert review.needs_fee_consent and review.can_approve
    sign_button, consent_box = review.dialog.sign_button, review.dialog.consent_box
    assert sign_button is not None and consent_box is not None
    assert not sign_button.isEnabled()
    assert "its fee" in review.verdict
    assert "times the estimate for the next block" in review.verdict
    assert f"of the {AMOUNT:,} sats moved" in consent_box.text()
    review.accept_fee()
    assert sign_button.isEnabled()
    review.approve()
    txid = wallet.widget.fund.last_txid
    assert txid is not None
    with httpx.Client(base_url=app.root_url, timeout=30) as http:
        tx = http.get(f"/esplora/tx/{txid}").json()
    fee = sum(i["prevout"]["value"] for i in tx["vin"]) - sum(o["value"] for o in tx["vout"])
    assert Fraction(fee, tx["weight"] // 4) >= 70  # the rate the user accepted
