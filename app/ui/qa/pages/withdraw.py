"""The Withdraw tab as a scenario drives it: the bidding wallet's address and balance, an amount
typed (or Max for all of it), the fee rate, the open bids the lower balance no longer covers,
Review (the `ReviewPage`), and the result with its txid. The destination is the payment
address, shown and never typed: the tab sends nowhere else."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from app.ui.qa.actions import click
from app.ui.qa.app import Page
from app.ui.qa.pages import sign_elsewhere as elsewhere
from app.ui.qa.pages.form_steps import (
    FeeRate,
    choose_fee_rate,
    expect_signal,
    fee_presets_shown,
    replace_text,
)
from app.ui.tabs.withdraw_tab import WithdrawTab

if TYPE_CHECKING:
    from app.ui.qa.pages.review import ReviewPage


class WithdrawAll(Enum):
    """`ALL`: the whole balance (Max), not a number of sats."""

    ALL = "all"


ALL = WithdrawAll.ALL  # the whole balance: Max pressed
Amount = int | WithdrawAll
REVIEW_TIMEOUT_MS = 30_000
FORM_CHECKED_MS = 2_000  # the form is checked as it is typed: Review is on at once, or never
OUTCOME_SHOWN_MS = 2_000  # the txid is set with the message approve() waited for


@dataclass(frozen=True)
class WithdrawShown:
    """What the tab shows of the bidding wallet: its address, its balance line, where the
    withdrawal goes (the payment address) and the balance in sats."""

    address: str
    balance_text: str
    destination: str
    balance: int


@dataclass(frozen=True)
class Withdrawn:
    txid: str
    status: str  # "Withdrawn 150,000 sats: transaction …; cancelled 1 bid."


class WithdrawPage(Page):
    name = "Withdraw"

    @property
    def widget(self) -> WithdrawTab:
        return self.app.tab("withdraw", WithdrawTab)

    def ready(self, timeout_ms: int = 20_000) -> WithdrawShown:
        """Wait until the balance and open bids are read; what the tab shows of them."""
        tab = self.widget
        self.expect("ready", "the balance and open bids read", lambda: tab.facts is not None,
                    timeout_ms)  # fmt: skip
        facts = tab.facts
        assert facts is not None
        return WithdrawShown(
            tab.address_label.text(),
            tab.balance_label.text(),
            tab.destination.text(),
            facts.balance.total,
        )

    @property
    def status(self) -> str:
        """The withdrawal's result, or why it failed, said under the buttons ("" when none):
        it stays until the next withdrawal starts."""
        tab = self.widget
        return tab.status.text() if tab.status.isVisibleTo(tab) else ""

    @property
    def reading(self) -> str:
        """Why the last reading of the bidding wallet failed, said under its balance ("" when
        it was read)."""
        return self.widget.reading_line.text()

    @property
    def amount_error(self) -> str:
        """What the amount's line says is wrong with it ("" when nothing)."""
        error = self.widget.amount_line.error
        return error.text() if error.isVisibleTo(self.widget) else ""

    def at_risk(self) -> list[str]:
        """The open bids the balance after this withdrawal no longer covers, as listed."""
        bids = self.widget.at_risk_list
        return [bids.item(row).text() for row in range(bids.count())]

    def fill(self, sats: Amount | str | None, fee_rate: FeeRate = None) -> list[str]:
        """Type `sats` (grouped, as the field shows it; a str is typed as it is, e.g. "abc";
        ALL presses Max; None empties the field) and choose `fee_rate`: the open bids the
        balance left would no longer cover (`at_risk()`)."""
        self.ready()
        page = self.widget
        self.expect("fill", "the fee presets offered", lambda: fee_presets_shown(page.fee))
        if sats is ALL:
            click(self.qtbot, page.max_button)
            self.expect("fill", "Max to fill in the balance", lambda: page.sweep)
        else:
            text = "" if sats is None else sats if isinstance(sats, str) else f"{sats:,}"
            replace_text(self.qtbot, page.amount.edit, text)
        choose_fee_rate(self.qtbot, page.fee, fee_rate)
        return self.at_risk()

    def withdraw(self, sats: Amount, fee_rate: FeeRate = None) -> ReviewPage:
        """Fill the form and press Review: the review of the withdrawal."""
        self.fill(sats, fee_rate)
        tab = self.widget
        self.expect("withdraw", "Review enabled", tab.review_button.isEnabled, FORM_CHECKED_MS)
        before = len(self.app.harness.dialogs)
        click(self.qtbot, tab.review_button)
        return self.app.review(before, REVIEW_TIMEOUT_MS)

    def withdraw_and_sign(self, sats: Amount, fee_rate: FeeRate = None) -> Withdrawn:
        """Withdraw, approve the review (signed here and submitted): its txid and the status
        line, once the tab has read the balance again. A failure the tab says instead is
        quoted in the ScenarioFailure."""
        tab = self.widget
        review = self.withdraw(sats, fee_rate)
        said: list[str] = []
        expect_signal(
            self,
            "withdraw_and_sign",
            "the withdrawal's end and the balance read again",
            tab.refreshed,
            lambda: said.append(review.approve()),
            REVIEW_TIMEOUT_MS,
        )
        self.expect(
            "withdraw_and_sign",
            f"a withdrawal's txid (the tab said {said[0]!r})",
            lambda: tab.txid_row.txid is not None,
            OUTCOME_SHOWN_MS,
        )
        assert tab.txid_row.txid is not None
        return Withdrawn(tab.txid_row.txid, self.status)

    def export_withdrawal(self, sats: Amount, folder: Path, fee_rate: FeeRate = None) -> str:
        """Watch-only: the withdrawal reviewed, then its PSBT written to `folder` for the
        wallet that holds the keys: what the tab says ("Exported to ...")."""
        return elsewhere.export_reviewed(
            self, self.withdraw(sats, fee_rate), folder, "export_withdrawal"
        )

    def import_signed(self, folder: Path) -> ReviewPage:
        """Import signed… from `folder`: the review of the signed withdrawal, to approve."""
        return elsewhere.import_signed(self, self.widget.import_button, folder, "import_signed")

    def refresh(self, timeout_ms: int = 20_000) -> WithdrawShown:
        """Press Refresh and wait for the reading to end; what the tab shows then."""
        tab = self.widget
        self.expect("refresh", "Refresh enabled", tab.refresh_button.isEnabled, timeout_ms)
        expect_signal(self, "refresh", "the balance read again", tab.refreshed,
                      lambda: click(self.qtbot, tab.refresh_button), timeout_ms)  # fmt: skip
        return self.ready()

    def expect_status(self, starts: str, timeout_ms: int = 20_000) -> str:
        """Wait until the status line starts with `starts`; the whole line."""
        self.expect("expect_status", f"the status {starts!r}…",
                    lambda: self.status.startswith(starts), timeout_ms)  # fmt: skip
        return self.status
