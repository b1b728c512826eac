"""A secure rune listing whose PSBT carries the service's edict (`--service-runestones edict`),
signed offline through the widgets: the online window exports it; an `--offline` window (no
network client) reviews it from the files alone, following the edict with the rune id recorded
at export (the escrow receives the runes, the runestone described), and signs; the online
window imports, reviews again and submits: the listing is active."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.qa.app import App
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory, close_app
from app.ui.qa.pages.psbt_files import open_offline_app
from app.ui.qa.profiles import PASSWORD, open_funded_app
from app.ui.qa.sandbox import sandbox_post
from tests.ui.test_flow_listings_runestones import RECEIVES
from tests.ui.test_flow_offline import record_clients

PRICE = 44_000


def test_a_rune_listing_with_an_edict_signed_offline(
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
    online, root = funded.app, funded.root_url
    outpoint, rune = funded.assets.rune_outpoint, funded.assets.rune
    folder = tmp_path / "to-sign"
    sandbox_post(root, "/sandbox/market/runestones", {"mode": "edict"})
    try:
        gui_thread.start()
        page = App(online, qtbot, qloop, root).listings.open()
        assert page.export([outpoint], PRICE, folder) == strings.counted(
            strings.LISTINGS_EXPORTED, 1, folder=folder
        )
    finally:
        with gui_thread.paused():
            sandbox_post(root, "/sandbox/market/runestones", {"mode": "none"})

    # Offline: the files alone, no client constructed.
    made = record_clients(monkeypatch)
    offline = open_offline_app(qtbot, open_app, make_options, qloop)
    files = offline.psbt_files
    files.open_export(folder)
    review = files.start_review(PASSWORD)
    outputs = review.dialog.outputs_model
    assert outputs.cell(0, RECEIVES).text.endswith(f" {rune}")
    assert review.output_owners()[3] == "a runestone (OP_RETURN)"
    assert f"Output 3 is a runestone: an edict: all of {rune} to output 0." in review.details
    assert review.can_approve
    assert files.approve(review) == strings.counted(strings.OFFLINE_SIGNED, 1, folder=folder)
    assert made == []
    close_app(offline.harness, qloop)
    monkeypatch.undo()

    # Online again: import (reviewed again, signatures checked) and submit.
    again = page.start_import(folder)
    assert again.dialog.outputs_model.cell(0, RECEIVES).text.endswith(f" {rune}")
    assert again.can_approve
    assert page.approve(again) == strings.counted(strings.LISTINGS_DONE, 1)
    assert page.widget.state_of(outpoint) == "active"
    gui_thread.assert_not_blocked()
