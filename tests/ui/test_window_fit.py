"""The window's first size shows the Wallet tab whole (no horizontal scroll bar, the first
screen a new user sees); made narrower, the addresses elide in their middle while the copy
button and the tooltip still give them whole. At 1024x700 (a small laptop) every tab, with a
funded wallet's data, fits without scrolling sideways. Check boxes draw a tick in both
themes."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QWidget
from pytestqt.qtbot import QtBot

from app.services.profiles import Theme
from app.services.sandbox_process import SandboxProcess
from app.ui.main_window import DEFAULT_SIZE, MINIMUM_SIZE, MainWindow
from app.ui.qa.actions import click
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.profiles import open_funded_app, open_prepared_app, unlock_by_typing
from app.ui.tabs.wallet_tab import WalletTab
from app.ui.theme import COLORS, apply_theme, check_mark_path, stylesheet


def _scrolls_sideways(tab: QWidget) -> bool:
    return any(
        area.horizontalScrollBar().isVisible() for area in tab.findChildren(QAbstractScrollArea)
    )


def _sideways(window: MainWindow) -> list[str]:
    """The tabs of `window` that scroll sideways, each shown in turn."""
    found = []
    for spec in window.tab_specs:
        window.show_tab(spec.key)
        tab = window.current_tab()
        tab.layout() and tab.layout().activate()  # type: ignore[union-attr]
        QApplication.processEvents()
        too_wide = tab.minimumSizeHint().width() > tab.width()
        if _scrolls_sideways(tab) or too_wide or window.minimumSizeHint().width() > window.width():
            found.append(spec.key)
    return found


SMALL_LAPTOP = QSize(1024, 700)


def test_every_tab_fits_1024_by_700_without_scrolling_sideways(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    window = funded.app.window
    window.resize(SMALL_LAPTOP)
    wallet = window.tab("wallet")
    assert isinstance(wallet, WalletTab)
    qtbot.waitUntil(lambda: wallet.payment_balance is not None, timeout=20_000)
    assert window.width() == SMALL_LAPTOP.width()
    # A scroll bar shown at a size passed through goes once the layout settles.
    qtbot.waitUntil(lambda: _sideways(window) == [], timeout=10_000)
    window.resize(1100, 700)  # where the Wallet tab once scrolled sideways too
    qtbot.waitUntil(lambda: _sideways(window) == [], timeout=10_000)


def test_the_wallet_tab_fits_the_first_size_and_elides_addresses_when_narrow(
    qtbot: QtBot,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    app = open_prepared_app(qtbot, open_app, make_options())
    unlock_by_typing(qtbot, app)
    window = app.window
    assert window.minimumSize() == MINIMUM_SIZE
    window.resize(DEFAULT_SIZE)
    window.show_tab("wallet")
    tab = window.tab("wallet")
    assert isinstance(tab, WalletTab)
    ordinals = app.context.wallet_lock.keys.ordinals.address
    assert ordinals.startswith("bcrt1p") and len(ordinals) == 64  # the longest kind

    # At the first size every address is shown whole and, once laid out, nothing scrolls
    # sideways (a scroll bar shown at a size passed through goes once the layout settles).
    qtbot.waitUntil(lambda: tab.ordinals.text.text() == ordinals and not _scrolls_sideways(tab))

    # Narrower: the address elides in its middle, never scrolls; its whole text is kept.
    window.resize(MINIMUM_SIZE.width() + 40, DEFAULT_SIZE.height())
    qtbot.waitUntil(lambda: "…" in tab.ordinals.text.text() and not _scrolls_sideways(tab))
    shown = tab.ordinals.text.text()
    head, tail = shown.split("…")
    assert ordinals.startswith(head) and ordinals.endswith(tail) and len(head) > 6
    assert tab.ordinals.address() == ordinals and tab.ordinals.text.toolTip() == ordinals
    click(qtbot, tab.ordinals.copy_button)
    assert QGuiApplication.clipboard().text() == ordinals


def test_the_offline_signers_tabs_fit_1024_by_700(
    qtbot: QtBot,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    app = open_prepared_app(qtbot, open_app, make_options(offline=True))
    window = app.window
    window.resize(SMALL_LAPTOP)
    assert [spec.key for spec in window.tab_specs] == ["psbt_files", "activity", "settings"]
    qtbot.waitUntil(lambda: _sideways(window) == [], timeout=10_000)


@pytest.mark.parametrize("name", ["light", "dark"])
def test_a_checked_box_draws_a_tick_in_the_theme_colours(qapp: QApplication, name: str) -> None:
    svg = Path(check_mark_path(name)).read_text(encoding="utf-8")
    (stroke,) = re.findall(r'stroke="(#[0-9a-f]{6})"', svg)
    assert stroke == COLORS[name]["accent_text"]  # the tick reads on the accent it sits on
    sheet = stylesheet(COLORS[name], name)
    assert f'image: url("{check_mark_path(name)}")' in sheet
    assert "{check_mark}" not in sheet
    apply_theme(qapp, Theme(name))
    assert check_mark_path(name) in qapp.styleSheet()
