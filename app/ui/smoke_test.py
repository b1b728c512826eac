"""`bidwallet --sandbox --smoke-test`: the built bundle's end-to-end check, through the real
window and controller, as a user would go: the sandbox profile starts (child process, demo
wallet), the Wallet tab funds the bidding wallet (its review dialog accepted here), the Bid tab
places ONE collection bid on the first demo collection (its question before signing answered
Sign), and the sandbox lists it.

Prints `smoke-test ok bid=<id>` (stdout) or `smoke-test failed: <reason>` (stderr); the exit
code comes from `exit_code`. It only ever confirms dialogs of a sandbox profile on a local
child process: `__main__` refuses the flag without `--sandbox`, and every step checks again.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QObject, QTimer, SignalInstance
from PySide6.QtWidgets import QDialog, QPushButton

from app.core.pools import bid_cost
from app.services.profiles import ServiceKind
from app.ui.error_reporting import ErrorReporter
from app.ui.state.wallet_state import WalletState
from app.ui.tabs.bid_confirm import BidConfirmDialog
from app.ui.tabs.bid_form import COLLECTION
from app.ui.tabs.bid_tab import BidTab
from app.ui.tabs.wallet_tab import WalletTab

if TYPE_CHECKING:
    from app.services.activity import ActivityEntry
    from app.ui.main_window import MainWindow

T = TypeVar("T")
log = logging.getLogger(__name__)

SMOKE_DEADLINE_S = 240.0
FUND_SATS = 200_000
BID_PRICE_SATS = 10_000
RECHECK_MS = 250  # safety net beside the signals: some states (label texts) have none


class SmokeTestFailure(Exception):
    """A smoke-test step failed; the message names the step and the app's own explanation."""


class SmokeTestDriver(QObject):
    """Drives one window through the smoke test. Build it before the controller starts, so it
    sees the `ready` signal and every dialog the app opens."""

    def __init__(self, window: MainWindow, reporter: ErrorReporter | None = None) -> None:
        super().__init__(window)
        self.window = window
        self.context = window.context
        self.step = "the app to start"
        self._ready = False
        self._failure: SmokeTestFailure | None = None
        self._wakers: list[Callable[[], None]] = []
        self._entries: list[ActivityEntry] = []
        self._last_error = ""
        self._review_expected = False  # only the funding review is ever accepted
        self._bid_question_expected = False  # and the question before the one bid is signed
        window.controller.ready.connect(self._on_ready)
        self.context.dialog_opened.connect(self._on_dialog)
        self.context.activity_added.connect(self._entries.append)
        self.context.notice.connect(self._on_notice)
        if reporter is not None:
            reporter.reported.connect(lambda kind: self._fail(f"unexpected error {kind}"))

    # -- the run --------------------------------------------------------------------------------

    async def run(self) -> str:
        """All steps; the id of the placed bid."""
        self._require_sandbox_options()
        await self._until("the sandbox profile to start", lambda: self._ready or None)
        self._require_running_sandbox()
        price = BID_PRICE_SATS
        await self._fund_if_needed(price)
        return await self._place_bid(price)

    async def run_and_close(self, deadline_s: float = SMOKE_DEADLINE_S) -> int:
        """`run` within `deadline_s`, its one-line result printed, the window closed (the app
        then stops the sandbox). The exit code: 0 when the bid was placed."""
        code = 1
        try:
            bid_id = await asyncio.wait_for(self.run(), deadline_s)
        except SmokeTestFailure as exc:
            print(f"smoke-test failed: {exc}", file=sys.stderr, flush=True)
        except TimeoutError:
            detail = f" (last error: {self._last_error})" if self._last_error else ""
            print(
                f"smoke-test failed: no result within {deadline_s:g} s, "
                f"waiting for {self.step}{detail}",
                file=sys.stderr,
                flush=True,
            )
        except Exception as exc:
            log.exception("smoke test")
            print(f"smoke-test failed: {type(exc).__name__} in {self.step}", file=sys.stderr)
        else:
            print(f"smoke-test ok bid={bid_id}", flush=True)
            code = 0
        finally:
            self.window.close()
        return code

    # -- steps ----------------------------------------------------------------------------------

    def _require_sandbox_options(self) -> None:
        options = self.context.options
        if not options.sandbox or options.offline:
            raise SmokeTestFailure("the smoke test runs only with --sandbox")

    def _require_running_sandbox(self) -> None:
        problem = self._sandbox_problem()
        if problem is not None:
            raise SmokeTestFailure(f"{problem}: {self._last_error or 'no error shown'}")

    def _sandbox_problem(self) -> str | None:
        """Why this is not a running sandbox profile with its demo wallet (None: it is)."""
        context = self.context
        profile = context.profile
        if profile is None or profile.kind is not ServiceKind.SANDBOX:
            return "no sandbox profile is active"
        if profile.network != "regtest" or context.sandbox is None or context.connection is None:
            return "the sandbox is not running"
        if not profile.sandbox_only or not context.wallet_lock.unlocked:
            return "no unlocked demo wallet"
        return None

    async def _fund_if_needed(self, price: int) -> None:
        self.window.show_tab("wallet")
        tab = self.window.tab("wallet")
        assert isinstance(tab, WalletTab)
        state = WalletState.of(self.context)
        self.step = "the bidding wallet's balance"
        await state.refresh()
        if state.view is None:
            raise SmokeTestFailure(f"the bidding wallet could not be read: {state.error}")
        needed = bid_cost(price, tab.session.maker_fee)
        if state.view.balance.total >= needed:
            return
        fund = tab.fund
        fund.amount.edit.setText(f"{FUND_SATS:,}")
        seen = len(self._entries)
        self._review_expected = True
        fund.fund_button.click()

        def funded() -> str | None:
            self._raise_on_failed_entry(seen, "fund.", "funding failed", fund.message.text())
            return fund.last_txid

        try:
            await self._until("the funding transaction", funded, self.context.activity_added)
        finally:
            self._review_expected = False
        log.info("smoke test: funded the bidding wallet (%s)", fund.last_txid)

        def balance() -> bool | None:
            view = state.view
            return (view is not None and view.balance.total >= needed) or None

        await self._until("the funded balance", balance, state.updated)

    async def _place_bid(self, price: int) -> str:
        self.window.show_tab("bid")
        tab = self.window.tab("bid")
        assert isinstance(tab, BidTab)
        first = await self._first_collection()
        offered = tab.form.slug_names

        def listed() -> bool | None:
            return first in offered.stringList() or None

        await self._until(f"{first!r} in the Bid tab", listed, offered.modelReset)
        form = tab.form
        form.ordinals_radio.setChecked(True)
        form.scope.setCurrentIndex(form.scope.findData(COLLECTION))
        form.slug.setText(first)
        form.price.edit.setText(f"{price:,}")
        form.quantity.setValue(1)

        def placeable() -> bool | None:
            preview = tab.last_preview
            if preview.placeable and tab.place_button.isEnabled():
                return True
            if preview.balance_known and any(preview.errors.values()):
                errors = "; ".join(e for errs in preview.errors.values() for e in errs)
                raise SmokeTestFailure(f"the Bid tab refuses the bid: {errors}")
            return None

        await self._until("the bid preview", placeable, tab.state.updated, form.changed)
        before = {b.bid_id for b in (tab.state.view.bids if tab.state.view else ())}
        seen = len(self._entries)
        self._bid_question_expected = True
        tab.place_button.click()

        def placed() -> bool | None:
            self._raise_on_failed_entry(seen, "bid.place", "bid not placed", tab.result.text())
            return any(e.action == "bid.place" and e.ok for e in self._entries[seen:]) or None

        try:
            await self._until("the bid placement", placed, self.context.activity_added)
        finally:
            self._bid_question_expected = False

        def in_bid_list() -> str | None:
            view = tab.state.view
            for bid in () if view is None else view.bids:
                if bid.bid_id not in before and (bid.collection_slug, bid.price) == (first, price):
                    return bid.bid_id
            return None

        tab.state.request_refresh()
        return await self._until("the bid in the service's list", in_bid_list, tab.state.updated)

    async def _first_collection(self) -> str:
        """The first collection the sandbox lists: the one the demo wallet was given."""
        from app.services.errors import NetError
        from app.services.sandbox_facts import sandbox_collections

        root = self.context.sandbox.url if self.context.sandbox is not None else None
        if root is None:
            raise SmokeTestFailure("the sandbox stopped")
        self.step = "the sandbox's collections"
        try:
            collections = await sandbox_collections(root)
        except NetError as exc:
            raise SmokeTestFailure(f"no collection list from the sandbox: {exc}") from None
        if not collections:
            raise SmokeTestFailure("the sandbox lists no collection")
        return collections[0].slug

    # -- waiting --------------------------------------------------------------------------------

    async def _until(self, what: str, check: Callable[[], T | None], *signals: SignalInstance) -> T:
        """Wait until `check` gives a value, re-checked when one of `signals` fires (and every
        RECHECK_MS); a failure (raised by `check`, or met elsewhere) ends the wait."""
        self.step = what
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()

        def probe(*_: object) -> None:
            if future.done():
                return
            if self._failure is not None:
                future.set_exception(self._failure)
                return
            try:
                value = check()
            except SmokeTestFailure as exc:
                future.set_exception(exc)
                return
            if value is not None:
                future.set_result(value)

        timer = QTimer(self)
        timer.setInterval(RECHECK_MS)
        timer.timeout.connect(probe)
        for signal in signals:
            signal.connect(probe)
        self._wakers.append(probe)
        try:
            timer.start()
            probe()
            return await future
        finally:
            timer.stop()
            timer.deleteLater()
            self._wakers.remove(probe)
            for signal in signals:
                signal.disconnect(probe)

    def _fail(self, reason: str) -> None:
        if self._failure is None:
            self._failure = SmokeTestFailure(f"{reason} (while waiting for {self.step})")
        for wake in list(self._wakers):
            wake()

    def _raise_on_failed_entry(self, seen: int, prefix: str, what: str, shown: str) -> None:
        for entry in self._entries[seen:]:
            if entry.action.startswith(prefix) and not entry.ok:
                raise SmokeTestFailure(f"{what}: {shown or entry.message or entry.error_code}")

    # -- signals --------------------------------------------------------------------------------

    def _on_ready(self) -> None:
        self._ready = True
        for wake in list(self._wakers):
            wake()

    def _on_notice(self, level: str, text: str) -> None:
        if level == "error":
            self._last_error = text

    def _on_dialog(self, dialog: object) -> None:
        from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog

        if not isinstance(dialog, QDialog):
            return
        if isinstance(dialog, BidConfirmDialog) and self._bid_question_expected:
            self._press_when_shown(dialog, dialog.sign_button)  # "Sign and place"
            return
        if not isinstance(dialog, PsbtReviewDialog) or not self._review_expected:
            QTimer.singleShot(0, dialog.reject)
            self._fail(f"unexpected dialog {type(dialog).__name__} {dialog.windowTitle()!r}")
            return
        if dialog.sign_button is None:  # the policy refused the PSBT: the dialog says why
            QTimer.singleShot(0, dialog.reject)
            self._fail(f"the funding review refused it: {dialog.verdict_label.text()}")
            return
        self._accept_when_shown(dialog)

    def _press_when_shown(self, dialog: QDialog, button: QPushButton) -> None:
        """Click `button` once `dialog` is open, for a sandbox profile only."""

        def press() -> None:
            if self._failure is not None:
                return
            if not dialog.isVisible():
                QTimer.singleShot(RECHECK_MS, press)
                return
            problem = self._sandbox_problem()  # never sign for anything but the sandbox
            if problem is not None:
                dialog.reject()
                self._fail(problem)
                return
            button.click()

        QTimer.singleShot(0, press)

    def _accept_when_shown(self, dialog: QDialog) -> None:
        """Press Sign once the dialog is open (it is announced just before `open()`: a click
        before that would finish it before anyone awaits it)."""
        from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog

        assert isinstance(dialog, PsbtReviewDialog)

        def press() -> None:
            button = dialog.sign_button
            if self._failure is not None or button is None:
                return
            if not dialog.isVisible():
                QTimer.singleShot(RECHECK_MS, press)
                return
            problem = self._sandbox_problem()  # never sign for anything but the sandbox
            if problem is not None:
                dialog.reject()
                self._fail(problem)
                return
            button.click()

        QTimer.singleShot(0, press)


def start_smoke_test(
    window: MainWindow, reporter: ErrorReporter | None, deadline_s: float = SMOKE_DEADLINE_S
) -> asyncio.Task[int]:
    """The smoke test as a task on the running loop; build before the controller starts."""
    driver = SmokeTestDriver(window, reporter)
    return asyncio.ensure_future(driver.run_and_close(deadline_s))


def exit_code(task: asyncio.Task[int]) -> int:
    """The smoke test's exit code once the window closed (1 if it closed before the end)."""
    if not task.done():
        task.cancel()
        print("smoke-test failed: the window closed before the end", file=sys.stderr)
        return 1
    return 1 if task.cancelled() or task.exception() is not None else task.result()
