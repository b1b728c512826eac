"""Profiles a scenario starts from: a locked custom profile whose URLs are never contacted, or
a fresh funded wallet on the session's sandbox (a new mnemonic per test, so bids and listings
never mix); the first-run and key-setup dialogs answered as a user answers them."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.services.key_setup import new_mnemonic
from app.services.profiles import AppProfile, AppSettings, ProfileStore, ServiceKind
from app.services.qa_vault import (
    MemoryKeyring,
    WalletKeys,
    file_vault,
    keychain_vault,
    store_phrase,
)
from app.services.sandbox_demo import DEMO_PRESET, DemoAssets, provision_demo_wallet
from app.services.sandbox_process import SandboxProcess
from app.ui.context import AppOptions
from app.ui.qa.actions import activate, type_into, wait_dialog
from app.ui.qa.harness import AppHarness
from app.ui.qa.loop import run_async
from app.ui.qa.sandbox import Sandbox

PASSWORD = "correct horse battery staple"
ABANDON = " ".join(["abandon"] * 11 + ["about"])
DUMMY_URL = "http://127.0.0.1:9"  # never contacted: tests using it make no request
# The pace of a custom profile on the session sandbox, which enforces none. A custom host's
# default (5/s after a burst of 10, the public service's) made each scenario wait 0.2 s per
# request, most of its time (the pacing itself: tests/services/test_rate_limited_service.py,
# tests/ui/test_settings_request_rate.py). Ten times that rate still sends every request
# through the host's pacer, waiting for its slot once past the burst.
SANDBOX_REQUEST_RATE = "50/10"
READY_TIMEOUT_MS = 30_000
UNLOCK_TIMEOUT_MS = 20_000


def choose_custom_service(
    qtbot: QtBot, app: AppHarness, root_url: str, network: str = "regtest"
) -> None:
    """The first-run dialog answered with a custom service at `root_url` (the page's
    `FirstRunPage.choose_custom`; `App.key_setup()` then drives the key setup)."""
    from app.ui.qa.app import App

    App(app, qtbot, asyncio.get_running_loop()).first_run().choose_custom(root_url, network)


def prepare_profile(
    data_dir: Path, *, lock_timeout_s: int = 600, keychain: MemoryKeyring | None = None
) -> AppProfile:
    """A custom regtest profile (its URLs are never contacted) whose "abandon ... about" key is
    in the vault file (or `keychain`), locked with PASSWORD."""
    vault = file_vault(data_dir) if keychain is None else keychain_vault(keychain)
    store_phrase(vault, "Main key", "regtest", "okx", ABANDON, PASSWORD)
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


def open_prepared_app(
    qtbot: QtBot,
    open_app: Callable[..., AppHarness],
    options: AppOptions,
    *,
    lock_timeout_s: int = 600,
    keychain: MemoryKeyring | None = None,
) -> AppHarness:
    """The window on `prepare_profile`'s locked profile in `options.data_dir` (pass the same
    `keychain` as to the options), once its startup is done. A test that changes the settings
    or watches the startup itself calls `prepare_profile` and `open_app` on its own."""
    prepare_profile(options.data_dir, lock_timeout_s=lock_timeout_s, keychain=keychain)
    app = open_app(options)
    qtbot.waitSignal(app.window.controller.ready, timeout=READY_TIMEOUT_MS).wait()
    return app


@dataclass(frozen=True)
class FundedApp:
    """`app` unlocked on a custom regtest profile of the session sandbox; `keys` its wallet
    (a fresh mnemonic per test, so bids and listings never mix); `assets` what the sandbox
    gave it (5 BTC, inscriptions of a demo collection, a rune balance, all confirmed)."""

    app: AppHarness
    keys: WalletKeys
    assets: DemoAssets
    root_url: str


def open_funded_app(
    qtbot: QtBot,
    open_app: Callable[..., AppHarness],
    options: AppOptions,
    sandbox: SandboxProcess | Sandbox,
    loop: asyncio.AbstractEventLoop,
    service_root: str | None = None,
) -> FundedApp:
    """Write the profile and key, open the app, unlock it by typing the password, fund it.
    `service_root` (e.g. a proxy in front of the sandbox) is what the profile talks to."""
    mnemonic = new_mnemonic()
    store_phrase(
        file_vault(options.data_dir), "Flow key", "regtest", DEMO_PRESET, mnemonic, PASSWORD
    )
    root = sandbox.url.rstrip("/")
    service = (service_root or root).rstrip("/")
    profile = AppProfile(
        name="Flows",
        kind=ServiceKind.CUSTOM,
        network="regtest",
        marketplace_url=f"{service}/v1",
        esplora_url=f"{service}/esplora",
        ord_url=f"{service}/ord",
        key_name="Flow key",
        request_rate=SANDBOX_REQUEST_RATE,
    )
    ProfileStore(options.data_dir).save(AppSettings().with_profile(profile).with_active("Flows"))
    app = open_app(options)
    qtbot.waitSignal(app.window.controller.ready, timeout=READY_TIMEOUT_MS).wait()
    unlock_by_typing(qtbot, app)
    keys = app.context.wallet_lock.keys
    assets = run_async(
        loop, provision_demo_wallet(root, keys.payment.address, keys.ordinals.address)
    )
    return FundedApp(app, keys, assets, root)


def unlock_by_typing(qtbot: QtBot, app: AppHarness) -> None:
    """Ctrl+U, type the password, Enter: as a user unlocks."""
    from app.ui.dialogs.unlock import UnlockDialog

    activate(qtbot, app.window)
    qtbot.keyClick(app.window, Qt.Key.Key_U, Qt.KeyboardModifier.ControlModifier)
    dialog = wait_dialog(qtbot, app, UnlockDialog)
    type_into(qtbot, dialog.password, PASSWORD)
    with qtbot.waitSignal(app.context.lock_changed, timeout=UNLOCK_TIMEOUT_MS):
        qtbot.keyClick(dialog.password, Qt.Key.Key_Return)
