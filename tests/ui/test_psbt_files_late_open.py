"""The offline signer's tab shows the file opened last, whatever order the reads end in: a
slow read (a large export on a slow USB stick) ending after a second file was opened put the
first back in the tab, its name on the file line and its PSBT behind Save, while the user
had picked the second; a signing ending after another file was opened put the signed PSBT
behind Save under the other file's name.

The slow step is held by hand (a future this test resolves); no network client exists."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

import app.ui.tabs.psbt_files_tab as psbt_files_tab
from app.ui.offline_signing import SignOutcome
from app.ui.qa.actions import click
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.profiles import open_prepared_app, unlock_by_typing
from app.ui.tabs.psbt_files_tab import PsbtFilesTab
from tests.ui.test_offline import bip174_psbt


def test_a_file_read_late_does_not_replace_the_one_opened_since(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = open_prepared_app(qtbot, open_app, make_options(offline=True))
    tab = app.window.tab("psbt_files")
    assert isinstance(tab, PsbtFilesTab)
    first, second = tmp_path / "first.psbt", tmp_path / "second.psbt"
    for path in (first, second):
        path.write_text(bip174_psbt() + "\n")
    chosen = [first, second]

    async def ask_open(_parent: object) -> Path:
        return chosen.pop(0)

    monkeypatch.setattr(PsbtFilesTab, "ask_open_path", staticmethod(ask_open))
    read_first: asyncio.Future[None] = qloop.create_future()
    held: list[asyncio.Task[Any]] = []
    run_blocking = psbt_files_tab.run_blocking

    async def slow_for_first(fn: Callable[..., Any], *args: Any) -> Any:
        if fn is psbt_files_tab.load_psbt_file and args == (first,):
            task = asyncio.current_task()
            assert task is not None
            held.append(task)
            await read_first
        return await run_blocking(fn, *args)

    monkeypatch.setattr(psbt_files_tab, "run_blocking", slow_for_first)
    click(qtbot, tab.open_button)
    qtbot.waitUntil(lambda: len(held) == 1)  # first.psbt being read...
    click(qtbot, tab.open_button)  # ...when the user opens second.psbt
    qtbot.waitUntil(lambda: tab.file_status.text().startswith("second.psbt"))
    assert tab.loaded is not None and tab.loaded.path == second

    read_first.set_result(None)  # the first read ends at last
    qtbot.waitUntil(held[0].done)
    assert tab.file_status.text().startswith("second.psbt"), tab.file_status.text()
    assert tab.loaded is not None and tab.loaded.path == second


def test_a_signing_ending_after_another_file_was_opened_leaves_save_to_that_file(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An export being signed (a large one takes a while) when the user opens a lone PSBT:
    the signed export's PSBT went behind Save, offered as '<the lone file>-signed.psbt'."""
    app = open_prepared_app(qtbot, open_app, make_options(offline=True))
    unlock_by_typing(qtbot, app)
    tab = app.window.tab("psbt_files")
    assert isinstance(tab, PsbtFilesTab)
    export = tmp_path / "export"
    export.mkdir()
    (export / "manifest.json").write_text("{}")  # read by the fake below
    for name in ("bid.psbt", "bid.signed.psbt"):
        (export / name).write_text(bip174_psbt() + "\n")
    lone = tmp_path / "lone.psbt"
    lone.write_text(bip174_psbt() + "\n")
    chosen = [export / "manifest.json", lone]

    async def ask_open(_parent: object) -> Path:
        return chosen.pop(0)

    async def read_export(_folder: Path) -> SimpleNamespace:
        return SimpleNamespace(items=(1,), flow="withdraw")

    signed: asyncio.Future[None] = qloop.create_future()
    signing: list[asyncio.Task[Any]] = []

    async def slow_signing(*_args: object) -> SignOutcome:
        task = asyncio.current_task()
        assert task is not None
        signing.append(task)
        await signed
        return SignOutcome(True, "Signed 1 PSBT in export.", (export / "bid.signed.psbt",))

    monkeypatch.setattr(PsbtFilesTab, "ask_open_path", staticmethod(ask_open))
    monkeypatch.setattr(psbt_files_tab, "read_export", read_export)
    monkeypatch.setattr(psbt_files_tab, "review_and_sign", slow_signing)
    click(qtbot, tab.open_button)
    qtbot.waitUntil(tab.review_button.isEnabled)  # the export opened
    click(qtbot, tab.review_button)
    qtbot.waitUntil(lambda: len(signing) == 1)  # being signed...
    click(qtbot, tab.open_button)  # ...when the user opens a lone PSBT
    qtbot.waitUntil(lambda: tab.file_status.text().startswith("lone.psbt"))

    signed.set_result(None)
    qtbot.waitUntil(signing[0].done)
    assert tab.loaded is not None and tab.loaded.path == lone
    assert not tab.save_button.isEnabled() and tab.signed is None
