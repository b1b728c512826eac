"""The maker fee per profile: Settings shows the default with its amount and source (the
sandbox publishes one), a fee of the profile's own is saved with the profile and applied
without reconnecting, and every pool figure (Wallet chart, Open bids pools, Bid preview,
Withdraw's bids at risk) says which fee it assumes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtWidgets import QSpinBox
from pytestqt.qtbot import QtBot

from app.core.pools import MakerFee, bid_cost
from app.services.bids import BidSpec, place_bid
from app.services.maker_fee import AssumedMakerFee, MakerFeeSource
from app.services.profiles import ProfileStore
from app.services.sandbox_process import SandboxProcess
from app.ui.maker_fee_note import maker_fee_note
from app.ui.profile_session import profile_session
from app.ui.qa.actions import click, type_into
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.loop import run_async
from app.ui.qa.profiles import open_funded_app, prepare_profile
from app.ui.qa.sandbox import fund_bidding_wallet
from app.ui.tabs.bid_tab import BidTab
from app.ui.tabs.open_bids_tab import OpenBidsTab
from app.ui.tabs.settings_tab import SettingsTab
from app.ui.tabs.wallet_tab import WalletTab
from app.ui.tabs.withdraw_tab import WithdrawTab

FUNDS = 300_000
BID_PRICE = 40_000
FROM_SERVICE = "Assuming a maker fee of 1,000 sats per bid (from the service)."
OWN = "Assuming a maker fee of 2,500 sats + 0.5% of its price per bid (profile setting)."


@pytest.mark.parametrize(
    ("fee", "source", "text"),
    [
        (MakerFee(0, 1_000), MakerFeeSource.SERVICE, FROM_SERVICE),
        (MakerFee(50, 2_500), MakerFeeSource.PROFILE, OWN),
        (
            MakerFee(25, 0),
            MakerFeeSource.DEFAULT,
            "Assuming a maker fee of 0.25% of its price per bid (default: the service"
            " publishes none; change it in Settings).",
        ),
        (MakerFee(0, 0), MakerFeeSource.PROFILE, "Assuming no maker fee (profile setting)."),
    ],
)
def test_the_figures_wording(fee: MakerFee, source: MakerFeeSource, text: str) -> None:
    assert maker_fee_note(AssumedMakerFee(fee, source)) == text


def _type_spin(qtbot: QtBot, spin: QSpinBox, value: int) -> None:
    """Select the spin box's text and type `value` (its suffix stays), as a user would."""
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, str(value))
    assert spin.value() == value


def test_maker_fee_setting_and_what_every_pool_figure_assumes(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    options = make_options()
    funded = open_funded_app(qtbot, open_app, options, sandbox, qloop)
    app, slug = funded.app, funded.assets.collection_slug
    fund_bidding_wallet(app, qloop, FUNDS)
    session = profile_session(app.context)
    ctx = session.signing_context()
    spec = BidSpec.collection(slug, BID_PRICE, 1, ctx.clock.now_ms() + 3_600_000)
    run_async(qloop, place_bid(ctx, spec))
    del ctx  # the test keeps no signing context
    gui_thread.start()

    # The sandbox publishes its fee: the figures say they count it.
    wallet = app.window.tab("wallet")
    assert isinstance(wallet, WalletTab)
    app.window.show_tab("wallet")
    wallet.state.request_refresh()  # it may have loaded before the bid was placed
    qtbot.waitUntil(lambda: len(wallet.chart.bars()) == 1, timeout=20_000)
    assert wallet.pools_note.text() == FROM_SERVICE
    assert wallet.chart.bars()[0].committed == BID_PRICE + 1_000

    settings = app.window.tab("settings")
    assert isinstance(settings, SettingsTab)
    app.window.show_tab("settings")
    box = settings.form.maker_fee
    qtbot.waitUntil(lambda: "from the service" in box.default_line.text(), timeout=20_000)
    assert box.default_line.text() == "Default: 1,000 sats per bid, from the service."
    assert box.use_default.isChecked() and not box.sats.isEnabled()
    assert (box.sats.value(), box.bps.value()) == (1_000, 0)

    # A fee of the profile's own: saved with it, applied without reconnecting.
    connection = app.context.connection
    click(qtbot, box.use_default)
    assert box.sats.isEnabled() and box.sats.value() == 1_000  # edited from what applied
    _type_spin(qtbot, box.sats, 2_500)
    _type_spin(qtbot, box.bps, 50)
    click(qtbot, settings.save_button)
    qtbot.waitUntil(lambda: settings.message.text() == "Settings saved.", timeout=10_000)
    assert app.context.connection is connection
    stored = ProfileStore(options.data_dir).load().get("Flows")
    assert stored is not None and stored.maker_fee == MakerFee(50, 2_500)
    own = MakerFee(50, 2_500)
    qtbot.waitUntil(lambda: wallet.pools_note.text() == OWN, timeout=20_000)  # refreshed
    assert wallet.chart.bars()[0].committed == bid_cost(BID_PRICE, own) == BID_PRICE + 2_700

    open_bids = app.window.tab("open_bids")
    assert isinstance(open_bids, OpenBidsTab)
    app.window.show_tab("open_bids")
    qtbot.waitUntil(lambda: open_bids.pools_note.text() == OWN, timeout=20_000)

    bid = app.window.tab("bid")
    assert isinstance(bid, BidTab)
    app.window.show_tab("bid")
    type_into(qtbot, bid.form.slug, slug)
    type_into(qtbot, bid.form.price.edit, f"{BID_PRICE:,}")
    qtbot.waitUntil(lambda: bid.pools.rowCount() == 1, timeout=20_000)
    assert bid.pools_note.text() == OWN
    adding = bid.pools.item(0, 2).text()
    assert adding == f"{bid_cost(BID_PRICE, own):,}"

    withdraw = app.window.tab("withdraw")
    assert isinstance(withdraw, WithdrawTab)
    app.window.show_tab("withdraw")
    qtbot.waitUntil(lambda: withdraw.facts is not None, timeout=20_000)
    type_into(qtbot, withdraw.amount.edit, "10,000")
    assert withdraw.at_risk_note.text() == OWN

    # Back to the default: the service's fee again.
    app.window.show_tab("settings")
    click(qtbot, box.use_default)
    assert not box.sats.isEnabled() and box.sats.value() == 1_000
    click(qtbot, settings.save_button)
    qtbot.waitUntil(lambda: wallet.pools_note.text() == FROM_SERVICE, timeout=20_000)
    stored = ProfileStore(options.data_dir).load().get("Flows")
    assert stored is not None and stored.maker_fee is None
    assert wallet.chart.bars()[0].committed == BID_PRICE + 1_000
    gui_thread.assert_not_blocked()


def test_a_service_that_publishes_no_fee_and_a_profile_not_connected(
    qtbot: QtBot,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    gui_thread: GuiThreadWatch,
) -> None:
    prepare_profile(data_dir)  # its service is never reached: it publishes nothing
    settings = ProfileStore(data_dir).load()
    other = replace(settings.get("Main"), name="Other", maker_fee=MakerFee(10, 0))  # type: ignore[type-var]
    ProfileStore(data_dir).save(settings.with_profile(other))
    app = open_app(make_options())
    gui_thread.start()
    qtbot.waitSignal(app.window.controller.ready, timeout=30_000).wait()
    tab = app.window.tab("settings")
    assert isinstance(tab, SettingsTab)
    app.window.show_tab("settings")
    box = tab.form.maker_fee
    qtbot.waitUntil(lambda: "publishes no fee" in box.default_line.text(), timeout=20_000)
    assert box.default_line.text() == (
        "Default: 1,000 sats per bid. The service publishes no fee; third parties report this"
        " one for the public service."
    )
    assert box.use_default.isChecked() and box.sats.value() == 1_000
    assert profile_session(app.context).assumed_maker_fee == AssumedMakerFee(
        MakerFee(0, 1_000), MakerFeeSource.DEFAULT
    )

    # Another profile: its service is not the connected one, so its default is not known
    # here; its own fee is shown as entered.
    tab.profiles.setCurrentRow(1)
    qtbot.waitUntil(lambda: tab.form.profile is not None and tab.form.profile.name == "Other")
    assert box.default_line.text().startswith("Default: the service's own fee where it publishes")
    assert not box.use_default.isChecked() and box.sats.isEnabled()
    assert (box.sats.value(), box.bps.value()) == (0, 10)
    gui_thread.assert_not_blocked()
