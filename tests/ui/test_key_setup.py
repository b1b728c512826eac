"""Key setup through the widgets: a new phrase (shown once, confirmed by re-typing words),
an imported phrase whose preset table shows the known BIP-84/86 addresses, a WIF, and a
watch-only profile (of addresses, or of an extended public key and a descriptor)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from embit import bip32, bip39
from embit.networks import NETWORKS
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.services.key_vault import watch_only_public_keys
from app.services.profiles import SATFLOW_API_URL
from app.services.qa_vault import MemoryKeyring
from app.services.sandbox_process import SandboxProcess
from app.services.session import keys_from_secret, layout_for_preset
from app.ui import strings
from app.ui.dialogs.key_setup import KeyKind
from app.ui.qa.actions import click, type_into
from app.ui.qa.app import App
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.loop import run_async
from app.ui.qa.profiles import PASSWORD
from app.wallet.vault_models import MnemonicSecret, ProfileMeta

ABANDON = " ".join(["abandon"] * 11 + ["about"])
BIP84_FIRST = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"
BIP86_FIRST = "bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr"
REGTEST_WIF = "cMcfH8sRgBgDMfpBNG6H3haaxLkaYXgqMRef8Nev6tWyBSNr6c3n"
MAINNET_WIF = "KwFfpDsaF7yxCELuyrH9gP5XL7TAt5b9HPWC1xCQbmrxvhJgMQHb"
DUMMY_URL = "http://127.0.0.1:9"  # never contacted: these tests make no request


def test_create_a_new_phrase_confirm_it_and_connect(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    sandbox: SandboxProcess,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    gui_thread: GuiThreadWatch,
) -> None:
    app = open_app(make_options())
    gui_thread.start()
    App(app, qtbot, qloop).first_run().choose_custom(sandbox.url)
    setup = App(app, qtbot, qloop).key_setup()
    words = setup.new_phrase()
    page = setup.widget.create_page
    assert len(words) == 12 and words == page.words  # as the labels show them
    assert not setup.can_go_next  # not before "I have written them down"
    setup.wrote_them_down()

    positions = setup.positions_asked
    assert len(positions) == 3
    first = positions[0]
    wrong = "zoo" if words[first - 1] != "zoo" else "abandon"
    mismatch = strings.CONFIRM_MISMATCH.format(number=first)
    assert setup.confirm_words(words, typed={first: wrong}) == mismatch
    upper = words[first - 1].upper()  # case does not matter
    assert setup.confirm_words(words, typed={first: upper}) == ""

    said = setup.finish_with_password(PASSWORD, confirm=PASSWORD + "!")
    assert said == strings.PASSWORD_MISMATCH
    assert setup.password_strength == strings.PASSWORD_STRENGTH_LABEL.format(label="Strong")
    with qtbot.waitSignal(app.window.controller.ready, timeout=30_000):
        assert setup.finish_with_password(PASSWORD) == ""
    gui_thread.assert_not_blocked()

    context = app.context
    assert context.wallet_lock.unlocked and page.words == []  # shown once, then forgotten
    expected = keys_from_secret(
        MnemonicSecret(" ".join(words)),
        ProfileMeta(name="x", network="regtest", layout=layout_for_preset("xverse-native")),
    )
    keys = context.wallet_lock.keys
    assert (keys.payment.address, keys.ordinals.address) == (
        expected.payment.address,
        expected.ordinals.address,
    )
    assert context.connection is not None
    balance = run_async(
        qloop, context.connection.clients.esplora.address_balance(keys.payment.address)
    )
    assert balance.total == 0


def test_import_shows_each_presets_addresses_and_keeps_the_api_key_in_the_keychain(
    qtbot: QtBot,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    keychain: MemoryKeyring,
    gui_thread: GuiThreadWatch,
) -> None:
    app = open_app(make_options(keychain=keychain))
    gui_thread.start()
    first_run = App(app, qtbot, asyncio.get_running_loop()).first_run()
    click(qtbot, first_run.widget.satflow_radio)
    assert first_run.press_continue() == strings.API_KEY_REQUIRED  # said where it arose
    first_run.choose_satflow("sk-test-123")

    setup = App(app, qtbot, asyncio.get_running_loop()).key_setup()
    setup.choose(KeyKind.IMPORT)
    dialog = setup.widget
    page = dialog.import_page
    type_into(qtbot, page.mnemonic, "abandon abandon")
    qtbot.waitUntil(lambda: "not a valid recovery phrase" in page.status.text().lower())
    page.mnemonic.clear()
    with qtbot.waitSignal(page.preview_ready, timeout=30_000):
        type_into(qtbot, page.mnemonic, ABANDON)
    rows = {row.preset_id: row for row in page.rows}
    assert {"xverse", "xverse-native", "leather", "magic-eden", "okx", "unisat-p2tr"} <= set(rows)
    assert rows["xverse-native"].payment[0] == BIP84_FIRST
    assert rows["xverse-native"].ordinals[0] == BIP86_FIRST
    assert rows["leather"].payment[0] == BIP84_FIRST  # account 0 agrees across layouts
    assert rows["unisat-p2tr"].payment[0] == BIP86_FIRST
    row_index = list(rows).index("xverse-native")
    assert BIP84_FIRST in page.table.item(row_index, 1).text()  # shown in the table
    assert not dialog.next_button.isEnabled()  # a layout must be picked
    cell = page.table.visualItemRect(page.table.item(row_index, 0)).center()
    qtbot.mouseClick(page.table.viewport(), Qt.MouseButton.LeftButton, pos=cell)
    assert page.selected_preset() == "xverse-native"
    click(qtbot, dialog.next_button)
    with qtbot.waitSignal(app.window.controller.ready, timeout=30_000):
        assert setup.finish_with_password(PASSWORD, remember=True) == ""
    gui_thread.assert_not_blocked()

    context = app.context
    assert context.wallet_lock.keys.payment.address == BIP84_FIRST
    assert context.connection is not None and context.connection.marketplace_url == SATFLOW_API_URL
    assert keychain.items[("bidwallet-api-key", "Satflow")] == "sk-test-123"
    assert "sk-test-123" not in context.store.path.read_text()
    assert any(user.startswith("unlock-key:") for _, user in keychain.items)

    # Remembered in the keychain: the next start unlocks without asking.
    app.window.close()
    again = open_app(make_options(keychain=keychain))
    qtbot.waitSignal(again.window.controller.ready, timeout=30_000).wait()
    assert again.dialogs == [] and again.context.wallet_lock.keys.payment.address == BIP84_FIRST


def test_a_wif_for_another_network_is_refused_then_a_regtest_wif_works(
    qtbot: QtBot, make_options: OptionsFactory, open_app: Callable[..., AppHarness]
) -> None:
    app = open_app(make_options())
    pages = App(app, qtbot, asyncio.get_running_loop())
    pages.first_run().choose_custom(DUMMY_URL)
    setup = pages.key_setup()
    refused = setup.import_wif(MAINNET_WIF)
    assert "mainnet key but the profile is for regtest" in refused
    assert MAINNET_WIF not in refused
    assert setup.import_wif(REGTEST_WIF) == ""
    with qtbot.waitSignal(app.window.controller.ready, timeout=30_000):
        assert setup.finish_with_password(PASSWORD) == ""
    assert app.context.wallet_lock.keys.payment.address.startswith("bcrt1q")


def test_watch_only_checks_the_addresses_and_has_nothing_to_unlock(
    qtbot: QtBot, make_options: OptionsFactory, open_app: Callable[..., AppHarness]
) -> None:
    app = open_app(make_options())
    pages = App(app, qtbot, asyncio.get_running_loop())
    pages.first_run().choose_custom(DUMMY_URL)
    setup = pages.key_setup()
    setup.choose(KeyKind.WATCH)
    dialog = setup.widget
    page = dialog.watch_page
    assert not page.payment_key.isVisibleTo(page)  # asked only beside an address
    type_into(qtbot, page.payment, BIP84_FIRST)  # a mainnet address on a regtest profile
    type_into(qtbot, page.ordinals, "bcrt1q6rhpng9evdsfnn833a4f4vej0asu6dk5srld6x")
    assert page.payment_key.isVisibleTo(page) and page.ordinals_key.isVisibleTo(page)
    click(qtbot, dialog.next_button)
    qtbot.waitUntil(page.error.isVisible)
    assert "is not a regtest address" in page.error.text()
    assert not dialog.next_button.isEnabled()  # not while the refusal is shown
    page.payment.clear()
    assert not page.error.isVisible() and not page.payment_key.isVisibleTo(page)
    type_into(qtbot, page.payment, "bcrt1q6rhpng9evdsfnn833a4f4vej0asu6dk5srld6x")
    with qtbot.waitSignal(app.window.controller.ready, timeout=30_000):
        click(qtbot, dialog.next_button)
    context = app.context
    assert context.profile is not None and context.profile.key_name is not None
    assert not context.wallet_lock.unlocked
    assert app.window.status.lock_button.text() == strings.STATUS_WATCH_ONLY
    with qtbot.waitSignal(context.notice) as notice:
        app.window.unlock_action.trigger()
    assert notice.args == ["error", strings.WATCH_ONLY_NO_UNLOCK]


def abandon_account_key(path: str, version: str) -> str:
    """The "abandon ... about" account key at `path` on the test networks, as a wallet exports
    it (`version`: an embit SLIP-132 name such as "zpub", "xpub" or "zprv")."""
    root = bip32.HDKey.from_seed(bip39.mnemonic_to_seed(ABANDON))
    node = root.derive(path)
    node = node if version.endswith("prv") else node.to_public()
    return str(node.to_base58(NETWORKS["test"][version]))


def test_watch_only_from_a_vpub_and_a_descriptor_shows_the_addresses_before_saving(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    gui_thread: GuiThreadWatch,
) -> None:
    app = open_app(make_options())
    pages = App(app, qtbot, qloop)
    pages.first_run().choose_custom(DUMMY_URL)
    setup = pages.key_setup()
    setup.choose(KeyKind.WATCH)
    dialog = setup.widget
    page = dialog.watch_page
    gui_thread.start()
    zprv = abandon_account_key("m/84h/1h/0h", "zprv")
    type_into(qtbot, page.payment, zprv)
    tpub = abandon_account_key("m/86h/1h/0h", "xpub")
    type_into(qtbot, page.ordinals, f"tr([73c5da0a/86h/1h/0h]{tpub}/0/*)")
    qtbot.waitUntil(page.error.isVisible, timeout=5_000)
    assert "payment: this is a private key" in page.error.text()
    assert zprv not in page.error.text()

    page.payment.clear()
    type_into(qtbot, page.payment, abandon_account_key("m/84h/1h/0h", "zpub"))
    with qtbot.waitSignal(page.preview_ready, timeout=5_000):
        pass
    keys = keys_from_secret(
        MnemonicSecret(ABANDON),
        ProfileMeta(name="x", network="regtest", layout=layout_for_preset("xverse-native")),
    )
    shown = page.addresses.text()
    assert keys.payment.address in shown and keys.ordinals.address in shown
    assert "/0/0 below the key" in shown and "key origin [73c5da0a/86'/1'/0'/0/0]" in shown
    assert not page.error.isVisible()
    # The zpub came without its origin: its signer may not know it; the descriptor had one.
    assert page.warning.text() == strings.WATCH_NO_ORIGIN.format(role="payment", path="84h/1h/0h")
    assert not page.payment_key.isVisibleTo(page)  # a key needs no public key beside it
    assert "[fingerprint/84h/1h/0h]tpub…" in page.intro.text()  # examples for regtest

    with qtbot.waitSignal(app.window.controller.ready, timeout=30_000):
        click(qtbot, dialog.next_button)
    gui_thread.assert_not_blocked()
    context = app.context
    assert context.watch_only and context.profile is not None
    key_name = context.profile.key_name
    assert key_name is not None
    with gui_thread.paused():  # the test's own reading of what was stored
        vault = run_async(qloop, context.vault())
        public = watch_only_public_keys(vault, key_name, "regtest")
    assert public is not None and public.ordinals == keys.ordinals.public
