"""Screenshots of the PSBT review dialog as a new user meets it, on a 1024x700 screen (Xvfb,
xcb), against a real sandbox: the Fund, Withdraw and bulk listing reviews at the dialog's own
first size, light and dark: artifacts/screenshots/review-{theme}-{fund,withdraw,listings}.png;
each checked to show its facts, tables, legend and buttons without scrolling (review_fit).

By hand: xvfb-run -a -s "-screen 0 1024x700x24" \
    .venv/bin/python -m tests.ui.test_screenshots_review artifacts/screenshots
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from app.services.bidding_wallet import get_bidding_wallet
from app.services.profiles import Theme
from app.services.sandbox_demo import provision_demo_wallet
from app.services.sandbox_process import start_sandbox
from app.ui.context import AppContext
from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog
from app.ui.profile_session import profile_session
from app.ui.tabs.listings_tab import ListingsTab
from app.ui.tabs.wallet_tab import WalletTab
from app.ui.tabs.withdraw_tab import WithdrawTab
from app.ui.theme import apply_theme
from tests.ui.review_fit import not_in_sight
from tests.ui.screenshots import OUT, REPO, assert_drawn, run_shots
from tests.ui.test_screenshots_flows import pause, prepare, save, until

SCREEN = (1024, 700)
SHOTS = ("fund", "withdraw", "listings")


def test_screenshots_of_the_review_at_1024x700(tmp_path: Path) -> None:
    import shutil

    import pytest

    if shutil.which("xvfb-run") is None:
        pytest.skip("xvfb-run is not installed")
    env = {k: v for k, v in os.environ.items() if k not in ("WAYLAND_DISPLAY", "DISPLAY")}
    env |= {"QT_QPA_PLATFORM": "xcb", "BIDWALLET_DATA_DIR": str(tmp_path)}
    screen = f"-screen 0 {SCREEN[0]}x{SCREEN[1]}x24"
    result = subprocess.run(
        ["xvfb-run", "-a", "-s", screen, sys.executable, "-m", __name__, str(OUT)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    saved = [Path(line) for line in result.stdout.splitlines() if line.endswith(".png")]
    names = {path.name for path in saved}
    for theme in ("light", "dark"):
        for shot in SHOTS:
            assert f"review-{theme}-{shot}.png" in names
    for path in saved:
        assert_drawn(path, 600, 400)


class Captured:
    """Keeps the plans and notes of each review the app opens, and cancels it."""

    def __init__(self, context: AppContext) -> None:
        self.next_name = ""
        # name -> (plans, title, action, notes) of the review shown
        self.shown: dict[str, tuple[tuple[object, ...], str, str, list[str]]] = {}
        context.dialog_opened.connect(self._opened)

    def _opened(self, dialog: object) -> None:
        if isinstance(dialog, PsbtReviewDialog):
            notes = dialog.notes_label.text().splitlines()
            self.shown[self.next_name] = (dialog.plans, dialog.windowTitle(), dialog.action, notes)
            QTimer.singleShot(300, dialog.reject)


async def shoot(out: Path, data_dir: Path) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    sandbox = await start_sandbox(data_dir / "sandbox" / "data")
    root = sandbox.url.rstrip("/")
    try:
        context, window, _ = await prepare(root, data_dir / "app")
        window.resize(*SCREEN)
        keys = context.wallet_lock.keys
        assets = await provision_demo_wallet(root, keys.payment.address, keys.ordinals.address)
        captured = Captured(context)
        http = httpx.AsyncClient(base_url=root, timeout=120)
        session = profile_session(context)
        await session.ensure_ready()
        wallet = (await get_bidding_wallet(session.signing_context())).address
        await http.post("/sandbox/faucet", json={"address": wallet, "sats": 300_000})
        await http.post("/sandbox/mine", json={"blocks": 1})

        window.show_tab("wallet")
        wallet_tab = window.tab("wallet")
        assert isinstance(wallet_tab, WalletTab)
        await until(lambda: wallet_tab.fund.fee.choice.count() > 1)
        captured.next_name = "fund"
        await wallet_tab.fund._fund(500_000)

        window.show_tab("withdraw")
        withdraw = window.tab("withdraw")
        assert isinstance(withdraw, WithdrawTab)
        await until(lambda: withdraw.facts is not None)
        withdraw.amount.set_value(200_000)
        captured.next_name = "withdraw"
        await withdraw._withdraw(200_000)

        window.show_tab("listings")
        listings = window.tab("listings")
        assert isinstance(listings, ListingsTab)
        await until(lambda: listings.held is not None)
        for inscription in assets.inscription_ids[:3]:
            listings.items_model.set_checked(listings.row_of(inscription), True)
        listings.items_model.price_selected(120_000)
        captured.next_name = "listings"
        items, prices, _ = listings.batch()
        await listings.flow.sign_and_submit(items, [p or 0 for p in prices])

        for theme in (Theme.LIGHT, Theme.DARK):
            context.theme_changed.emit(apply_theme(app, theme))
            for name in SHOTS:
                plans, title, action, notes = captured.shown[name]
                dialog = PsbtReviewDialog(
                    plans,  # type: ignore[arg-type]
                    title=title,
                    action=action,
                    notes=notes,
                    parent=window,
                )
                dialog.show()  # its own first size, as the user first sees it
                await pause(400)
                save(dialog, out / f"review-{theme.value}-{name}.png")
                # With the fonts a user has (xcb): what matters shows without scrolling.
                missing = not_in_sight(dialog)
                assert not missing, f"review-{theme.value}-{name}: not in sight: {missing}"
                print(f"{name}: {dialog.width()}x{dialog.height()}", file=sys.stderr)
                dialog.close()
                dialog.deleteLater()
        window.close()
        await window.controller.shutdown()
        await http.aclose()
    finally:
        await sandbox.stop()


if __name__ == "__main__":
    sys.exit(run_shots(shoot, Path(sys.argv[1] if len(sys.argv) > 1 else "artifacts/screenshots")))
