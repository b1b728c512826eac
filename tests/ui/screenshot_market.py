"""The pool's market in the window at 1024x700, light then dark (a QA tool, not a test; issue
16). Like `bidwallet --sandbox` on a fresh data folder: the app starts the sandbox and its demo
wallet; this script gives the demo collection a market (sandbox sellers' listings, rival
bidders' collection bids) and us two bids in it, types a price in the Bid tab, and grabs the
Bid tab (the preview's market line, then its Market page), then the Open bids tab (its Rank column).

    export BIDWALLET_DATA_DIR=$(mktemp -d) XDG_CONFIG_HOME=$(mktemp -d)
    xvfb-run -a -s "-screen 0 1024x700x24" .venv/bin/python -m tests.ui.screenshot_market OUT
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QApplication

from tests.ui.screenshots import run_shots, save_png

if TYPE_CHECKING:
    from app.ui.context import AppContext

WIDTH, HEIGHT = 1024, 700
TYPED_PRICE = "47,000"


async def _arrange(context: AppContext) -> str:
    """A market in the demo collection, two bids of ours in it; the collection's slug."""
    import httpx

    from app.services.bidding_wallet import get_bidding_wallet
    from app.services.bids import BidSpec, place_bid
    from app.ui.profile_session import profile_session
    from app.ui.state.wallet_state import WalletState

    assert context.sandbox is not None, "the sandbox did not start"
    session = profile_session(context)
    await session.ensure_ready()
    ctx = session.signing_context()
    root = context.sandbox.url.rstrip("/")
    rng = random.Random(16)
    async with httpx.AsyncClient(base_url=root, timeout=60) as http:
        wallet = (await get_bidding_wallet(ctx)).address
        await http.post("/sandbox/faucet", json={"address": wallet, "sats": 400_000})
        await http.post("/sandbox/mine", json={"blocks": 1})
        slug = str((await http.get("/sandbox/collections")).json()[0]["slug"])
        for n in range(14):
            price = 52_000 + rng.randint(0, 30) * 1_000
            body = {"slug": slug, "price": price, "seller": f"seller-{n % 4}"}
            (await http.post("/sandbox/market/listings", json=body)).raise_for_status()
        for n in range(30):
            price = 20_000 + rng.randint(0, 26) * 1_000
            body = {"kind": "collection", "slug": slug, "price": price,
                    "quantity": rng.randint(1, 3), "bidder": f"rival-{n}",
                    "fundSats": 10_000_000}  # fmt: skip
            (await http.post("/sandbox/market/bids", json=body)).raise_for_status()
    expiry = ctx.clock.now_ms() + 86_400_000
    for price in (44_000, 38_000):
        await place_bid(ctx, BidSpec.collection(slug, price, 1, expiry))
    del ctx
    await WalletState.of(context).refresh()
    return slug


async def _shoot(out: Path, _scratch: Path) -> None:
    """`run_shots`' shoot; the data folder is BIDWALLET_DATA_DIR, not the scratch one."""
    from app.services.profiles import Theme, default_data_dir
    from app.ui.context import AppContext, AppOptions
    from app.ui.launch import build_window
    from app.ui.tabs.bid_tab import BidTab
    from app.ui.theme import apply_theme

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    context = AppContext(AppOptions(data_dir=default_data_dir(), sandbox=True))
    apply_theme(app, Theme.LIGHT)
    window = build_window(context)
    window.show()
    window.resize(WIDTH, HEIGHT)
    await window.controller.start()
    slug = await _arrange(context)
    window.show_tab("bid")
    tab = window.tab("bid")
    assert isinstance(tab, BidTab)
    tab.form.slug.setText(slug)
    tab.form.price.edit.setText(TYPED_PRICE)
    for _ in range(100):  # the band reads the pool once the typing pauses
        await asyncio.sleep(0.1)
        if tab.market.summary().startswith("Floor"):
            break
    await asyncio.sleep(1)
    for theme in ("light", "dark"):
        context.theme_changed.emit(apply_theme(app, Theme(theme)))
        window.show_tab("bid")
        await asyncio.sleep(1.5)
        tab.side.setCurrentIndex(0)
        await asyncio.sleep(0.5)
        save_png(window.grab(), out / f"{theme}-bid-preview-market-line.png")
        tab.side.setCurrentIndex(1)
        await asyncio.sleep(0.5)
        save_png(window.grab(), out / f"{theme}-bid-market.png")
        window.show_tab("open_bids")
        await asyncio.sleep(2.5)  # its pools' market read
        save_png(window.grab(), out / f"{theme}-open-bids-rank.png")
    window.close_requested.emit()
    await window.controller.shutdown()


if __name__ == "__main__":
    raise SystemExit(run_shots(_shoot, Path(sys.argv[1])))
