"""The GUI tests run on the QA plugin's fixtures (app/ui/qa/plugin.py, docs/qa.md), under the
short names they have always used here; each UI test runs with the session's qasync loop as its
running loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from app.services.qa_vault import MemoryKeyring
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.sandbox import Sandbox
from app.ui.theme import ThemeState


@pytest.fixture(autouse=True)
def _on_qloop(bidwallet_on_loop: None) -> None:
    """Every UI test runs with the session's qasync loop as its running loop."""


@pytest.fixture(autouse=True)
def _style_restored(qapp: QApplication) -> Iterator[None]:
    """The application's style as it was before each test, whatever theme the test applied:
    the application is shared by every test of a process (a dark theme left by the QR scan
    dialog's fit test made the settings tab's theme test read the file before it was
    written: the window was dark already)."""
    sheet, palette, style = qapp.styleSheet(), qapp.palette(), qapp.style().name()
    name, colors = ThemeState.name, ThemeState.colors
    yield
    if (qapp.styleSheet(), qapp.style().name(), ThemeState.name) != (sheet, style, name) or (
        qapp.palette() != palette
    ):
        qapp.setStyle(style)
        qapp.setPalette(palette)
        qapp.setStyleSheet(sheet)
        ThemeState.name, ThemeState.colors = name, colors


@pytest.fixture(scope="session")
def qloop(bidwallet_loop: asyncio.AbstractEventLoop) -> asyncio.AbstractEventLoop:
    return bidwallet_loop


@pytest.fixture
def gui_thread(bidwallet_gui_thread: GuiThreadWatch) -> GuiThreadWatch:
    return bidwallet_gui_thread


@pytest.fixture(scope="session")
def sandbox(bidwallet_sandbox: Sandbox) -> Sandbox:
    return bidwallet_sandbox


@pytest.fixture
def data_dir(bidwallet_data_dir: Path) -> Path:
    return bidwallet_data_dir


@pytest.fixture
def keychain(bidwallet_keychain: MemoryKeyring) -> MemoryKeyring:
    return bidwallet_keychain


@pytest.fixture
def make_options(bidwallet_options: OptionsFactory) -> OptionsFactory:
    return bidwallet_options


@pytest.fixture
def open_app(bidwallet_open_app: Callable[..., AppHarness]) -> Callable[..., AppHarness]:
    return bidwallet_open_app


@pytest.fixture
def xvfb_display(bidwallet_xvfb: str) -> Iterator[str]:
    yield bidwallet_xvfb
