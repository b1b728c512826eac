"""Steps the GUI scenarios share: waiting for the app's dialogs, answering the first-run
dialog and walking the key setup, as a user would (clicks and typing)."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import httpx
from embit import bip39
from PySide6.QtCore import QCoreApplication, QEvent, QPoint, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QCheckBox,
    QRadioButton,
    QWidget,
)
from pytestqt.qtbot import QtBot

from app.services.profiles import AppProfile, AppSettings, ProfileStore, ServiceKind
from app.services.sandbox_demo import DEMO_PRESET, DemoAssets, provision_demo_wallet
from app.services.sandbox_process import SandboxProcess
from app.services.session import layout_for_preset
from app.ui.context import AppOptions
from app.ui.dialogs.first_run import FirstRunDialog
from app.ui.dialogs.key_setup import KeyKind, KeySetupDialog
from app.wallet.keyring_store import KeyringStore
from app.wallet.keys import WalletKeys
from app.wallet.vault import Vault
from app.wallet.vault_file_store import FileStore
from app.wallet.vault_models import MnemonicSecret, ProfileMeta
from tests.ui.conftest import FAST_KDF, AppHarness
from tests.ui.helpers import MemoryKeyring, run_async

if TYPE_CHECKING:
    from app.services.pacing import OffsetClock
    from app.ui.tabs.bid_tab import BidTab

D = TypeVar("D", bound=QWidget)
PASSWORD = "correct horse battery staple"
ABANDON = " ".join(["abandon"] * 11 + ["about"])
DUMMY_URL = "http://127.0.0.1:9"  # never contacted: tests using it make no request
# The pace of a custom profile on the session sandbox, which enforces none. A custom host's
# default (5/s after a burst of 10, the public service's) made each scenario wait 0.2 s per
# request, most of its time (the pacing itself: tests/services/test_rate_limited_service.py,
# tests/ui/test_settings_request_rate.py). Ten times that rate still sends every request
# through the host's pacer, waiting for its slot once past the burst.
SANDBOX_REQUEST_RATE = "50/10"


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


# -- [UI-B] an app connected to the session's sandbox, with a fresh funded wallet ------------


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
    sandbox: SandboxProcess,
    loop: asyncio.AbstractEventLoop,
    service_root: str | None = None,
) -> FundedApp:
    """Write the profile and key, open the app, unlock it by typing the password, fund it.
    `service_root` (e.g. a proxy in front of the sandbox) is what the profile talks to."""
    mnemonic = bip39.mnemonic_from_bytes(secrets.token_bytes(16))
    meta = ProfileMeta(name="Flow key", network="regtest", layout=layout_for_preset(DEMO_PRESET))
    Vault(FileStore(options.data_dir), FAST_KDF).create(meta, MnemonicSecret(mnemonic), PASSWORD)
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
    qtbot.waitSignal(app.window.controller.ready, timeout=30_000).wait()
    unlock_by_typing(qtbot, app)
    keys = app.context.wallet_lock.keys
    assets = run_async(
        loop, provision_demo_wallet(root, keys.payment.address, keys.ordinals.address)
    )
    return FundedApp(app, keys, assets, root)


def unlock_by_typing(qtbot: QtBot, app: AppHarness) -> None:
    """Ctrl+U, type the password, Enter: as a user unlocks."""
    from app.ui.dialogs.unlock import UnlockDialog

    qtbot.keyClick(app.window, Qt.Key.Key_U, Qt.KeyboardModifier.ControlModifier)
    dialog = wait_dialog(qtbot, app, UnlockDialog)
    type_into(qtbot, dialog.password, PASSWORD)
    with qtbot.waitSignal(app.context.lock_changed, timeout=20_000):
        qtbot.keyClick(dialog.password, Qt.Key.Key_Return)


# -- [UI-A] the collector flows: the sandbox's scenario API and its clock ------------------


def sandbox_post(root_url: str, path: str, body: dict[str, Any]) -> Any:
    """One `/sandbox` scenario call from the test (arranging the world, not the app's work)."""
    with httpx.Client(base_url=root_url, timeout=60) as http:
        response = http.post(path, json=body)
        assert response.is_success, f"{path}: {response.text}"
        return response.json()


def fund_bidding_wallet(app: AppHarness, loop: asyncio.AbstractEventLoop, sats: int) -> str:
    """Pay `sats` into the app's bidding wallet from the faucet and confirm it; its address."""
    from app.services.bidding_wallet import get_bidding_wallet
    from app.ui.profile_session import profile_session

    session = profile_session(app.context)
    run_async(loop, session.ensure_ready())
    address = run_async(loop, get_bidding_wallet(session.read_context())).address
    root = session.sandbox_root
    assert root is not None, "the app is not on a sandbox"
    sandbox_post(root, "/sandbox/faucet", {"address": address, "sats": sats})
    sandbox_post(root, "/sandbox/mine", {"blocks": 1})
    return address


def new_collection(root_url: str, traits: dict[str, list[str]]) -> str:
    """A fresh collection with `traits` on the sandbox; its slug."""
    slug = f"ui-{secrets.token_hex(4)}"
    spec = [{"trait_type": t, "values": v} for t, v in traits.items()]
    sandbox_post(root_url, "/sandbox/collections", {"slug": slug, "name": slug, "traits": spec})
    return slug


class SandboxClockSleeper:
    """The app's sleeper in tests: a wait moves the sandbox's clock and the app's by the same
    amount instead of sleeping, and is recorded in `waits`."""

    def __init__(self, root_url: str, clock: OffsetClock) -> None:
        self.root_url = root_url
        self.clock = clock
        self.waits: list[int] = []

    async def sleep_ms(self, ms: int) -> None:
        self.waits.append(ms)
        if ms <= 0:
            return
        async with httpx.AsyncClient(base_url=self.root_url, timeout=30) as http:
            response = await http.post("/sandbox/clock", json={"advanceMs": ms})
            assert response.is_success, response.text
        self.clock.advance(ms)


def bid_tab_ready(qtbot: QtBot, app: AppHarness, slug: str | None = None) -> BidTab:
    """The Bid tab shown, with the balance loaded and (when `slug`) the collections offered."""
    from app.ui.tabs.bid_tab import BidTab

    app.window.show_tab("bid")
    tab = app.window.tab("bid")
    assert isinstance(tab, BidTab)
    qtbot.waitUntil(lambda: tab.state.view is not None and tab.state.view.balance.total > 0,
                    timeout=20_000)  # fmt: skip
    if slug is not None:
        qtbot.waitUntil(lambda: slug in tab.form.slug_names.stringList(), timeout=20_000)
    return tab


def fill_collection_bid(qtbot: QtBot, tab: BidTab, slug: str, price: str, quantity: int) -> None:
    """Type a collection bid into the Bid tab's form, as a user does: slug, price, quantity."""
    type_into(qtbot, tab.form.slug, slug)
    type_into(qtbot, tab.form.price.edit, price)
    set_spin(qtbot, tab.form.quantity, quantity)


def widget_top(widget: QWidget) -> int:
    """Where `widget` is in its window, once the layouts have settled (their pending
    requests handled, as the event loop would): to check that nothing moved."""
    for _ in range(5):
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    return widget.mapTo(widget.window(), QPoint(0, 0)).y()


def set_spin(qtbot: QtBot, spin: QAbstractSpinBox, value: int) -> None:
    """Select the spin box's text and type `value`, as a user would."""
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, str(value))
    assert spin.text().replace(",", "") == str(value)


def tick_trait(qtbot: QtBot, tab: BidTab, search: str, label: str) -> None:
    """Type `search` in the trait picker's search box, then tick the trait shown as `label`
    ("Type: value") with the space bar."""
    picker = tab.form.traits
    picker.search.clear()
    type_into(qtbot, picker.search, search)
    for row in range(picker.proxy.rowCount()):
        index = picker.proxy.index(row, 0)
        if index.data() == label:
            picker.view.setFocus()
            picker.view.setCurrentIndex(index)
            qtbot.keyClick(picker.view, Qt.Key.Key_Space)
            return
    raise AssertionError(f"no trait {label!r} among {picker.proxy.rowCount()} shown")


# -- [UI-B] dialogs opened after a point (earlier ones may be deleted already) ----------------


def wait_new_dialog(
    qtbot: QtBot, app: AppHarness, kind: type[D], before: int, timeout: int = 60_000
) -> D:
    """The first `kind` dialog the app opened after it had opened `before` dialogs."""
    qtbot.waitUntil(lambda: any(isinstance(d, kind) for d in app.dialogs[before:]), timeout=timeout)
    dialog = next(d for d in app.dialogs[before:] if isinstance(d, kind))
    qtbot.waitUntil(dialog.isVisible)
    return dialog


def place_from_bid_tab(qtbot: QtBot, app: AppHarness, tab: BidTab) -> dict[str, str]:
    """Press Place and sign at the question before signing; what it showed (pools, price,
    quantity, expiry, fee rate, and the message)."""
    from app.ui.tabs.bid_confirm import BidConfirmDialog

    before = len(app.dialogs)
    click(qtbot, tab.place_button)
    dialog = wait_new_dialog(qtbot, app, BidConfirmDialog, before, timeout=10_000)
    shown = dict(dialog.values, message=dialog.message.toPlainText())
    click(qtbot, dialog.sign_button)
    return shown


def paste_into(qtbot: QtBot, widget: QWidget, text: str) -> None:
    """Paste `text` with Ctrl+V (QTest cannot type characters such as the rune spacer •)."""
    from PySide6.QtGui import QGuiApplication

    QGuiApplication.clipboard().setText(text)
    widget.setFocus()
    qtbot.keyClick(widget, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
