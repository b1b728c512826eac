"""Steps the GUI scenarios share: waiting for the app's dialogs, answering the first-run
dialog and walking the key setup, as a user would (clicks and typing)."""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QAbstractButton, QCheckBox, QRadioButton, QWidget
from pytestqt.qtbot import QtBot

from app.services.profiles import AppProfile, AppSettings, ProfileStore, ServiceKind
from app.services.session import layout_for_preset
from app.ui.dialogs.first_run import FirstRunDialog
from app.ui.dialogs.key_setup import KeyKind, KeySetupDialog
from app.wallet.keyring_store import KeyringStore
from app.wallet.vault import Vault
from app.wallet.vault_file_store import FileStore
from app.wallet.vault_models import MnemonicSecret, ProfileMeta
from tests.ui.conftest import FAST_KDF, AppHarness
from tests.ui.helpers import MemoryKeyring

D = TypeVar("D", bound=QWidget)
PASSWORD = "correct horse battery staple"
ABANDON = " ".join(["abandon"] * 11 + ["about"])
DUMMY_URL = "http://127.0.0.1:9"  # never contacted: tests using it make no request


def click(qtbot: QtBot, button: QAbstractButton) -> None:
    """Click where a user would: on the indicator of a radio or check box (their widget can be
    wider than the hit area), in the middle of anything else."""
    assert button.isEnabled(), f"{button.text()!r} is disabled"
    if isinstance(button, QRadioButton | QCheckBox):
        pos = QPoint(6, button.height() // 2)
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=pos)
    else:
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def type_into(qtbot: QtBot, widget: QWidget, text: str) -> None:
    widget.setFocus()
    qtbot.keyClicks(widget, text)


def wait_dialog(qtbot: QtBot, app: AppHarness, kind: type[D], timeout: int = 10_000) -> D:
    """The newest dialog the app opened, once it is a `kind`."""
    qtbot.waitUntil(
        lambda: bool(app.dialogs) and isinstance(app.dialogs[-1], kind), timeout=timeout
    )
    dialog = app.dialogs[-1]
    assert isinstance(dialog, kind)
    qtbot.waitUntil(dialog.isVisible)
    return dialog


def choose_custom_service(
    qtbot: QtBot, app: AppHarness, root_url: str, network: str = "regtest"
) -> None:
    dialog = wait_dialog(qtbot, app, FirstRunDialog)
    click(qtbot, dialog.custom_radio)
    for edit, suffix in (
        (dialog.marketplace_url, "/v1"),
        (dialog.esplora_url, "/esplora"),
        (dialog.ord_url, "/ord"),
    ):
        type_into(qtbot, edit, root_url + suffix)
    dialog.network.setCurrentText(network)
    click(qtbot, dialog.continue_button)


def start_key_setup(qtbot: QtBot, app: AppHarness, kind: KeyKind) -> KeySetupDialog:
    dialog = wait_dialog(qtbot, app, KeySetupDialog)
    click(qtbot, dialog.choose_page.radios[kind])
    click(qtbot, dialog.next_button)
    return dialog


def finish_with_password(qtbot: QtBot, dialog: KeySetupDialog, remember: bool = False) -> None:
    qtbot.waitUntil(lambda: dialog.page is dialog.password_page)
    page = dialog.password_page
    type_into(qtbot, page.password, PASSWORD)
    type_into(qtbot, page.confirm, PASSWORD)
    if remember:
        click(qtbot, page.remember)
    click(qtbot, dialog.next_button)


def prepare_profile(
    data_dir: Path, *, lock_timeout_s: int = 600, keychain: MemoryKeyring | None = None
) -> AppProfile:
    """A custom regtest profile (its URLs are never contacted) whose "abandon ... about" key is
    in the vault file (or `keychain`), locked with PASSWORD."""
    meta = ProfileMeta(name="Main key", network="regtest", layout=layout_for_preset("okx"))
    store = FileStore(data_dir) if keychain is None else KeyringStore(keychain, "bidwallet-test")
    Vault(store, FAST_KDF).create(meta, MnemonicSecret(ABANDON), PASSWORD)
    profile = AppProfile(
        name="Main",
        kind=ServiceKind.CUSTOM,
        network="regtest",
        marketplace_url=f"{DUMMY_URL}/v1",
        esplora_url=f"{DUMMY_URL}/esplora",
        ord_url=f"{DUMMY_URL}/ord",
        key_name="Main key",
        lock_timeout_s=lock_timeout_s,
    )
    ProfileStore(data_dir).save(AppSettings().with_profile(profile).with_active("Main"))
    return profile
