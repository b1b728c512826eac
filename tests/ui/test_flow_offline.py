"""Offline round trip through the widgets: an online window exports two secure listing PSBTs
with their manifest, an `--offline` window (no network client constructed) reviews them in the
same review dialog and signs them with the stored key, and the online window imports the signed
folder, reviews it again and submits: the listings become active."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from app.core.animated_qr import Payload
from app.services.offline_manifest import MANIFEST_NAME as SERVICES_MANIFEST_NAME
from app.services.offline_qr import export_payload, signed_payload
from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.dialogs.animated_qr_dialog import AnimatedQrDialog
from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog
from app.ui.dialogs.unlock import UnlockDialog
from app.ui.offline_signing import MANIFEST_NAME
from app.ui.qa.actions import click, type_into, wait_dialog, wait_new_dialog
from app.ui.qa.app import App
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory, close_app
from app.ui.qa.profiles import PASSWORD, open_funded_app
from app.ui.tabs.psbt_files_tab import PsbtFilesTab
from tests.ui.test_animated_qr_dialog import decode_on_screen

PRICE = 40_000


def test_the_manifest_name_is_the_services_one() -> None:
    assert MANIFEST_NAME == SERVICES_MANIFEST_NAME


def record_clients(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    made: list[str] = []
    for cls in (httpx.AsyncClient, httpx.Client):
        original = cls.__init__

        def record(self: Any, *args: Any, _original: Any = original, **kwargs: Any) -> None:
            made.append(type(self).__name__)
            _original(self, *args, **kwargs)

        monkeypatch.setattr(cls, "__init__", record)
    return made


def test_export_sign_offline_import_and_submit(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    online = funded.app
    chosen = funded.assets.inscription_ids[:2]
    folder = tmp_path / "to-sign"

    gui_thread.start()

    # 1. Online: export for offline signing (reviewed first, like signing here).
    page = App(online, qtbot, qloop, funded.root_url).listings.open()
    tab = page.widget
    review = page.start_export(chosen, PRICE, folder)  # the folder asked is answered
    assert review.can_approve
    assert review.action == strings.counted(strings.LISTINGS_EXPORT_ACTION, 2).replace("&", "")
    exported = strings.counted(strings.LISTINGS_EXPORTED, 2, folder=folder)
    assert review.approve() == exported
    assert (folder / MANIFEST_NAME).is_file()
    shown_as_qr(qtbot, online, tab.flow.qr_button, gui_thread, lambda: export_payload(folder))

    # 2. Offline window: open the manifest, unlock, review, sign. No client is constructed.
    made = record_clients(monkeypatch)
    offline = open_app(make_options(offline=True))
    qtbot.waitSignal(offline.window.controller.ready, timeout=30_000).wait()
    assert offline.context.connection is None and offline.context.sandbox is None
    files = offline.window.tab("psbt_files")
    assert isinstance(files, PsbtFilesTab)

    async def ask_open(_parent: object) -> Path:
        return folder / MANIFEST_NAME

    monkeypatch.setattr(PsbtFilesTab, "ask_open_path", staticmethod(ask_open))
    click(qtbot, files.open_button)
    loaded = strings.counted(
        strings.OFFLINE_MANIFEST_LOADED, 2, folder=folder, flow="secure listing"
    )
    qtbot.waitUntil(lambda: files.file_status.text() == loaded, timeout=10_000)
    assert files.review_status.text() == strings.OFFLINE_REVIEW_NEXT  # where the outcome comes
    assert files.review_status.property("role") == "hint"  # a next step, not an error
    assert not offline.context.wallet_lock.unlocked
    click(qtbot, files.review_button)  # locked: the password is asked first
    unlock = wait_dialog(qtbot, offline, UnlockDialog)
    type_into(qtbot, unlock.password, PASSWORD)
    click(qtbot, unlock.unlock_button)
    review = wait_dialog(qtbot, offline, PsbtReviewDialog, timeout=30_000)
    assert review.plans_model.rowCount() == 2
    assert strings.OFFLINE_FACTS_NOTE in review.notes_label.text()
    assert review.sign_button is not None
    click(qtbot, review.sign_button)
    signed = strings.counted(strings.OFFLINE_SIGNED, 2, folder=folder)
    qtbot.waitUntil(lambda: files.review_status.text() == signed, timeout=30_000)
    assert len(list(folder.glob("*.signed.psbt"))) == 2
    assert files.qr_signed_button.isEnabled()  # the signed files, for the online side to scan
    shown_as_qr(qtbot, offline, files.qr_signed_button, gui_thread, lambda: signed_payload(folder))
    assert made == []
    close_app(offline, qloop)
    monkeypatch.undo()  # back to real clients and dialogs for the online half

    # 3. Online again: import (re-reviewed, signatures checked) and submit.
    again = page.start_import(folder)
    assert again.can_approve
    assert again.action == strings.counted(strings.LISTINGS_SUBMIT_ACTION, 2).replace("&", "")
    assert page.approve(again) == strings.counted(strings.LISTINGS_DONE, 2)
    assert all(tab.state_of(i) == "active" for i in chosen)
    gui_thread.assert_not_blocked()


def shown_as_qr(
    qtbot: QtBot,
    app: AppHarness,
    button: QPushButton,
    gui_thread: GuiThreadWatch,
    expected: Callable[[], Payload],
) -> None:
    """`button` opens the animated QR dialog; the frames it paints read back as `expected`."""
    before = len(app.dialogs)
    click(qtbot, button)
    shown = wait_new_dialog(qtbot, app, AnimatedQrDialog, before)
    with gui_thread.paused():
        assert decode_on_screen(qtbot, shown) == expected()
    shown.reject()


def test_a_lone_psbt_without_its_manifest_is_described_but_not_signed(
    qtbot: QtBot,
    tmp_path: Path,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from app.ui.qa.profiles import prepare_profile
    from tests.ui.test_offline import bip174_psbt

    prepare_profile(data_dir)
    lone = tmp_path / "lone.psbt"
    lone.write_text(bip174_psbt() + "\n")
    app = open_app(make_options(offline=True))
    qtbot.waitSignal(app.window.controller.ready, timeout=30_000).wait()
    files = app.window.tab("psbt_files")
    assert isinstance(files, PsbtFilesTab)

    async def ask_open(_parent: object) -> Path:
        return lone

    monkeypatch.setattr(PsbtFilesTab, "ask_open_path", staticmethod(ask_open))
    click(qtbot, files.open_button)
    expected = strings.OFFLINE_NO_MANIFEST.format(name="lone.psbt")
    qtbot.waitUntil(lambda: files.review_status.text() == expected, timeout=10_000)
    assert files.loaded is not None and files.export_folder is None
    assert not files.review_button.isEnabled() and not files.save_button.isEnabled()
