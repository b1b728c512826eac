"""The Wallet tab against the real sandbox: the payment address's spendable balance is shown
beside the bidding wallet's, told apart from its total (a coin carrying an inscription counts
in the total only), and equal to what funding would spend; the Fund panel's and the Bid tab's
fee presets show the service's estimates, distinct when a busy mempool makes them differ, read
again with a refresh or a live reading once they are a minute old."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from PySide6.QtWidgets import QFormLayout, QLabel
from pytestqt.qtbot import QtBot

from app.services.coin_control import payment_coins
from app.services.sandbox_demo import DEMO_FAUCET_SATS
from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.loop import FakeClock, run_async
from app.ui.qa.profiles import open_funded_app
from app.ui.qa.sandbox import sandbox_post
from app.ui.state import fee_estimates
from app.ui.state.fee_estimates import FeeEstimateState
from app.ui.state.wallet_state import WalletState
from app.ui.tabs.bid_tab import BidTab
from app.ui.tabs.wallet_tab import WalletTab, amount_text
from app.ui.widgets.fee_picker import CUSTOM, FeePicker

BLOCK_AND_A_BIT = 1_050_000  # vbytes: a little more than one block's worth at each rate


@contextmanager
def busy_mempool(root: str) -> Iterator[None]:
    """The sandbox with over three blocks waiting (30, 10 and 3 sat/vB); mined away
    afterwards, so later tests meet a quiet mempool again."""
    try:
        for rate in (30.0, 10.0, 3.0):
            sandbox_post(
                root, "/sandbox/mempool/traffic", {"feeRate": rate, "vbytes": BLOCK_AND_A_BIT}
            )
        yield
    finally:
        sandbox_post(root, "/sandbox/mine", {"blocks": 4})


def _wallet_tab(app: AppHarness) -> WalletTab:
    app.window.show_tab("wallet")
    tab = app.window.tab("wallet")
    assert isinstance(tab, WalletTab)
    return tab


def test_the_spendable_payment_balance_is_shown_apart_from_the_total(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app = funded.app
    payment = funded.keys.payment.address
    inscribed = sandbox_post(funded.root_url, "/sandbox/inscriptions", {"address": payment})
    sandbox_post(funded.root_url, "/sandbox/mine", {"blocks": 1})
    gui_thread.start()
    tab = _wallet_tab(app)
    WalletState.of(app.context).request_refresh()

    def shown() -> bool:
        balance = tab.payment_balance
        return balance is not None and balance.carrying > 0

    qtbot.waitUntil(shown, timeout=20_000)
    balance = tab.payment_balance
    assert balance is not None
    assert balance.spendable == DEMO_FAUCET_SATS and balance.waiting == 0
    assert tab.payment_spendable.text() == amount_text(DEMO_FAUCET_SATS)
    held = tab.payment_held.text()
    total = f"{DEMO_FAUCET_SATS + balance.carrying:,} sats"
    assert held.startswith(f"Of {total} in total; ") and "carry inscriptions or runes" in held
    box = tab.payment_spendable.parentWidget()
    assert box is not None
    form = box.layout()
    assert isinstance(form, QFormLayout)
    row_label = form.labelForField(tab.payment_spendable)
    assert isinstance(row_label, QLabel) and "spendable" in row_label.text()

    # The same rule as funding: the coins funding may spend add up to the figure shown.
    ctx = tab.session.read_context()
    with gui_thread.paused():
        coins = run_async(qloop, payment_coins(ctx))
    assert sum(c.value for c in coins if c.spendable) == balance.spendable
    assert inscribed["outpoint"] in {c.outpoint for c in coins if not c.spendable}
    gui_thread.assert_not_blocked()


def test_fee_presets_differ_when_the_sandbox_mempool_is_busy(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(fee_estimates, "ESTIMATES_MAX_AGE_S", 0.0)
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    with busy_mempool(funded.root_url):
        gui_thread.start()
        _busy_presets_shown(qtbot, _wallet_tab(funded.app))
        gui_thread.assert_not_blocked()


def _busy_presets_shown(qtbot: QtBot, tab: WalletTab) -> None:
    """The next refresh (the 30 s timer, an action, a live reading) reads the estimates
    again, as they are older than ESTIMATES_MAX_AGE_S (0 here): no click."""
    picker = tab.fund.fee
    picker.choice.clear()  # the estimates read at start predate the traffic
    WalletState.of(tab.context).request_refresh()

    def presets() -> list[str]:
        return [
            picker.choice.itemText(i)
            for i in range(picker.choice.count())
            if picker.choice.itemData(i) != CUSTOM
        ]

    qtbot.waitUntil(lambda: len(presets()) == 3, timeout=20_000)
    assert presets() == [
        "Fast (~1 block): 30 sat/vB",
        "Normal (~3 blocks): 3 sat/vB",
        "Slow (~6 blocks): 1 sat/vB",
    ]
    estimate = picker.estimate()
    assert estimate is not None and round(estimate) == 3  # Normal stays chosen, at its estimate


def test_presets_that_read_the_same_say_why(qtbot: QtBot) -> None:
    picker = FeePicker()
    qtbot.addWidget(picker)
    picker.set_estimates({1: 1.0, 3: 1.0, 6: 1.0, 144: 1.0})  # a quiet mempool
    assert strings.FEE_ALL_SAME in picker.choice.toolTip()
    picker.set_estimates({1: 30.0, 3: 3.0, 6: 1.0})
    assert strings.FEE_ALL_SAME not in picker.choice.toolTip()
    labels = [picker.choice.itemText(i) for i in range(picker.choice.count() - 1)]
    assert len(set(labels)) == 3 and picker.estimate() == 3.0


def test_bid_presets_follow_the_mempool_once_a_minute_old(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    """The Bid tab's named rates carry the estimates read at connection; the mempool fills;
    a live reading within the minute leaves them be (no read per reading), the first one
    after it reads them again: the fastest rate then says 30 sat/vB, without a click."""
    clock = FakeClock()
    funded = open_funded_app(qtbot, open_app, make_options(clock=clock), sandbox, qloop)
    app = funded.app
    app.window.show_tab("bid")
    tab = app.window.tab("bid")
    assert isinstance(tab, BidTab)
    picker = tab.form.fee_rate
    estimates = FeeEstimateState.of(app.context)
    state = WalletState.of(app.context)
    qtbot.waitUntil(lambda: picker.estimate() is not None, timeout=20_000)
    quiet = picker.estimate()
    assert quiet is not None and quiet < 30
    with busy_mempool(funded.root_url):
        gui_thread.start()
        assert state.view is not None
        read_at = estimates.read_at
        clock.advance(30)
        state.accept(state.view)  # a live reading, as MarketWatch hands it over
        assert estimates.read_at == read_at  # half a minute old: not read again
        clock.advance(31)
        state.accept(state.view)
        qtbot.waitUntil(lambda: picker.estimate() == 30.0, timeout=20_000)
        assert picker.preset() is not None and picker.choice.currentIndex() == 0
        assert "30 sat/vB" in picker.choice.currentText()
        gui_thread.assert_not_blocked()
