"""Shoot the strategy editor (issue 17) at 1024x700, light then dark (a QA tool, not a test):
the Bid tab's "Keep this bid…" for a collection bid, the editor with its preview, the approval
step; then the same for a rune bid. Like `bidwallet --sandbox` on a fresh data folder.

    export BIDWALLET_DATA_DIR=$(mktemp -d) XDG_CONFIG_HOME=$(mktemp -d)
    xvfb-run -a -s "-screen 0 1024x700x24" \
        .venv/bin/python -m tests.ui.screenshot_strategy_editor OUT
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QApplication

from tests.ui.screenshots import run_shots, save_png

if TYPE_CHECKING:
    from app.ui.context import AppContext
    from app.ui.dialogs.strategy_editor import StrategyEditor
    from app.ui.main_window import MainWindow
    from app.ui.tabs.bid_tab import BidTab

WIDTH, HEIGHT = 1024, 700


async def _until(check: object, timeout_s: float = 30) -> None:
    for _ in range(int(timeout_s * 10)):
        if check():  # type: ignore[operator]
            return
        await asyncio.sleep(0.1)
    raise SystemExit(f"timed out waiting for {check}")


async def _fund(context: AppContext) -> str:
    import httpx

    from app.services.bidding_wallet import get_bidding_wallet
    from app.ui.profile_session import profile_session
    from app.ui.state.wallet_state import WalletState

    assert context.sandbox is not None, "the sandbox did not start"
    session = profile_session(context)
    await session.ensure_ready()
    wallet = (await get_bidding_wallet(session.read_context())).address
    root = context.sandbox.url.rstrip("/")
    async with httpx.AsyncClient(base_url=root, timeout=60) as http:
        await http.post("/sandbox/faucet", json={"address": wallet, "sats": 400_000})
        await http.post("/sandbox/mine", json={"blocks": 1})
        slug = str((await http.get("/sandbox/collections")).json()[0]["slug"])
    await WalletState.of(context).refresh()
    return slug


async def _editor(app: QApplication, context: AppContext, tab: BidTab) -> StrategyEditor:
    from app.ui.dialogs.strategy_editor import StrategyEditor

    opened: list[object] = []
    context.dialog_opened.connect(opened.append)
    await _until(tab.keep_button.isEnabled)
    tab.keep_button.click()
    await _until(lambda: any(isinstance(d, StrategyEditor) for d in opened))
    dialog = next(d for d in opened if isinstance(d, StrategyEditor))
    context.dialog_opened.disconnect(opened.append)
    await _until(dialog.isVisible)
    return dialog


async def _shoot_editor(
    app: QApplication, context: AppContext, tab: BidTab, out: Path, name: str
) -> None:
    from app.ui import strings

    dialog = await _editor(app, context, tab)
    await asyncio.sleep(0.5)
    save_png(app.primaryScreen().grabWindow(0), out / f"{name}-editor-start.png")
    dialog.preview_button.click()
    await _until(lambda: dialog.preview.toPlainText() != strings.EDITOR_PREVIEW_EMPTY)
    await _until(dialog.preview_button.isEnabled)
    await asyncio.sleep(0.5)
    save_png(app.primaryScreen().grabWindow(0), out / f"{name}-editor-preview.png")
    print(dialog.preview.toPlainText(), flush=True)
    if name == "light-collection":  # the fields' messages, each at its field
        fields = dialog.fields
        typed = (fields.name.text(), fields.lifetime.value(), fields.pools[0].price.edit.text())
        fields.name.setText("my strategy!")
        fields.lifetime.setValue(10)
        fields.pools[0].price.edit.setText("12,500")
        dialog.next_button.click()
        await asyncio.sleep(0.5)
        save_png(app.primaryScreen().grabWindow(0), out / f"{name}-editor-errors.png")
        fields.name.setText(typed[0])
        fields.lifetime.setValue(typed[1])
        fields.pools[0].price.edit.setText(typed[2])
        await asyncio.sleep(0.3)  # fixed: the line asking to fix them is gone
        save_png(app.primaryScreen().grabWindow(0), out / f"{name}-editor-errors-fixed.png")
        await _shoot_below_top(app, dialog, out, name)
    dialog.next_button.click()
    await asyncio.sleep(0.5)
    save_png(app.primaryScreen().grabWindow(0), out / f"{name}-editor-approval.png")
    print(dialog.approval.toPlainText(), flush=True)
    frame = dialog.frameGeometry()
    print(f"{name}: dialog {frame.width()}x{frame.height()} at {frame.x()},{frame.y()}")
    dialog.reject()
    await asyncio.sleep(0.3)


async def _shoot_below_top(app: QApplication, dialog: StrategyEditor, out: Path, name: str) -> None:
    """One step above the top bid with a cap under it, a pool budget above the total: the
    preview says the bids will not be on top, the budget field warns."""
    from app.ui.dialogs.strategy_pool_editor import ABOVE_TOP, FIXED

    pool = dialog.fields.pools[0]
    kept = (pool.above_cap.value(), pool.budget.value())
    pool.kind.setCurrentIndex(ABOVE_TOP)
    pool.above_cap.set_value(1_000)
    await asyncio.sleep(0.5)
    save_png(app.primaryScreen().grabWindow(0), out / f"{name}-editor-kind-above-top.png")
    pool.budget.set_value(10**6)
    dialog.preview_button.click()
    await asyncio.sleep(0.3)
    await _until(dialog.preview_button.isEnabled)
    await asyncio.sleep(0.5)
    save_png(app.primaryScreen().grabWindow(0), out / f"{name}-editor-below-top.png")
    print(dialog.preview.toPlainText(), flush=True)
    pool.kind.setCurrentIndex(FIXED)
    pool.above_cap.set_value(kept[0])
    pool.budget.set_value(kept[1])


async def _walk(out: Path, _scratch: Path) -> None:
    """`run_shots`' shoot; the data folder is BIDWALLET_DATA_DIR, not the scratch one."""
    from app.services.profiles import Theme, default_data_dir
    from app.services.sandbox_demo import DEMO_RUNE
    from app.ui.context import AppContext, AppOptions
    from app.ui.launch import build_window
    from app.ui.tabs.bid_tab import BidTab
    from app.ui.theme import apply_theme

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    context = AppContext(AppOptions(data_dir=default_data_dir(), sandbox=True))
    apply_theme(app, Theme.LIGHT)
    window: MainWindow = build_window(context)
    window.show()
    window.resize(WIDTH, HEIGHT)
    await window.controller.start()
    slug = await _fund(context)
    window.show_tab("bid")
    tab = window.tab("bid")
    assert isinstance(tab, BidTab)
    for theme in ("light", "dark"):
        context.theme_changed.emit(apply_theme(app, Theme(theme)))
        tab.form.ordinals_radio.setChecked(True)
        tab.form.slug.setText(slug)
        tab.form.price.set_value(12_000)
        tab.form.quantity.setValue(3)
        await asyncio.sleep(1)
        save_png(window.grab(), out / f"{theme}-bid-keep.png")
        await _shoot_editor(app, context, tab, out, f"{theme}-collection")
        if theme == "light":
            tab.form.runes_radio.setChecked(True)
            tab.form.slug.setText(DEMO_RUNE)
            tab.form.slug.editingFinished.emit()
            tab.form.price.set_value(50_000)
            tab.form.quantity.setValue(1_000)
            await _until(tab.form.rune_is_etched)
            await _shoot_editor(app, context, tab, out, f"{theme}-rune")
    window.close_requested.emit()
    await window.controller.shutdown()


if __name__ == "__main__":
    raise SystemExit(run_shots(_walk, Path(sys.argv[1])))
