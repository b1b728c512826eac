"""The first-run and key-setup page objects on their own: a custom service's refused URL said by
Continue and, through `choose_custom`, in a failure naming the page, the action and the
refusal; an imported phrase refused then previewed, its layout picked, the password set; a
watch-only address of another network refused; a dialog that never opens, failing in words."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from pytestqt.qtbot import QtBot

from app.services.session import keys_from_secret, layout_for_preset
from app.ui import strings
from app.ui.qa.app import App
from app.ui.qa.expect import ScenarioFailure
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.pages.key_setup import open_key_setup
from app.ui.qa.profiles import ABANDON, DUMMY_URL, PASSWORD
from app.wallet.vault_models import MnemonicSecret, ProfileMeta


def test_first_run_refusals_then_an_imported_phrase(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    app = App(open_app(make_options()), qtbot, qloop)
    first_run = app.first_run()
    first_run.fill_custom("ftp://nowhere")
    refused = strings.URL_INVALID.format(field="Marketplace URL")
    assert first_run.press_continue() == refused
    with pytest.raises(ScenarioFailure) as failure:
        first_run.choose_custom("ftp://nowhere")
    assert str(failure.value) == (
        f"First run page, choose_custom: expected the dialog to close; it shows: error {refused!r}"
    )
    first_run.choose_custom(DUMMY_URL)
    assert not first_run.is_open

    setup = app.key_setup()
    with pytest.raises(ScenarioFailure) as failure:
        setup.import_phrase("abandon abandon")
    assert str(failure.value).startswith(
        "Key setup page, import_phrase: expected the layouts' addresses; it shows: "
    )
    assert "not a valid recovery phrase" in setup.import_status.lower()
    rows = setup.import_phrase(ABANDON)
    assert "xverse-native" in {row.preset_id for row in rows}
    assert not setup.can_go_next  # a layout must be picked
    setup.pick_layout("xverse-native")
    assert setup.step is setup.widget.password_page
    assert setup.finish_with_password(PASSWORD, confirm="") == strings.PASSWORD_MISMATCH
    with qtbot.waitSignal(app.window.controller.ready, timeout=30_000):
        assert setup.finish_with_password(PASSWORD) == ""
    expected = keys_from_secret(
        MnemonicSecret(ABANDON),
        ProfileMeta(name="x", network="regtest", layout=layout_for_preset("xverse-native")),
    )
    keys = app.keys
    assert keys is not None and keys.payment.address == expected.payment.address
    with pytest.raises(ScenarioFailure) as failure:
        open_key_setup(app, timeout_ms=200)
    assert str(failure.value).startswith(
        "Key setup page, open: expected the key-setup dialog within 0.2 s"
    )


def test_a_watch_only_address_of_another_network_is_refused_then_saved(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    app = App(open_app(make_options()), qtbot, qloop)
    app.first_run().choose_custom(DUMMY_URL)
    setup = app.key_setup()
    regtest = "bcrt1q6rhpng9evdsfnn833a4f4vej0asu6dk5srld6x"
    mainnet = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"
    refused = setup.watch_only(mainnet, regtest)
    assert "is not a regtest address" in refused and setup.is_open
    with qtbot.waitSignal(app.window.controller.ready, timeout=30_000):
        assert setup.watch_only(regtest, regtest) == ""
    assert app.context.watch_only and app.keys is None
