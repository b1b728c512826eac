"""A watch-only profile whose keys are in Bidwallet's own `--offline` signer, through animated
QR codes both ways, through the widgets against the real sandbox: the withdrawal exported on the
Withdraw tab is shown by "Show PSBT as QR…" as the whole export (the chooser's last entry; its
painted frames read by zxing-cpp give `export_payload`'s very bytes); the offline signer writes
that scan into its folder, reviews it by the manifest and signs it (`write_scanned_export`,
`sign_offline`: the services its window runs, whose widgets test_flow_qr_scan.py drives) and
shows the signed export (`signed_payload`, what its "Show signed as QR…" shows). Its frames,
saved as PNG files (some missed, shuffled, repeated), are read by the Withdraw tab's "Scan
signed QR…": a tampered copy is refused with its reason, nothing written; the real one is
written beside the export and goes through Import signed's review and submit: the sandbox has
the withdrawal."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from pytestqt.qtbot import QtBot

from app.core import qr_export_bundle
from app.core.animated_qr import Payload, PayloadKind, QrFormat
from app.services.offline import sign_offline
from app.services.offline_files import read_manifest
from app.services.offline_qr import export_payload, signed_payload, write_scanned_export
from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.dialogs.animated_qr_dialog import AnimatedQrDialog
from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog
from app.ui.qa.actions import click, type_into, wait_new_dialog
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.loop import run_async
from app.ui.qa.sandbox import fund_bidding_wallet
from app.ui.tabs.withdraw_tab import WithdrawTab
from tests.ui.test_animated_qr_dialog import decode_on_screen
from tests.ui.test_flow_qr_scan import frames_of
from tests.ui.test_flow_signed_elsewhere import FUNDS, open_collector
from tests.ui.test_flow_signed_elsewhere_qr import export_by_review, scan_frames, tab_answering


def test_a_withdrawal_signed_by_the_offline_signer_comes_back_as_its_signed_export(
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
    folder, offline = tmp_path / "to-sign", tmp_path / "offline"
    tab, images = tab_answering(app, "withdraw", WithdrawTab, folder, monkeypatch, gui_thread)
    qtbot.waitUntil(lambda: tab.facts is not None, timeout=20_000)
    type_into(qtbot, tab.amount.edit, "160,000")
    export_by_review(qtbot, app, tab)

    # Shown: the whole export, the chooser's last entry, for the offline signer.
    before = len(app.dialogs)
    click(qtbot, tab.qr_button)
    shown = wait_new_dialog(qtbot, app, AnimatedQrDialog, before)
    shown.payload_choice.setCurrentIndex(shown.payload_choice.count() - 1)
    assert shown.payload_choice.currentText() == strings.QR_WHOLE_EXPORT_ITEM
    qtbot.waitUntil(shown.timer.isActive, timeout=10_000)
    with gui_thread.paused():
        scanned_offline = decode_on_screen(qtbot, shown)
        assert scanned_offline is not None and scanned_offline == export_payload(folder)
    shown.reject()

    # Offline: written from the scan into its own folder, reviewed by the manifest, signed.
    with gui_thread.paused():
        write_scanned_export(offline, scanned_offline)
        run_async(qloop, sign_offline(offline, collector.keys, None))
        signed = signed_payload(offline)
        (item,) = read_manifest(folder).items
        signed_file = folder / item.signed_psbt_file
        files = sorted(p.name for p in folder.iterdir())

    def said(text: str) -> Callable[[], bool]:
        return lambda: text in tab.status.text() and tab.scan_button.isEnabled()

    # 1. Tampered: the signed file swapped for the unsigned PSBT. Refused, nothing written.
    with gui_thread.paused():
        bundle = qr_export_bundle.unpack(signed.data)
        bundle[item.signed_psbt_file] = bundle[item.psbt_file]
        tampered = Payload(PayloadKind.EXPORT, qr_export_bundle.pack(bundle))
        images.append(frames_of(tampered, QrFormat.BBQR, tmp_path / "tampered", drop_every=3))
    scan_frames(qtbot, app, tab.scan_button)
    qtbot.waitUntil(said("carries no signature"), timeout=20_000)
    assert tab.status.text().startswith("Not imported") and item.signed_psbt_file in (
        tab.status.text()
    )
    assert sorted(p.name for p in folder.iterdir()) == files

    # 2. The offline signer's signed export as UR, a third of its frames missed: its signed
    # file written beside the export, then Import signed's review and submit.
    with gui_thread.paused():
        images.append(frames_of(signed, QrFormat.UR, tmp_path / "signed", drop_every=3))
    assert len(images[0]) > 1  # an animated code
    before = len(app.dialogs)
    scan_frames(qtbot, app, tab.scan_button)
    again = wait_new_dialog(qtbot, app, PsbtReviewDialog, before)
    assert signed_file.read_bytes() == (offline / item.signed_psbt_file).read_bytes()
    assert sorted(p.name for p in folder.iterdir()) == sorted([*files, item.signed_psbt_file])
    assert again.sign_button is not None
    click(qtbot, again.sign_button)
    qtbot.waitUntil(lambda: tab.status.text().startswith("Withdrawn 160,000 sats"), timeout=30_000)
    assert item.unsigned_txid in tab.status.text()
    gui_thread.assert_not_blocked()
    with gui_thread.paused(), httpx.Client(base_url=collector.url, timeout=30) as http:
        tx = http.get(f"/esplora/tx/{item.unsigned_txid}")
    assert tx.is_success and tx.json()["txid"] == item.unsigned_txid
