"""While the first-run dialog waits for the user's choice nothing connects, and the window
says so: not "Connecting…" in the status bar or the Wallet tab (issue 15: "every state message
is true at the moment it shows"); the dialog's API key fields say where a key is kept, the
system keychain only when there is one (the Settings rule, `strings.api_key_placeholder`)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from app.services.qa_vault import MemoryKeyring
from app.ui import strings
from app.ui.dialogs.first_run import FirstRunDialog
from app.ui.qa.harness import AppHarness, OptionsFactory


def first_run_dialog(qtbot: QtBot, app: AppHarness) -> FirstRunDialog:
    qtbot.waitUntil(lambda: bool(app.dialogs), timeout=20_000)
    dialog = app.dialogs[0]
    assert isinstance(dialog, FirstRunDialog)
    return dialog


def test_nothing_says_connecting_while_the_first_profile_is_chosen(
    qtbot: QtBot, make_options: OptionsFactory, open_app: Callable[..., AppHarness]
) -> None:
    app = open_app(make_options())  # no system keychain
    dialog = first_run_dialog(qtbot, app)
    status = app.window.status
    assert status.service_label.text() != strings.STATUS_CONNECTING
    assert status.profile_label.text() == strings.STATUS_NO_PROFILE
    wallet = app.window.tab("wallet")
    assert wallet.notice.text() == strings.CHOOSING_PROFILE_HINT  # type: ignore[attr-defined]
    for field in (dialog.satflow_key, dialog.custom_key):
        assert field.placeholderText() == strings.API_KEY_PLACEHOLDER_SESSION

    with qtbot.waitSignal(app.window.controller.ready, timeout=20_000):
        dialog.done(QDialog.DialogCode.Rejected)
    assert status.service_label.text() == strings.STATUS_NOT_CONNECTED
    assert wallet.notice.text() == strings.NOT_CONNECTED_HINT  # type: ignore[attr-defined]


def test_with_a_keychain_the_dialog_says_the_key_is_kept_there(
    qtbot: QtBot, make_options: OptionsFactory, open_app: Callable[..., AppHarness]
) -> None:
    app = open_app(make_options(keychain=MemoryKeyring()))
    dialog = first_run_dialog(qtbot, app)
    assert dialog.satflow_key.placeholderText() == strings.API_KEY_PLACEHOLDER
    with qtbot.waitSignal(app.window.controller.ready, timeout=20_000):
        dialog.done(QDialog.DialogCode.Rejected)
