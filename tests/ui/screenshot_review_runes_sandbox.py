"""Shoot the review of a secure rune listing the sandbox built with a runestone (issue 18):
`--service-runestones edict` (set through `POST /sandbox/market/runestones`), a fresh profile and
demo wallet, its rune listed from the Listings tab; the review the app opened is drawn again at
its own first size on a 1024x700 screen, light theme, and checked to show its facts, tables,
legend and buttons without scrolling (review_fit). `screenshot_review_runes` draws synthetic
PSBTs; this one is the sandbox's real PSBT, reviewed with ord's real answers.

    export BIDWALLET_DATA_DIR=$(mktemp -d) XDG_CONFIG_HOME=$(mktemp -d)
    xvfb-run -a -s "-screen 0 1024x700x24" \
        .venv/bin/python -m tests.ui.screenshot_review_runes_sandbox OUT
"""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
from PySide6.QtWidgets import QApplication

from app.services.profiles import Theme
from app.services.sandbox_demo import provision_demo_wallet
from app.services.sandbox_process import start_sandbox
from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog
from app.ui.tabs.listings_tab import ListingsTab
from app.ui.theme import apply_theme
from tests.ui.review_fit import not_in_sight
from tests.ui.screenshots import run_shots
from tests.ui.test_screenshots_flows import pause, prepare, save, until
from tests.ui.test_screenshots_review import Captured

NAME = "review-light-runes-edict.png"
PRICE = 150_000


async def shoot(out: Path, data_dir: Path) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    apply_theme(app, Theme.LIGHT)
    sandbox = await start_sandbox(data_dir / "sandbox" / "data")
    root = sandbox.url.rstrip("/")
    try:
        context, window, _ = await prepare(root, data_dir / "app")
        keys = context.wallet_lock.keys
        assets = await provision_demo_wallet(root, keys.payment.address, keys.ordinals.address)
        async with httpx.AsyncClient(base_url=root, timeout=60) as http:
            answer = await http.post("/sandbox/market/runestones", json={"mode": "edict"})
            answer.raise_for_status()
        captured = Captured(context)
        window.show_tab("listings")
        listings = window.tab("listings")
        assert isinstance(listings, ListingsTab)
        await until(lambda: listings.held is not None)
        listings.items_model.set_checked(listings.row_of(assets.rune_outpoint), True)
        listings.items_model.price_selected(PRICE)
        captured.next_name = "runes"
        items, prices, _ = listings.batch()
        await listings.flow.sign_and_submit(items, [p or 0 for p in prices])

        plans, title, action, notes = captured.shown["runes"]
        dialog = PsbtReviewDialog(
            plans,  # type: ignore[arg-type]
            title=title,
            action=action,
            notes=notes,
            parent=window,
        )
        dialog.show()  # its own first size, as the user first sees it
        await pause(400)
        save(dialog, out / NAME)
        missing = not_in_sight(dialog)
        assert not missing, f"{NAME}: not in sight: {missing}"
        print(f"{dialog.width()}x{dialog.height()}", file=sys.stderr)
        dialog.close()
        window.close()
        await window.controller.shutdown()
    finally:
        await sandbox.stop()


if __name__ == "__main__":
    sys.exit(run_shots(shoot, Path(sys.argv[1] if len(sys.argv) > 1 else "artifacts/screenshots")))
