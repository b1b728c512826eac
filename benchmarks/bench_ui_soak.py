"""Soak: the desktop app on a real sandbox, every tab shown and every PSBT flow opened and
cancelled, the QR code and the pool chart repainted, over and over; prints memory and Python's
None refcount as it goes (issue 13: a binding bug once aborted the app after a few repaints).

Each cycle: every tab is shown; the funding QR (about 1,100 fillRects) and the pool chart are
painted 5 times; Fund, Withdraw and a bulk listing of 3 are each run up to their review dialog,
which is cancelled (so the same coins and items serve every cycle). Figures: cycles, seconds,
resident memory at the start, after the first tenth (warm) and at the end, its growth per cycle
after warm-up, and how far None's refcount moved (the bug made it fall thousands per cycle).

Run: ./dev bench ui_soak [--cycles 60]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import httpx
import qasync
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from app.services.bidding_wallet import get_bidding_wallet
from app.ui.context import AppContext
from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog
from app.ui.profile_session import profile_session
from app.ui.tabs.listings_tab import ListingsTab
from app.ui.tabs.wallet_tab import WalletTab
from app.ui.tabs.withdraw_tab import WithdrawTab
from benchmarks.bench_ui_signing_stall import (
    KEPT,
    inscribe,
    one_window,
    refreshed,
)
from tests.sandbox.sandbox_process import SandboxProcess

TABS = ("wallet", "bid", "open_bids", "withdraw", "inscription_bid", "listings", "activity")


def rss_mib() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def cancel_reviews(context: AppContext, seen: list[int]) -> None:
    """Press Cancel on every review dialog once it is shown (and count them)."""

    def opened(dialog: object) -> None:
        if isinstance(dialog, PsbtReviewDialog):
            seen.append(len(dialog.plans))
            QTimer.singleShot(0, dialog.cancel_button.click)

    context.dialog_opened.connect(opened)


async def soak(root: str, data_dir: Path, cycles: int) -> int:
    context, window, keys = await one_window(root, data_dir)
    session = profile_session(context)
    await session.ensure_ready()
    wallet = (await get_bidding_wallet(session.signing_context())).address
    async with httpx.AsyncClient(base_url=root, timeout=120) as http:
        for address, sats in ((keys.payment.address, 2_000_000), (wallet, 500_000)):
            (
                await http.post("/sandbox/faucet", json={"address": address, "sats": sats})
            ).raise_for_status()
        (await http.post("/sandbox/mine", json={"blocks": 1})).raise_for_status()
    await inscribe(root, keys.ordinals.address, 3)
    reviews: list[int] = []
    cancel_reviews(context, reviews)
    wallet_tab, withdraw, listings = (window.tab(k) for k in ("wallet", "withdraw", "listings"))
    assert isinstance(wallet_tab, WalletTab) and isinstance(withdraw, WithdrawTab)
    assert isinstance(listings, ListingsTab)
    window.show_tab("listings")
    await refreshed(listings)
    listings.items_model.check_all(True)
    listings.items_model.price_selected(50_000)
    items, prices, problem = listings.batch()
    assert not problem, problem
    wallet_tab.fund.amount.set_value(100_000)
    start, start_none = rss_mib(), sys.getrefcount(None)
    warm = start
    began = time.perf_counter()
    for n in range(cycles):
        for key in TABS:
            window.show_tab(key)
            await asyncio.sleep(0)  # let the tab build and paint, as a user's click would
        wallet_tab.fund.qr.set_text(f"bitcoin:{wallet}?amount=0.001&label=soak-{n}")
        for _ in range(5):
            wallet_tab.fund.qr.grab()
            wallet_tab.chart.grab()
        await wallet_tab.fund._fund(100_000)
        await withdraw._withdraw(50_000)
        await listings.flow.sign_and_submit(items, [p or 0 for p in prices])
        if n == max(1, cycles // 10):
            warm = rss_mib()
    seconds = time.perf_counter() - began
    end, end_none = rss_mib(), sys.getrefcount(None)
    growth = (end - warm) / max(1, cycles - max(1, cycles // 10))
    print(
        f"UI soak, {cycles} cycles ({len(reviews)} reviews opened and cancelled) in {seconds:.0f} s"
    )
    print(f"  resident memory  start {start:7.1f} MiB  warm {warm:7.1f} MiB  end {end:7.1f} MiB")
    print(f"  growth after warm-up   {growth * 1024:7.1f} KiB per cycle")
    moved = end_none - start_none  # grows with what the app keeps (its activity log, caches)
    print(f"  None refcount moved    {moved:+d} (a fall is the 6.12.0 bug)")
    window.close()
    await window.controller.shutdown()
    KEPT.append(window)
    return 0 if len(reviews) == 3 * cycles else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=60)
    args = parser.parse_args()
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    app.setQuitOnLastWindowClosed(False)  # the soak closes its window; the loop goes on
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    with tempfile.TemporaryDirectory() as tmp:
        process = SandboxProcess(Path(tmp) / "logs", Path(tmp) / "sandbox")
        try:
            with loop:
                root = process.url.rstrip("/")
                code = loop.run_until_complete(soak(root, Path(tmp) / "app", args.cycles))
        finally:
            process.terminate()
    sys.exit(code)


if __name__ == "__main__":
    main()
