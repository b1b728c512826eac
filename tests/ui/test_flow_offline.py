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
from pytestqt.qtbot import QtBot

from app.services.offline_manifest import MANIFEST_NAME as SERVICES_MANIFEST_NAME
from app.services.offline_qr import export_payload, signed_payload
from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.offline_signing import MANIFEST_NAME
from app.ui.qa.app import App
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory, close_app
from app.ui.qa.pages.psbt_files import open_offline_app
from app.ui.qa.pages.qr_show import QrShowPage
from app.ui.qa.profiles import PASSWORD, open_funded_app

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
    online_app = App(online, qtbot, qloop, funded.root_url)
    page = online_app.listings.open()
    tab = page.widget
    review = page.start_export(chosen, PRICE, folder)  # the folder asked is answered
    assert review.can_approve
    assert review.action == strings.counted(strings.LISTINGS_EXPORT_ACTION, 2).replace("&", "")
    exported = strings.counted(strings.LISTINGS_EXPORTED, 2, folder=folder)
    assert review.approve() == exported
    assert (folder / MANIFEST_NAME).is_file()
    with gui_thread.paused():  # the test's own reading of the frames painted
        shown = QrShowPage(online_app, page.show_export_qr())
        assert shown.frames_until_whole() == export_payload(folder)
    shown.close()

    # 2. Offline window: open the manifest, unlock, review, sign. No client is constructed.
    made = record_clients(monkeypatch)
    offline = open_offline_app(qtbot, open_app, make_options, qloop)
    assert offline.context.connection is None and offline.context.sandbox is None
    files = offline.psbt_files
    loaded = strings.counted(
        strings.OFFLINE_MANIFEST_LOADED, 2, folder=folder, flow="secure listing"
    )
    assert files.open_export(folder) == loaded
    assert files.outcome == strings.OFFLINE_REVIEW_NEXT  # where the outcome comes
    assert files.outcome_role == "hint"  # a next step, not an error
    assert not offline.context.wallet_lock.unlocked
    review = files.start_review(PASSWORD)  # locked: the password is asked first
    assert review.dialog.plans_model.rowCount() == 2
    assert strings.OFFLINE_FACTS_NOTE in "\n".join(review.notes)
    assert review.can_approve
    signed = strings.counted(strings.OFFLINE_SIGNED, 2, folder=folder)
    assert files.approve(review) == signed
    assert files.outcome == signed
    assert len(list(folder.glob("*.signed.psbt"))) == 2
    assert files.can_show_signed  # the signed files, for the online side to scan
    with gui_thread.paused():
        shown = files.show_signed_qr()
        assert shown.frames_until_whole() == signed_payload(folder)
    shown.close()
    assert made == []
    close_app(offline.harness, qloop)
    monkeypatch.undo()  # back to real clients for the online half

    # 3. Online again: import (re-reviewed, signatures checked) and submit.
    again = page.start_import(folder)
    assert again.can_approve
    assert again.action == strings.counted(strings.LISTINGS_SUBMIT_ACTION, 2).replace("&", "")
    assert page.approve(again) == strings.counted(strings.LISTINGS_DONE, 2)
    assert all(tab.state_of(i) == "active" for i in chosen)
    gui_thread.assert_not_blocked()


def test_a_lone_psbt_without_its_manifest_is_described_but_not_signed(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    from app.ui.qa.profiles import prepare_profile
    from tests.ui.test_offline import bip174_psbt

    prepare_profile(data_dir)
    lone = tmp_path / "lone.psbt"
    lone.write_text(bip174_psbt() + "\n")
    files = open_offline_app(qtbot, open_app, make_options, qloop).psbt_files
    files.open_file(lone)
    assert files.outcome == strings.OFFLINE_NO_MANIFEST.format(name="lone.psbt")
    assert files.widget.loaded is not None and files.export_folder is None
    assert not files.can_review and not files.can_save
