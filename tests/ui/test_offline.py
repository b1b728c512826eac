"""`bidwallet --offline`: no network client is ever constructed (not even the sandbox), the
PSBT file plumbing opens, explains and saves files, and the signing key unlocks."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from pytestqt.qtbot import QtBot

from app.services.profiles import AppProfile, ProfileStore
from app.ui import strings
from app.ui.dialogs.unlock import UnlockDialog
from app.ui.qa.actions import click, type_into, wait_dialog
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.profiles import PASSWORD, open_prepared_app, prepare_profile
from app.ui.tabs.psbt_files_tab import PsbtFilesTab
from app.wallet.psbt_io import parse_psbt, psbt_to_base64

VECTORS = Path(__file__).resolve().parents[1] / "wallet" / "vectors" / "psbt_bip174_vectors.json"


def bip174_psbt() -> str:
    """BIP-174's first valid vector: one P2PKH input, two outputs, no signature."""
    return str(json.loads(VECTORS.read_text())["valid"][0]["base64"])


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Records every httpx client constructed and refuses to start a sandbox."""
    made: list[str] = []
    for cls in (httpx.AsyncClient, httpx.Client):
        original = cls.__init__

        def record(self: Any, *args: Any, _original: Any = original, **kwargs: Any) -> None:
            made.append(type(self).__name__)
            _original(self, *args, **kwargs)

        monkeypatch.setattr(cls, "__init__", record)

    async def refuse(*args: object, **kwargs: object) -> None:
        made.append("sandbox process")
        raise AssertionError("the offline signer started the sandbox")

    monkeypatch.setattr("app.services.sandbox_process.start_sandbox", refuse)
    return made


def test_offline_signer_opens_saves_and_unlocks_without_any_network_client(
    qtbot: QtBot,
    tmp_path: Path,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    no_network: list[str],
    monkeypatch: pytest.MonkeyPatch,
    gui_thread: GuiThreadWatch,
) -> None:
    prepare_profile(data_dir)  # "Main", with a key
    store = ProfileStore(data_dir)
    store.save(store.load().with_profile(AppProfile.sandbox()).with_active("Sandbox"))
    app = open_app(make_options(offline=True))
    gui_thread.start()
    qtbot.waitSignal(app.window.controller.ready, timeout=30_000).wait()
    context, window = app.context, app.window

    assert context.connection is None and context.sandbox is None
    assert [spec.key for spec in window.tab_specs] == ["psbt_files", "activity", "settings"]
    assert window.windowTitle() == strings.OFFLINE_WINDOW_TITLE
    assert window.status.service_label.text() == strings.STATUS_OFFLINE

    tab = window.tab("psbt_files")
    assert isinstance(tab, PsbtFilesTab)
    good = tmp_path / "bid.psbt"
    good.write_text(bip174_psbt() + "\n")
    bad = tmp_path / "notes.txt"
    bad.write_text("hello")
    chosen: list[Path] = [tmp_path / "gone.psbt", bad, good]

    async def ask_open(_parent: object) -> Path:
        return chosen.pop(0)

    monkeypatch.setattr(PsbtFilesTab, "ask_open_path", staticmethod(ask_open))
    click(qtbot, tab.open_button)
    qtbot.waitUntil(lambda: tab.file_status.text().startswith("gone.psbt could not be read"))
    click(qtbot, tab.open_button)
    qtbot.waitUntil(lambda: tab.file_status.text().startswith("notes.txt is not a PSBT"))
    assert tab.loaded is None
    click(qtbot, tab.open_button)
    expected = strings.OFFLINE_LOADED.format(
        name="bid.psbt",
        inputs="1 input",
        outputs="2 outputs",
        signed=strings.OFFLINE_SIGNED_STATE[0],
    )
    qtbot.waitUntil(lambda: tab.file_status.text() == expected)
    assert not tab.save_button.isEnabled()  # nothing signed, nothing to save

    # The signing key: pick the profile, unlock it with its password.
    tab.key_choice.setCurrentIndex(tab.key_choice.findData("Main"))
    click(qtbot, tab.unlock_button)
    dialog = wait_dialog(qtbot, app, UnlockDialog)
    type_into(qtbot, dialog.password, PASSWORD)
    with qtbot.waitSignal(context.lock_changed, timeout=10_000):
        click(qtbot, dialog.unlock_button)
    assert context.profile is not None and context.profile.name == "Main"
    assert context.wallet_lock.unlocked and not tab.unlock_button.isEnabled()

    # Save plumbing: what the review-and-sign step hands over is written as base64.
    assert tab.loaded is not None
    tab.set_signed(tab.loaded)
    target = tmp_path / "out" / "bid-signed.psbt"
    target.parent.mkdir()
    suggested: list[Path] = []

    async def ask_save(_parent: object, proposal: Path) -> Path:
        suggested.append(proposal)
        return target

    monkeypatch.setattr(PsbtFilesTab, "ask_save_path", staticmethod(ask_save))
    click(qtbot, tab.save_button)
    qtbot.waitUntil(
        lambda: tab.file_status.text() == strings.OFFLINE_SAVED.format(name=target.name)
    )
    assert suggested == [good.with_name("bid-signed.psbt")]
    assert psbt_to_base64(parse_psbt(target.read_text())) == bip174_psbt()
    assert [e.action for e in context.activity.entries()][-1] == "psbt.save"  # type: ignore[union-attr]

    assert no_network == []
    gui_thread.assert_not_blocked()


def test_the_same_profile_online_does_construct_clients(
    qtbot: QtBot,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    no_network: list[str],
) -> None:
    """Control for the test above: the recorder sees the clients an online start builds."""
    app = open_prepared_app(qtbot, open_app, make_options())
    assert app.context.connection is not None
    assert no_network.count("AsyncClient") == 3  # marketplace, Esplora, ord
