"""Walk every tab of the real app on the sandbox at 1024x700, light then dark, and save each
(a QA tool, not a test). Like `bidwallet --sandbox` on a fresh data folder: the app starts the
sandbox and its demo wallet; then this script gives it open bids in four pools, an inscription
on the payment address (held, not spendable) and a busy mempool (30, 10 and 3 sat/vB, so the fee
presets differ), a running strategy over three pools (bidding in two, one stopped by its floor
band), opens the Fund panel's fee presets, and grabs every tab (the Strategies tab twice: its
pools, then its journal). It prints each PNG and any tab that scrolls sideways.

    export BIDWALLET_DATA_DIR=$(mktemp -d) XDG_CONFIG_HOME=$(mktemp -d)
    xvfb-run -a -s "-screen 0 1024x700x24" .venv/bin/python -m tests.ui.screenshot_walk OUT
    xvfb-run -a -s "-screen 0 1024x700x24" .venv/bin/python -m tests.ui.screenshot_walk \
        OUT --offline

`--offline` walks the offline signer's tabs of the same data folder (run it second).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QAbstractScrollArea, QApplication

from tests.ui.screenshots import save_png

if TYPE_CHECKING:
    from app.ui.context import AppContext
    from app.ui.main_window import MainWindow

WIDTH, HEIGHT = 1024, 700
BUSY_RATES = (30.0, 10.0, 3.0)  # sat/vB, a little more than a block's worth each
BLOCK_AND_A_BIT = 1_050_000


async def _arrange(context: AppContext, window: MainWindow) -> None:
    import httpx

    from app.core.bid_request import Trait
    from app.services.bidding_wallet import get_bidding_wallet
    from app.services.bids import BidSpec, place_bid
    from app.services.sandbox_demo import DEMO_RUNE
    from app.ui.profile_session import profile_session
    from app.ui.state.fee_estimates import FeeEstimateState
    from app.ui.state.wallet_state import WalletState
    from app.ui.tabs.wallet_tab import WalletTab

    assert context.sandbox is not None, "the sandbox did not start"
    session = profile_session(context)
    await session.ensure_ready()
    ctx = session.signing_context()
    root = context.sandbox.url.rstrip("/")
    wallet = (await get_bidding_wallet(ctx)).address
    payment = context.wallet_lock.keys.payment.address
    async with httpx.AsyncClient(base_url=root, timeout=60) as http:
        await http.post("/sandbox/faucet", json={"address": wallet, "sats": 400_000})
        await http.post("/sandbox/inscriptions", json={"address": payment})
        await http.post("/sandbox/mine", json={"blocks": 1})
        slug = (await http.get("/sandbox/collections")).json()[0]["slug"]
    expiry = ctx.clock.now_ms() + 86_400_000
    for spec in (
        BidSpec.collection(slug, 60_000, 3, expiry),
        BidSpec.collection("sub10k", 25_000, 2, expiry),
        BidSpec.trait(slug, [Trait("Hat", "Crown")], 90_000, 2, expiry),
        BidSpec.rune(DEMO_RUNE, 50_000, 1_000, expiry),
    ):
        await place_bid(ctx, spec)
    del ctx
    async with httpx.AsyncClient(base_url=root, timeout=60) as http:
        for rate in BUSY_RATES:
            body = {"feeRate": rate, "vbytes": BLOCK_AND_A_BIT}
            (await http.post("/sandbox/mempool/traffic", json=body)).raise_for_status()
    await _run_strategy(context, slug)
    await WalletState.of(context).refresh()
    tab = window.tab("wallet")
    assert isinstance(tab, WalletTab)
    FeeEstimateState.of(context).read()


async def _run_strategy(context: AppContext, slug: str) -> None:
    """A strategy over three pools, approved and started; back once its first check is done."""
    from app.core.bid_request import Trait
    from app.core.pools import PoolKey
    from app.core.strategy_approval import HOUR_MS
    from app.core.strategy_rules import AboveTopBid, FixedPrice, FloorBand, PoolStrategy
    from app.core.strategy_settings import StrategyLimits
    from app.services.strategy_engine import StrategyConfig
    from app.ui.state.strategy_state import StrategyState

    pools = (
        PoolStrategy(PoolKey(slug), AboveTopBid(70_000, 100, opening_unit_price=40_000), 84_000),
        PoolStrategy(PoolKey("sub10k"), FixedPrice(12_000), 40_000),
        PoolStrategy(  # its floor is above the band: the pool stops
            PoolKey(slug, Trait("Hat", "Crown")), FixedPrice(30_000), 40_000, FloorBand(None, 1_000)
        ),
    )
    config = StrategyConfig("pixel-pals", pools, StrategyLimits(164_000, 6))
    host = StrategyState.of(context).host()
    await host.approve(config, 24 * HOUR_MS)
    await host.start(config.policy_id)
    for _ in range(60):
        (view,) = [v for v in await host.views() if v.policy_id == config.policy_id]
        if view.last_report is not None:
            return
        await asyncio.sleep(0.5)
    raise SystemExit("the strategy made no check in 30 s")


async def _walk(app: QApplication, out: Path, offline: bool) -> None:
    from app.services.profiles import Theme, default_data_dir
    from app.ui.context import AppContext, AppOptions
    from app.ui.launch import build_window
    from app.ui.theme import apply_theme

    options = AppOptions(data_dir=default_data_dir(), offline=offline, sandbox=not offline)
    context = AppContext(options)
    apply_theme(app, Theme.LIGHT)
    window = build_window(context)
    window.show()
    window.resize(WIDTH, HEIGHT)
    await window.controller.start()
    if not offline:
        await _arrange(context, window)
        await asyncio.sleep(2)  # the reads each tab starts when shown
        window.show_tab("wallet")
        await asyncio.sleep(1)
        combo = window.tab("wallet").fund.fee.choice  # type: ignore[attr-defined]
        combo.showPopup()  # a popup is its own window: grab the screen
        await asyncio.sleep(0.5)
        save_png(app.primaryScreen().grabWindow(0), out / "light-wallet-fee-presets.png")
        combo.hidePopup()
    for theme in ("light", "dark"):
        context.theme_changed.emit(apply_theme(app, Theme(theme)))
        if window.tabs.tabBar().sizeHint().width() > window.width():
            print(f"  the tab bar scrolls at {window.width()}x{window.height()} ({theme})")
        for spec in window.tab_specs:
            window.show_tab(spec.key)
            await asyncio.sleep(2)
            tab = window.current_tab()
            sideways = [
                area
                for area in tab.findChildren(QAbstractScrollArea)
                if area.isVisible() and area.horizontalScrollBar().isVisible()
            ]
            save_png(window.grab(), out / f"{theme}-{spec.key}.png")
            if spec.key == "strategies":  # its journal, under the same list
                tab.details.setCurrentIndex(1)  # type: ignore[attr-defined]
                await asyncio.sleep(1)
                save_png(window.grab(), out / f"{theme}-{spec.key}-journal.png")
                tab.details.setCurrentIndex(0)  # type: ignore[attr-defined]
            if sideways:
                print(f"  {spec.key} scrolls sideways at {window.width()}x{window.height()}")
    window.close_requested.emit()
    await window.controller.shutdown()


def main(argv: list[str]) -> int:
    import qasync

    from app.ui.launch import create_application

    out = Path(argv[0])
    offline = "--offline" in argv[1:]
    if offline:
        out = out / "offline"
    out.mkdir(parents=True, exist_ok=True)
    app = create_application()
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    with loop:
        loop.run_until_complete(_walk(app, out, offline))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
