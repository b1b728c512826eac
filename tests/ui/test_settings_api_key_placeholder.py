"""Settings: the empty API key field says where a key would be kept, truly: in the system
keychain when there is one, until the app quits when there is none (the key is then held in
memory only, `AppContext.session_api_keys`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.services.qa_vault import MemoryKeyring
from app.ui import strings
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.profiles import open_prepared_app
from app.ui.tabs.settings_tab import SettingsTab


@pytest.mark.parametrize(
    ("with_keychain", "placeholder"),
    [(True, strings.API_KEY_PLACEHOLDER), (False, strings.API_KEY_PLACEHOLDER_SESSION)],
)
def test_the_api_key_placeholder_says_where_the_key_is_kept(
    qtbot: QtBot,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    with_keychain: bool,
    placeholder: str,
) -> None:
    keychain = MemoryKeyring() if with_keychain else None
    app = open_prepared_app(qtbot, open_app, make_options(keychain=keychain), keychain=keychain)
    app.window.show_tab("settings")
    tab = app.window.tab("settings")
    assert isinstance(tab, SettingsTab)
    form = tab.form
    qtbot.waitUntil(lambda: form.profile is not None and form.profile.name == "Main")
    qtbot.waitUntil(lambda: form.api_key.placeholderText() == placeholder, timeout=5_000)
