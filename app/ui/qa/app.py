"""The app as a scenario drives it: `App` holds the window, pytest-qt's bot and the session's
loop, and gives a page object per tab (`app.bid`, `app.open_bids`, ...) and per dialog (the
review of a PSBT: `app.review()`).

A page object acts as a user does (clicks, typing: app/ui/qa/actions.py) and waits on what
the window shows (app/ui/qa/expect.py), never on time."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

import shiboken6
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.ui.context import AppContext
from app.ui.main_window import MainWindow
from app.ui.qa.expect import DEFAULT_TIMEOUT_MS, ScenarioFailure, expect, shown_messages
from app.ui.qa.harness import AppHarness

if TYPE_CHECKING:
    from collections.abc import Callable

    from app.services.qa_vault import WalletKeys
    from app.services.sandbox_demo import DemoAssets
    from app.ui.qa.pages.activity import ActivityPage
    from app.ui.qa.pages.bid import BidPage
    from app.ui.qa.pages.first_run import FirstRunPage
    from app.ui.qa.pages.inscription_bid import InscriptionBidPage
    from app.ui.qa.pages.key_setup import KeySetupPage
    from app.ui.qa.pages.listings import ListingsPage
    from app.ui.qa.pages.open_bids import OpenBidsPage
    from app.ui.qa.pages.psbt_files import PsbtFilesPage
    from app.ui.qa.pages.qr_scan import QrScanPage
    from app.ui.qa.pages.qr_show import QrShowPage
    from app.ui.qa.pages.review import ReviewPage
    from app.ui.qa.pages.settings import SettingsPage
    from app.ui.qa.pages.sign_elsewhere import SignMessagePage
    from app.ui.qa.pages.strategies import StrategiesPage
    from app.ui.qa.pages.unlock import UnlockPage
    from app.ui.qa.pages.wallet import WalletPage
    from app.ui.qa.pages.withdraw import WithdrawPage

W = TypeVar("W", bound=QWidget)
D = TypeVar("D", bound=QWidget)  # a dialog page's dialog


@dataclass
class App:
    """An opened window. `keys` are its unlocked wallet's keys (None while locked or
    watch-only); `root_url` the sandbox it talks to (None when not on one); `assets` what the
    sandbox gave a funded profile (None otherwise)."""

    harness: AppHarness
    qtbot: QtBot
    loop: asyncio.AbstractEventLoop
    root_url: str | None = None
    assets: DemoAssets | None = None

    @property
    def window(self) -> MainWindow:
        return self.harness.window

    @property
    def context(self) -> AppContext:
        return self.harness.context

    @property
    def keys(self) -> WalletKeys | None:
        lock = self.context.wallet_lock
        return lock.keys if lock.unlocked else None

    def review(self, before: int | None = None, timeout_ms: int = 30_000) -> ReviewPage:
        """The newest PSBT review dialog opened (after the first `before` dialogs), once shown."""
        from app.ui.qa.pages.review import open_review

        return open_review(self, before, timeout_ms)

    def sign_message(self, before: int | None = None, timeout_ms: int = 20_000) -> SignMessagePage:
        """The newest sign-message dialog opened (after the first `before` dialogs), once shown."""
        from app.ui.qa.pages.sign_elsewhere import open_sign_message

        return open_sign_message(self, before, timeout_ms)

    def first_run(self) -> FirstRunPage:
        """The first-run (or Add profile) dialog, once shown."""
        from app.ui.qa.pages.first_run import open_first_run

        return open_first_run(self)

    def key_setup(self) -> KeySetupPage:
        """The key-setup dialog, once shown."""
        from app.ui.qa.pages.key_setup import open_key_setup

        return open_key_setup(self)

    def qr_show(self, before: int | None = None) -> QrShowPage:
        """The newest animated QR dialog opened (after the first `before` dialogs), once shown."""
        from app.ui.qa.pages.qr_show import open_qr_show

        return open_qr_show(self, before)

    def qr_scan(self) -> QrScanPage:
        """The QR scan dialog open now (opened by a Scan QR… button), once shown."""
        from app.ui.qa.pages.qr_scan import open_qr_scan

        return open_qr_scan(self)

    @property
    def psbt_files(self) -> PsbtFilesPage:
        """The `--offline` window's PSBT files tab (psbt_files.open_offline_app opens one)."""
        from app.ui.qa.pages.psbt_files import PsbtFilesPage

        return PsbtFilesPage(self)

    @property
    def listings(self) -> ListingsPage:
        from app.ui.qa.pages.listings import ListingsPage

        return ListingsPage(self)

    @property
    def activity(self) -> ActivityPage:
        from app.ui.qa.pages.activity import ActivityPage

        return ActivityPage(self)

    @property
    def settings(self) -> SettingsPage:
        from app.ui.qa.pages.settings import SettingsPage

        return SettingsPage(self)

    @property
    def strategies(self) -> StrategiesPage:
        from app.ui.qa.pages.strategies import StrategiesPage

        return StrategiesPage(self)

    @property
    def wallet(self) -> WalletPage:
        from app.ui.qa.pages.wallet import WalletPage

        return WalletPage(self)

    @property
    def withdraw(self) -> WithdrawPage:
        from app.ui.qa.pages.withdraw import WithdrawPage

        return WithdrawPage(self)

    @property
    def inscription_bid(self) -> InscriptionBidPage:
        from app.ui.qa.pages.inscription_bid import InscriptionBidPage

        return InscriptionBidPage(self)

    @property
    def bid(self) -> BidPage:
        from app.ui.qa.pages.bid import BidPage

        return BidPage(self)

    @property
    def open_bids(self) -> OpenBidsPage:
        from app.ui.qa.pages.open_bids import OpenBidsPage

        return OpenBidsPage(self)

    def unlock_prompt(self, before: int | None = None) -> UnlockPage:
        """The password prompt opened (after the first `before` dialogs), once shown."""
        from app.ui.qa.pages.unlock import open_unlock

        return open_unlock(self, before)

    def tab(self, key: str, kind: type[W]) -> W:
        """Tab `key` shown, as a `kind`."""
        self.window.show_tab(key)
        widget = self.window.tab(key)
        assert isinstance(widget, kind), f"tab {key!r} is a {type(widget).__name__}"
        return widget


class Page:
    """A tab or dialog of `app`; `name` is how failures call it ("Bid page, place_bid: ...")."""

    name = "window"

    def __init__(self, app: App) -> None:
        self.app = app
        self.qtbot = app.qtbot

    @property
    def widget(self) -> QWidget:
        """The page's widget (its messages are what failures quote)."""
        return self.app.window

    def shown(self) -> str:
        return shown_messages(self.widget)

    def expect(
        self,
        action: str,
        expected: str,
        condition: Callable[[], bool],
        timeout_ms: int = DEFAULT_TIMEOUT_MS,
    ) -> None:
        expect(
            self.qtbot,
            self.name,
            action,
            expected,
            condition,
            shown=self.shown,
            timeout_ms=timeout_ms,
        )


class DialogPage(Page, Generic[D]):
    """A page over one dialog: its messages are the dialog's, and it may close (the tab that
    opened it may then delete it, so a closed dialog is never touched)."""

    def __init__(self, app: App, dialog: D) -> None:
        super().__init__(app)
        self.dialog = dialog

    @property
    def widget(self) -> D:
        return self.dialog

    @property
    def is_open(self) -> bool:
        return shiboken6.isValid(self.dialog) and self.dialog.isVisible()

    def _open(self) -> D:
        """The dialog, or a ScenarioFailure once it has closed."""
        if not self.is_open:
            raise ScenarioFailure(f"{self.name} page: the dialog is closed already")
        return self.dialog
