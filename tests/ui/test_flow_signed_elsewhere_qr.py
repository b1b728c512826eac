"""A watch-only profile's PSBT through animated QR codes, the way Sparrow, Coldcard, Keystone,
Passport and SeedSigner move it, through the widgets against the real sandbox: the exported
withdrawal is shown as the PSBT itself (its painted frames read by zxing-cpp give the file's
very bytes, in BBQr and in UR); the other wallet (the test, with the real keys, through the
PSBT's origins) signs it and shows it back; "Scan signed QR…" reads those frames from image
files (some missed, shuffled, repeated), saves the signed PSBT into the export's folder and
goes through Import signed's review and submit: the sandbox has the withdrawal. Refused first,
nothing written: the export itself (no signed PSBT in it), a signed PSBT of another
transaction, a signed file already in the folder. A funding crosses the same way as BBQr type P
(pressed before any export, Scan signed QR… asks for the folder, as Import signed… does), and
an inscription bid as UR."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import httpx
import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.core.animated_qr import Payload, PayloadKind, QrFormat
from app.services.offline_files import read_manifest
from app.services.offline_qr import export_payload
from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.dialogs.animated_qr_dialog import AnimatedQrDialog
from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog
from app.ui.dialogs.qr_scan_dialog import QrScanDialog
from app.ui.qa.actions import click, type_into, wait_new_dialog
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.sandbox import fund_bidding_wallet, sandbox_post
from app.ui.sign_elsewhere import SignElsewhere
from app.ui.tabs.inscription_bid_tab import InscriptionBidTab
from app.ui.tabs.wallet_tab import WalletTab
from app.ui.tabs.withdraw_tab import WithdrawTab
from app.wallet.psbt_fixes import FixedPSBT
from app.wallet.psbt_io import psbt_to_bytes
from app.wallet.psbt_reader import unsigned_txid
from tests.ui.test_animated_qr_dialog import decode_on_screen
from tests.ui.test_flow_inscription_bid import seller_inscription
from tests.ui.test_flow_qr_scan import frames_of
from tests.ui.test_flow_signed_elsewhere import FUNDS, Collector, open_collector


def shown_in_format(qtbot: QtBot, dialog: AnimatedQrDialog, fmt: QrFormat) -> Payload | None:
    """What the dialog paints once restarted in `fmt`, read back by zxing-cpp."""
    dialog.format_choice.setCurrentIndex(dialog.format_choice.findData(fmt))

    def restarted() -> bool:
        sequence = dialog.sequence
        return sequence is not None and sequence.format is fmt and dialog.timer.isActive()

    qtbot.waitUntil(restarted, timeout=10_000)
    return decode_on_screen(qtbot, dialog)


def scan_frames(qtbot: QtBot, app: AppHarness, button: object) -> QrScanDialog:
    """Press "Scan signed QR…", then "From image files…" in the scan dialog it opens."""
    before = len(app.dialogs)
    click(qtbot, button)  # type: ignore[arg-type]
    dialog = wait_new_dialog(qtbot, app, QrScanDialog, before)
    assert dialog.windowTitle() == strings.QR_SCAN_TITLE
    click(qtbot, dialog.files_button)
    return dialog


T = TypeVar("T", bound=QWidget)


def tab_answering(
    app: AppHarness,
    key: str,
    kind: type[T],
    folder: Path,
    monkeypatch: pytest.MonkeyPatch,
    gui_thread: GuiThreadWatch,
) -> tuple[T, list[list[Path]]]:
    """Tab `key` shown (as a `kind`, the GUI thread watched from here), the folder question
    answered with `folder` and each scan's image question with the next list the test puts
    in the returned list."""
    images: list[list[Path]] = []

    async def ask_folder(_parent: object, _title: str) -> Path:
        return folder

    async def ask_images(_parent: object) -> list[Path]:
        return images.pop(0)

    monkeypatch.setattr(SignElsewhere, "ask_folder", staticmethod(ask_folder))
    monkeypatch.setattr(QrScanDialog, "ask_image_paths", staticmethod(ask_images))
    gui_thread.start()
    app.window.show_tab(key)
    tab = app.window.tab(key)
    assert isinstance(tab, kind)
    return tab, images


def export_by_review(qtbot: QtBot, app: AppHarness, tab: WithdrawTab | InscriptionBidTab) -> None:
    """Review pressed and the watch-only review approved: exported for the other wallet, as
    the tab says."""
    before = len(app.dialogs)
    click(qtbot, tab.review_button)
    review = wait_new_dialog(qtbot, app, PsbtReviewDialog, before)
    assert review.sign_button is not None
    click(qtbot, review.sign_button)
    qtbot.waitUntil(lambda: tab.status.text().startswith("Exported to"), timeout=20_000)


def signed_by_other_wallet(collector: Collector, psbt: FixedPSBT) -> bytes:
    assert psbt.sign_with(collector.root, sighash=None) >= 1
    return psbt_to_bytes(psbt)


def test_a_withdrawal_shown_as_its_psbt_and_scanned_back_signed(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    collector = open_collector(qtbot, open_app, make_options, sandbox)
    app = collector.app
    fund_bidding_wallet(app, qloop, FUNDS)
    folder = tmp_path / "to-sign"
    tab, images = tab_answering(app, "withdraw", WithdrawTab, folder, monkeypatch, gui_thread)
    assert tab.scan_button.isVisible() and tab.qr_button.isVisible()
    assert tab.qr_button.text() == strings.QR_SHOW_PSBT
    qtbot.waitUntil(lambda: tab.facts is not None, timeout=20_000)
    type_into(qtbot, tab.amount.edit, "150,000")
    export_by_review(qtbot, app, tab)
    (exported,) = folder.glob("*-withdraw.psbt")
    wanted = Payload(PayloadKind.PSBT, exported.read_bytes())
    with gui_thread.paused():
        (item,) = read_manifest(folder).items

    # Shown: the PSBT file itself, not our bundle, in either format.
    before = len(app.dialogs)
    click(qtbot, tab.qr_button)
    shown = wait_new_dialog(qtbot, app, AnimatedQrDialog, before)
    assert shown.windowTitle() == strings.QR_TITLE_PSBT
    choices = [shown.payload_choice.itemText(i) for i in range(shown.payload_choice.count())]
    assert choices == ["PSBT 1 of 1: 01-withdraw.psbt", strings.QR_WHOLE_EXPORT_ITEM]
    with gui_thread.paused():
        assert decode_on_screen(qtbot, shown) == wanted
        assert shown_in_format(qtbot, shown, QrFormat.UR) == wanted
        # The whole export, chosen last, for a Bidwallet --offline signer (its manifest).
        shown.payload_choice.setCurrentIndex(1)
        qtbot.waitUntil(shown.timer.isActive, timeout=10_000)
        assert decode_on_screen(qtbot, shown) == export_payload(folder)
    shown.reject()

    signed_file = folder / item.signed_psbt_file

    def said(text: str) -> Callable[[], bool]:
        return lambda: text in tab.status.text() and tab.scan_button.isEnabled()

    # 1. Our own export, not signed, scanned back by mistake: read whole (a signed export of
    # the offline signer is read too), then refused, nothing written.
    with gui_thread.paused():
        images.append(frames_of(export_payload(folder), QrFormat.BBQR, tmp_path / "bundle"))
        files = sorted(p.name for p in folder.iterdir())
    scan_frames(qtbot, app, tab.scan_button)
    qtbot.waitUntil(said("carries no signed PSBT"), timeout=20_000)
    assert tab.status.text().startswith("Not imported")
    assert sorted(p.name for p in folder.iterdir()) == files

    # 2. A signed PSBT of another transaction: named with the exported one, nothing written.
    with gui_thread.paused():
        other = FixedPSBT.parse(exported.read_bytes())
        other.outputs[0].value -= 1_000
        other_txid = unsigned_txid(other)
        other_signed = signed_by_other_wallet(collector, other)
        other_frames = frames_of(Payload(PayloadKind.PSBT, other_signed), QrFormat.UR,
                                 tmp_path / "other", drop_every=3)  # fmt: skip
        images.append(other_frames)
    scan_frames(qtbot, app, tab.scan_button)
    qtbot.waitUntil(said(f"is transaction {other_txid}, not the one exported"), timeout=20_000)
    assert item.unsigned_txid in tab.status.text() and tab.status.text().startswith("Not imported")
    assert sorted(p.name for p in folder.iterdir()) == files

    # 3. A signed file already in the folder: kept, the scan refused.
    with gui_thread.paused():
        signed = signed_by_other_wallet(collector, FixedPSBT.parse(exported.read_bytes()))
        signed_file.write_bytes(b"signed earlier")
        images.append(frames_of(Payload(PayloadKind.PSBT, signed), QrFormat.UR,
                                tmp_path / "signed-1", drop_every=3))  # fmt: skip
    scan_frames(qtbot, app, tab.scan_button)
    qtbot.waitUntil(said("already holds a signed PSBT"), timeout=20_000)
    with gui_thread.paused():
        assert signed_file.read_bytes() == b"signed earlier"
        signed_file.unlink()

    # 4. The other wallet's signed PSBT as UR crypto-psbt, a third of its frames missed:
    # saved, then Import signed's review and submit.
    with gui_thread.paused():
        images.append(frames_of(Payload(PayloadKind.PSBT, signed), QrFormat.UR,
                                tmp_path / "signed-2", drop_every=3))  # fmt: skip
    before = len(app.dialogs)
    scan_frames(qtbot, app, tab.scan_button)
    again = wait_new_dialog(qtbot, app, PsbtReviewDialog, before)
    assert signed_file.read_bytes() == signed
    assert again.sign_button is not None
    click(qtbot, again.sign_button)
    qtbot.waitUntil(lambda: tab.status.text().startswith("Withdrawn 150,000 sats"), timeout=30_000)
    assert item.unsigned_txid in tab.status.text()  # segwit: the txid signed is the one sent
    gui_thread.assert_not_blocked()
    with gui_thread.paused(), httpx.Client(base_url=collector.url, timeout=30) as http:
        tx = http.get(f"/esplora/tx/{item.unsigned_txid}")
    assert tx.is_success and tx.json()["txid"] == item.unsigned_txid


def test_a_funding_signed_elsewhere_comes_back_as_bbqr(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    collector = open_collector(qtbot, open_app, make_options, sandbox)
    app = collector.app
    fund_bidding_wallet(app, qloop, 10_000)  # the bidding wallet is known
    sandbox_post(collector.url, "/sandbox/faucet", {"address": collector.keys.payment.address,
                                                    "sats": 500_000})  # fmt: skip
    sandbox_post(collector.url, "/sandbox/mine", {"blocks": 1})
    images: list[list[Path]] = []
    asked: list[str] = []

    async def ask_folder(_parent: object, title: str) -> Path | None:
        asked.append(title)
        return None if title == strings.ELSEWHERE_IMPORT_FOLDER else tmp_path / "fund"

    async def ask_images(_parent: object) -> list[Path]:
        return images.pop(0)

    monkeypatch.setattr(SignElsewhere, "ask_folder", staticmethod(ask_folder))
    monkeypatch.setattr(QrScanDialog, "ask_image_paths", staticmethod(ask_images))
    gui_thread.start()
    app.window.show_tab("wallet")
    wallet = app.window.tab("wallet")
    assert isinstance(wallet, WalletTab)
    before = len(app.dialogs)  # nothing exported yet: the folder is asked, as Import signed does
    click(qtbot, wallet.fund.scan_button)
    qtbot.waitUntil(lambda: asked == [strings.ELSEWHERE_IMPORT_FOLDER], timeout=10_000)
    qtbot.waitUntil(wallet.fund.scan_button.isEnabled, timeout=10_000)
    assert app.dialogs[before:] == []  # none chosen: no scan

    type_into(qtbot, wallet.fund.amount.edit, "100,000")
    before = len(app.dialogs)
    click(qtbot, wallet.fund.fund_button)
    review = wait_new_dialog(qtbot, app, PsbtReviewDialog, before)
    assert review.sign_button is not None
    click(qtbot, review.sign_button)
    qtbot.waitUntil(lambda: wallet.fund.message.text().startswith("Exported"), timeout=20_000)
    (exported,) = (tmp_path / "fund").glob("*-funding.psbt")

    with gui_thread.paused():
        signed = signed_by_other_wallet(collector, FixedPSBT.parse(exported.read_bytes()))
        images.append(frames_of(Payload(PayloadKind.PSBT, signed), QrFormat.BBQR,
                                tmp_path / "frames", drop_every=5))  # fmt: skip
        psbt_frames = images[0]
    assert len(psbt_frames) > 1  # an animated code: BBQr P frames, some missed, shuffled
    before = len(app.dialogs)
    scan_frames(qtbot, app, wallet.fund.scan_button)  # the export just made: no folder asked
    again = wait_new_dialog(qtbot, app, PsbtReviewDialog, before)
    assert again.sign_button is not None
    click(qtbot, again.sign_button)
    qtbot.waitUntil(lambda: wallet.fund.message.text().startswith("Sent 100,000 sats"),
                    timeout=30_000)  # fmt: skip
    assert asked == [strings.ELSEWHERE_IMPORT_FOLDER, strings.ELSEWHERE_EXPORT_FOLDER]
    gui_thread.assert_not_blocked()


def test_an_inscription_bid_signed_elsewhere_comes_back_as_ur(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    collector = open_collector(qtbot, open_app, make_options, sandbox)
    app = collector.app
    fund_bidding_wallet(app, qloop, FUNDS)
    sandbox_post(collector.url, "/sandbox/faucet", {"address": collector.keys.payment.address,
                                                    "sats": 200_000})  # fmt: skip
    inscription = seller_inscription(collector.url, "ui-qr-inscription-seller")  # mines too
    folder = tmp_path / "bid"
    tab, images = tab_answering(
        app, "inscription_bid", InscriptionBidTab, folder, monkeypatch, gui_thread
    )
    assert tab.scan_button.isVisible()
    type_into(qtbot, tab.inscription, inscription)
    type_into(qtbot, tab.price.edit, "30,000")
    qtbot.waitUntil(tab.review_button.isEnabled, timeout=20_000)
    export_by_review(qtbot, app, tab)
    (exported,) = folder.glob("*.psbt")

    with gui_thread.paused():
        signed = signed_by_other_wallet(collector, FixedPSBT.parse(exported.read_bytes()))
        images.append(frames_of(Payload(PayloadKind.PSBT, signed), QrFormat.UR,
                                tmp_path / "frames", drop_every=4))  # fmt: skip
    before = len(app.dialogs)
    scan_frames(qtbot, app, tab.scan_button)
    again = wait_new_dialog(qtbot, app, PsbtReviewDialog, before)
    assert again.sign_button is not None
    click(qtbot, again.sign_button)
    placed = f"Bid placed on {inscription} for 30,000 sats"
    qtbot.waitUntil(lambda: tab.status.text().startswith(placed), timeout=30_000)
    gui_thread.assert_not_blocked()
