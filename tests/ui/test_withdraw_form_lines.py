"""Withdraw tab: the Amount error and the at-risk headline keep their lines, so To, Fee rate
and Review never move while the user types (issue 15: "without moving other fields"); the
too-much error says the network fee is paid on top (the service's rule) and that Max sends
all of it. Widget-level: the tab is fed a reading, no service is asked."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from app.services.bidding_wallet import BiddingWalletBalance
from app.services.maker_fee import NOTHING_KNOWN
from app.services.profiles import Theme
from app.ui.context import AppContext
from app.ui.launch import build_window
from app.ui.qa.harness import OptionsFactory
from app.ui.tabs.withdraw_preview import WalletFacts
from app.ui.tabs.withdraw_tab import WithdrawTab
from app.ui.theme import apply_theme

BALANCE = 179_000


def tops(tab: WithdrawTab) -> dict[str, int]:
    def top(widget: QWidget) -> int:
        return widget.mapTo(tab, widget.rect().topLeft()).y()

    return {
        "to": top(tab.destination),
        "fee": top(tab.fee),
        "review": top(tab.review_button),
    }


def settle() -> None:
    """Let the layouts apply the pending changes (a relayout is a posted event)."""
    for _ in range(3):
        QApplication.processEvents()


@pytest.fixture(params=[Theme.LIGHT, Theme.DARK], ids=["light", "dark"])
def tab(
    qtbot: QtBot, make_options: OptionsFactory, request: pytest.FixtureRequest
) -> Iterator[WithdrawTab]:
    # The app's theme, as in the app: without its style sheet nothing was squeezed, and a
    # few pixels' move passed here while it failed after another test had set a theme.
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    apply_theme(app, request.param)
    window = build_window(AppContext(make_options()))
    qtbot.addWidget(window)
    window.resize(1024, 700)
    window.show()
    window.show_tab("withdraw")
    tab = window.tab("withdraw")
    assert isinstance(tab, WithdrawTab)
    balance = BiddingWalletBalance("bcrt1qwallet", BALANCE, 0)
    tab.facts = WalletFacts("bcrt1qwallet", "bcrt1qpayment", balance, (), NOTHING_KNOWN)
    yield tab  # the theme is restored for every UI test (tests/ui/conftest.py)


def test_amount_errors_and_at_risk_headline_move_nothing(qtbot: QtBot, tab: WithdrawTab) -> None:
    qtbot.waitUntil(lambda: tab.review_button.isVisible())
    settle()
    before = tops(tab)
    tab.amount.set_value(BALANCE + 1)  # too much: an error under Amount
    tab._preview()
    assert "179,000" in tab.amount_line.error.text()
    qtbot.waitUntil(lambda: tab.amount_line.error.isVisible())
    settle()
    assert tops(tab) == before
    tab.amount.set_value(50_000)  # fine: "None: your open bids stay covered."
    tab._preview()
    assert tab.at_risk_label.text() and not tab.amount_line.error.isVisible()
    qtbot.waitUntil(lambda: tab.at_risk_label.isVisible())
    settle()
    assert tops(tab) == before


def test_too_much_says_the_fee_is_paid_on_top(tab: WithdrawTab) -> None:
    tab.amount.set_value(BALANCE)  # the whole balance is a sweep: allowed
    tab._preview()
    assert not tab.amount_line.error.text()
    tab.amount.set_value(BALANCE + 1)
    tab._preview()
    text = tab.amount_line.error.text()
    assert "179,000" in text and "fee" in text and "Max" in text
