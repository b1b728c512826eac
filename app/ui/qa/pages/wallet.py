"""The Wallet tab as a scenario drives it: the addresses and balances it shows, Refresh, the
Fund panel (amount, fee rate, Fund, the review, the txid), coin control ("Choose coins…": the
`CoinChooserPage`), and the payment link for another wallet."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt

from app.ui.qa.actions import click
from app.ui.qa.app import DialogPage, Page
from app.ui.qa.pages import sign_elsewhere as elsewhere
from app.ui.qa.pages.form_steps import (
    FeeRate,
    choose_fee_rate,
    expect_dialog,
    expect_signal,
    fee_presets_shown,
    replace_text,
)
from app.ui.tabs.wallet_coins import (
    COL_AMOUNT,
    COL_CARRIES,
    COL_CONFIRMATIONS,
    CoinChooserDialog,
)
from app.ui.tabs.wallet_fund import ZERO_WIDTH_SPACE
from app.ui.tabs.wallet_tab import WalletTab

if TYPE_CHECKING:
    from app.ui.qa.app import App
    from app.ui.qa.pages.review import ReviewPage
    from app.ui.tabs.wallet_fund import FundPanel

REVIEW_TIMEOUT_MS = 30_000  # building a funding PSBT reads the coins from Esplora and ord
OUTCOME_SHOWN_MS = 2_000  # the txid is set with the message approve() waited for
SATS_SHOWN = re.compile(r"^(-?[\d,]+) sats\b")


def sats_shown(text: str) -> int | None:
    """The sats a label shows ("250,000 sats (0.00250000 BTC)" -> 250000); None for "—"."""
    found = SATS_SHOWN.match(text.strip())
    return None if found is None else int(found.group(1).replace(",", ""))


@dataclass(frozen=True)
class WalletAddresses:
    payment: str | None
    ordinals: str | None
    bidding: str | None


@dataclass(frozen=True)
class WalletBalance:
    """The bidding wallet's balance as the tab shows it, in sats (None: not shown yet), and
    the texts themselves."""

    total: int | None
    confirmed: int | None
    unconfirmed: int | None
    total_text: str
    confirmed_text: str
    unconfirmed_text: str


@dataclass(frozen=True)
class CoinRow:
    """One coin of the coin chooser as listed: `carries` has the reason a greyed coin cannot
    be chosen on its second line."""

    outpoint: str
    amount: str
    confirmations: str
    carries: str
    choosable: bool


class WalletPage(Page):
    name = "Wallet"

    @property
    def widget(self) -> WalletTab:
        return self.app.tab("wallet", WalletTab)

    # -- what the tab shows -------------------------------------------------------------------

    def addresses(self, timeout_ms: int = 20_000) -> WalletAddresses:
        """The payment, ordinals and bidding wallet addresses, once the bidding wallet's is
        known (it comes from the service)."""
        tab = self.widget
        self.expect(
            "addresses",
            "the bidding wallet's address",
            lambda: tab.bidding.address() is not None,
            timeout_ms,
        )
        return WalletAddresses(tab.payment.address(), tab.ordinals.address(), tab.bidding.address())

    def balance(self) -> WalletBalance:
        """The balance shown now (each figure None while the tab shows none)."""
        tab = self.widget
        texts = (tab.total.text(), tab.confirmed.text(), tab.unconfirmed.text())
        total, confirmed, unconfirmed = (sats_shown(t) for t in texts)
        return WalletBalance(total, confirmed, unconfirmed, *texts)

    def expect_balance(self, total: int, timeout_ms: int = 20_000) -> WalletBalance:
        """Wait until the total shown is `total` sats (the tab refreshes by itself after an
        action, on a timer and on live updates)."""
        self.expect(
            "expect_balance",
            f"a total of {total:,} sats",
            lambda: self.balance().total == total,
            timeout_ms,
        )
        return self.balance()

    def refresh(self, timeout_ms: int = 20_000) -> WalletBalance:
        """Press Refresh (once it is enabled) and wait for that reading to be shown."""
        tab = self.widget
        self.expect("refresh", "Refresh enabled", tab.refresh_button.isEnabled, timeout_ms)
        loads = tab.state.loads
        click(self.qtbot, tab.refresh_button)
        self.expect("refresh", "the balance read again", lambda: tab.state.loads > loads,
                    timeout_ms)  # fmt: skip
        return self.balance()

    # -- fund ---------------------------------------------------------------------------------

    @property
    def fund_message(self) -> str:
        """The Fund panel's message (what it asks, the txid, a failure), as shown."""
        fund = self.widget.fund
        text = fund.message.text() if fund.message.isVisibleTo(fund) else ""
        return text.replace(ZERO_WIDTH_SPACE, "")

    def fill_fund(self, sats: int | None, fee_rate: FeeRate = None) -> None:
        """Type `sats` (grouped as typed; None empties the field) and choose `fee_rate` once
        the estimator's presets are offered (see form_steps.choose_fee_rate)."""
        fund = self.widget.fund
        self.expect("fill_fund", "the fee presets offered", lambda: fee_presets_shown(fund.fee))
        replace_text(self.qtbot, fund.amount.edit, "" if sats is None else f"{sats:,}")
        choose_fee_rate(self.qtbot, fund.fee, fee_rate)

    def press_fund(self) -> None:
        click(self.qtbot, self.widget.fund.fund_button)

    def fund(self, sats: int, fee_rate: FeeRate = None) -> ReviewPage:
        """Fill the Fund panel and press Fund: the review of the funding PSBT."""
        self.fill_fund(sats, fee_rate)
        before = len(self.app.harness.dialogs)
        self.press_fund()
        return self.app.review(before, REVIEW_TIMEOUT_MS)

    def fund_bidding_wallet(self, sats: int, fee_rate: FeeRate = None) -> str:
        """Fund with `sats`, approve the review (signed here and broadcast): the txid the
        panel shows. A failure the panel says instead is quoted in the ScenarioFailure."""
        fund = self.widget.fund
        previous = fund.last_txid
        said = self.fund(sats, fee_rate).approve()
        self.expect(
            "fund_bidding_wallet",
            f"a funding broadcast (the panel said {said!r})",
            lambda: fund.last_txid not in (None, previous),
            OUTCOME_SHOWN_MS,
        )
        assert fund.last_txid is not None
        return fund.last_txid

    def expect_fund_message(self, starts: str, timeout_ms: int = 20_000) -> str:
        """Wait until the Fund panel says something starting with `starts`; the message."""
        self.expect(
            "expect_fund_message",
            f"the Fund panel to say {starts!r}…",
            lambda: self.fund_message.startswith(starts),
            timeout_ms,
        )
        return self.fund_message

    # -- watch-only: signed in another wallet ----------------------------------------------

    def export_funding(self, sats: int, folder: Path, fee_rate: FeeRate = None) -> str:
        """Fund reviewed, then its PSBT written to `folder` for the wallet that holds the keys:
        what the panel says ("Exported to ...")."""
        return elsewhere.export_reviewed(self, self.fund(sats, fee_rate), folder, "export_funding")

    def import_signed(self, folder: Path) -> ReviewPage:
        """Import signed… from `folder`: the review of the signed funding, to approve."""
        return elsewhere.import_signed(
            self, self.widget.fund.import_button, folder, "import_signed"
        )

    # -- coin control -------------------------------------------------------------------------

    def choose_coins(self, timeout_ms: int = REVIEW_TIMEOUT_MS) -> CoinChooserPage:
        """Press "Choose coins…": the dialog listing the payment address's coins."""
        before = len(self.app.harness.dialogs)
        click(self.qtbot, self.widget.fund.choose_button)
        dialog = expect_dialog(self, "choose_coins", "the coin chooser", CoinChooserDialog,
                               before, timeout_ms)  # fmt: skip
        return CoinChooserPage(self.app, dialog, self.widget.fund)

    @property
    def chosen_coins(self) -> tuple[str, ...] | None:
        """The coins the next funding spends (None: the wallet chooses)."""
        return self.widget.fund.chosen_coins

    @property
    def chosen_coins_text(self) -> str:
        label = self.widget.fund.chosen_label
        return label.text() if label.isVisibleTo(self.widget.fund) else ""

    def let_the_wallet_choose(self) -> None:
        """Press "Let the wallet choose" (shown while coins are chosen)."""
        fund = self.widget.fund
        click(self.qtbot, fund.any_coins_button)
        self.expect("let_the_wallet_choose", "no coins chosen", lambda: fund.chosen_coins is None)

    # -- pay from another wallet --------------------------------------------------------------

    def payment_link(self) -> str:
        """Show the QR for paying from another wallet (its toggle pressed if it is not): the
        BIP-21 link it encodes (with the amount typed, if any)."""
        fund = self.widget.fund
        if not fund.qr_button.isChecked():
            self.expect("payment_link", "the QR button enabled", fund.qr_button.isEnabled)
            click(self.qtbot, fund.qr_button)
        self.expect("payment_link", "the payment link's QR shown", lambda: bool(fund.qr.text()))
        return fund.link.text()


class CoinChooserPage(DialogPage[CoinChooserDialog]):
    """The coin chooser of the Fund panel (`WalletPage.choose_coins()`)."""

    name = "Coin chooser"

    def __init__(self, app: App, dialog: CoinChooserDialog, fund: FundPanel) -> None:
        super().__init__(app, dialog)
        self.fund = fund

    def coins(self) -> list[CoinRow]:
        """Every coin listed, in the list's order."""
        table = self.dialog.table
        rows = []
        for row in range(table.rowCount()):
            items = [table.item(row, column) for column in range(table.columnCount())]
            texts = ["" if item is None else item.text() for item in items]
            box = items[COL_AMOUNT]
            assert box is not None, f"coin row {row} has no amount"
            outpoint = str(box.data(Qt.ItemDataRole.UserRole))
            rows.append(
                CoinRow(
                    outpoint=outpoint,
                    amount=texts[COL_AMOUNT],
                    confirmations=texts[COL_CONFIRMATIONS],
                    carries=texts[COL_CARRIES],
                    choosable=self.dialog.is_choosable(outpoint),
                )
            )
        return rows

    @property
    def summary(self) -> str:
        return self.dialog.summary.text()

    def tick(self, outpoint: str) -> None:
        """Tick (or untick) the coin with the space bar on its row, as a user does."""
        dialog = self.dialog
        assert dialog.is_choosable(outpoint), f"coin {outpoint} cannot be chosen"
        was = outpoint in dialog.chosen()
        dialog.table.setFocus()
        dialog.table.setCurrentCell(dialog.row_of(outpoint), COL_AMOUNT)
        self.qtbot.keyClick(dialog.table, Qt.Key.Key_Space)
        self.expect(
            "tick", f"coin {outpoint} {'un' if was else ''}ticked",
            lambda: (outpoint in dialog.chosen()) != was,
        )  # fmt: skip

    def use(self) -> tuple[str, ...]:
        """Press Use: the coins ticked, once the Fund panel spends exactly them."""
        chosen = self.dialog.chosen()  # the dialog is deleted once closed
        click(self.qtbot, self.dialog.use_button)
        self.expect(
            "use",
            f"the Fund panel to spend the {len(chosen)} coins ticked",
            lambda: self.fund.chosen_coins == (chosen or None),
        )
        return chosen

    def cancel(self) -> None:
        """Press Cancel: the chooser closes, the Fund panel's choice unchanged."""
        expect_signal(self, "cancel", "the chooser to close", self.dialog.finished,
                      lambda: click(self.qtbot, self.dialog.cancel_button))  # fmt: skip
