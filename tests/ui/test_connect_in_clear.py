"""A mainnet profile whose services are plain http to another machine does not connect, and
the window says why (security review: the chain's and ord's facts decide what is signed, and
read in clear anyone on the path could lie for them). Nothing is requested: 192.0.2.1 is a
documentation address that is never contacted."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pytestqt.qtbot import QtBot

from app.services.profiles import AppProfile, AppSettings, ProfileStore, ServiceKind
from app.services.qa_vault import QA_KDF
from app.services.session import layout_for_preset
from app.ui import strings
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.profiles import ABANDON, PASSWORD
from app.wallet.vault import Vault
from app.wallet.vault_file_store import FileStore
from app.wallet.vault_models import MnemonicSecret, ProfileMeta

NOWHERE = "http://192.0.2.1:8080"


def test_a_mainnet_profile_in_clear_is_not_connected_and_says_why(
    qtbot: QtBot,
    data_dir: Path,
    open_app: Callable[..., AppHarness],
    make_options: OptionsFactory,
) -> None:
    profile = AppProfile(
        name="Mine",
        kind=ServiceKind.CUSTOM,
        network="mainnet",
        marketplace_url="https://market.example/v1",
        esplora_url=f"{NOWHERE}/esplora",
        ord_url="https://ord.example",
        key_name="Mine key",
    )
    meta = ProfileMeta(name="Mine key", network="mainnet", layout=layout_for_preset("okx"))
    Vault(FileStore(data_dir), QA_KDF).create(meta, MnemonicSecret(ABANDON), PASSWORD)
    ProfileStore(data_dir).save(AppSettings().with_profile(profile).with_active("Mine"))
    app = open_app(make_options())
    qtbot.waitSignal(app.window.controller.ready, timeout=30_000).wait()
    assert app.context.connection is None
    said = app.window.status.error_label.toolTip() or app.window.status.error_label.text()
    assert said.startswith(strings.NOT_CONNECTED_SETTINGS.split("{")[0])
    assert "esplora url" in said and "192.0.2.1:8080" in said
