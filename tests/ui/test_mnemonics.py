"""No two visible widgets of one window answer to the same Alt+letter: on every tab of the main
window (with a funded wallet, the funding QR shown) and of the offline signer, the menu bar's
letters included. A shared letter only moves the focus between its widgets and presses none
("Alt+P bound twice")."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QApplication, QGroupBox, QLabel, QLineEdit, QPushButton, QWidget
from pytestqt.qtbot import QtBot

from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.dialogs.first_run import FirstRunDialog
from app.ui.dialogs.key_setup import KeySetupDialog
from app.ui.main_window import MainWindow
from app.ui.qa.actions import click, wait_dialog
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.profiles import choose_custom_service, open_funded_app, open_prepared_app
from app.ui.tabs.wallet_tab import WalletTab
from tests.ui.mnemonics import mnemonic, shared_mnemonics
from tests.ui.test_flow_signed_elsewhere import open_collector


def _shared_on_each_tab(window: MainWindow) -> dict[str, dict[str, list[str]]]:
    found = {}
    for spec in window.tab_specs:
        window.show_tab(spec.key)
        QApplication.processEvents()
        shared = shared_mnemonics(window)
        if shared:
            found[spec.key] = shared
    return found


def test_the_mnemonic_scan_on_a_sample(qtbot: QtBot) -> None:
    assert [mnemonic(t) for t in ("&Save", "Fee &rate:", "A && B", "A && &B", "None")] == [
        "s",
        "r",
        None,
        "b",
        None,
    ]
    window = QWidget()
    qtbot.addWidget(window)
    first, second, hidden = QPushButton("&Place"), QPushButton("&Pay"), QPushButton("&Print")
    label = QLabel("&Price:", window)
    label.setBuddy(QLineEdit(window))
    plain = QLabel("&Plain, no buddy", window)  # a label without a buddy takes no mnemonic
    checkable = QGroupBox("&Pool", window)
    checkable.setCheckable(True)
    for button in (first, second, hidden):
        button.setParent(window)
    window.show()
    hidden.hide()
    assert plain.text()
    shared = shared_mnemonics(window)
    assert list(shared) == ["p"] and sorted(shared["p"]) == ["&Pay", "&Place", "&Pool", "&Price:"]
    second.setEnabled(False)  # disabled until a form is complete: it counts all the same
    assert sorted(shared_mnemonics(window)["p"]) == ["&Pay", "&Place", "&Pool", "&Price:"]


def test_no_two_visible_widgets_share_a_mnemonic_on_any_tab(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    window = funded.app.window
    window.resize(1024, 700)
    wallet = window.tab("wallet")
    assert isinstance(wallet, WalletTab)
    window.show_tab("wallet")
    qtbot.waitUntil(lambda: wallet.fund.qr_button.isEnabled(), timeout=20_000)
    wallet.fund.qr_button.setChecked(True)  # the payment link's widgets too
    qtbot.waitUntil(wallet.fund.copy_link.isVisible, timeout=10_000)
    assert _shared_on_each_tab(window) == {}


def test_no_two_visible_widgets_share_a_mnemonic_in_the_offline_signer(
    qtbot: QtBot,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    app = open_prepared_app(qtbot, open_app, make_options(offline=True))
    assert _shared_on_each_tab(app.window) == {}


def test_no_two_widgets_share_a_mnemonic_in_the_first_run_dialog(
    qtbot: QtBot, make_options: OptionsFactory, open_app: Callable[..., AppHarness]
) -> None:
    app = open_app(make_options())
    qtbot.waitUntil(lambda: bool(app.dialogs), timeout=10_000)
    dialog = app.dialogs[0]
    assert isinstance(dialog, FirstRunDialog)
    for radio in (dialog.sandbox_radio, dialog.satflow_radio, dialog.custom_radio):
        click(qtbot, radio)  # each choice's fields: every one is shown (and enabled in turn)
        assert shared_mnemonics(dialog) == {}
    dialog.reject()


def test_no_two_widgets_share_a_mnemonic_on_any_page_of_the_key_setup(
    qtbot: QtBot, make_options: OptionsFactory, open_app: Callable[..., AppHarness]
) -> None:
    app = open_app(make_options())
    choose_custom_service(qtbot, app, "http://127.0.0.1:9")  # never contacted
    dialog = wait_dialog(qtbot, app, KeySetupDialog)
    assert shared_mnemonics(dialog) == {}
    pages = (dialog.create_page, dialog.import_page, dialog.wif_page, dialog.watch_page)
    for page in (*pages, dialog.password_page):
        dialog.stack.setCurrentWidget(page)
        QApplication.processEvents()
        assert shared_mnemonics(dialog) == {}, type(page).__name__
    dialog.reject()


def test_no_two_visible_widgets_share_a_mnemonic_on_any_tab_when_watch_only(
    qtbot: QtBot,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
) -> None:
    """A watch-only profile shows "Import signed…" beside the Fund panel (Wallet), Withdraw,
    Inscription bid and Listings forms: its "&I" must be the only one there."""
    collector = open_collector(qtbot, open_app, make_options, sandbox)
    window = collector.app.window
    window.resize(1024, 700)
    window.show_tab("wallet")
    wallet = window.tab("wallet")
    assert isinstance(wallet, WalletTab)
    qtbot.waitUntil(wallet.fund.import_button.isVisible, timeout=10_000)
    found = _shared_on_each_tab(window)
    for key in ("wallet", "withdraw", "inscription_bid", "listings"):
        window.show_tab(key)
        QApplication.processEvents()
        imports = [
            b for b in window.current_tab().findChildren(QPushButton) if b.isVisible()
            and b.text() == strings.ELSEWHERE_IMPORT
        ]  # fmt: skip
        assert imports, f"no Import signed… shown on {key}: the watch-only variant is not seen"
    assert found == {}
