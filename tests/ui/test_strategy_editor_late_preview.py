"""The strategy editor's preview says when the fields changed while it was being read: the
dry run reads each pool's market (seconds on a slow service), and an edit made meanwhile was
not noted (the editor was busy), so the preview of the strategy as it was showed under "A
preview signs nothing and places nothing." as if it were of the fields shown.

The dry run's answer is held by hand (a future this test resolves): no service is asked."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.pools import PoolKey
from app.core.strategy_rules import FixedPrice, PoolStrategy
from app.core.strategy_settings import StrategyLimits
from app.ui import strings
from app.ui.dialogs.strategy_editor import StrategyEditor

if TYPE_CHECKING:
    from app.services.strategy_engine import StrategyConfig
    from app.services.strategy_host import StrategyHost


class HeldDryRun:
    """A host whose dry runs wait for the test's answer."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.asked: list[tuple[StrategyConfig, asyncio.Future[str]]] = []

    def is_running(self, _policy_id: str) -> bool:
        return False

    async def dry_run(self, config: StrategyConfig) -> str:
        self.asked.append((config, self.loop.create_future()))
        return await self.asked[-1][1]


def test_a_preview_read_across_an_edit_says_it_is_stale(
    qtbot: QtBot, qloop: asyncio.AbstractEventLoop
) -> None:
    from app.services.strategy_engine import StrategyConfig

    pool = PoolStrategy(PoolKey("pixel-pals"), FixedPrice(12_000), 50_000, rune=False)
    start = StrategyConfig("keep-pixel-pals", (pool,), StrategyLimits(50_000, 3))
    host = HeldDryRun(qloop)
    editor = StrategyEditor(cast("StrategyHost", host), start, new=True, lock_minutes=10, taken=())
    qtbot.addWidget(editor)
    editor.show()

    editor.preview_button.click()
    qtbot.waitUntil(lambda: len(host.asked) == 1)
    qtbot.keyClick(editor.fields.max_bids, Qt.Key.Key_Up)  # edited while the market is read
    assert editor.fields.max_bids.value() == 4
    asked, answer = host.asked[0]
    assert asked.limits.max_active_bids == 3
    answer.set_result("pixel-pals: place 1 bid at 12,000 sats")
    qtbot.waitUntil(lambda: editor.preview_button.isEnabled())
    assert editor.preview.toPlainText() == "pixel-pals: place 1 bid at 12,000 sats"
    assert editor.preview_status.text() == strings.EDITOR_PREVIEW_STALE

    editor.preview_button.click()  # read again, nothing edited meanwhile: current
    qtbot.waitUntil(lambda: len(host.asked) == 2)
    host.asked[1][1].set_result("pixel-pals: place 1 bid at 12,000 sats (4 at most)")
    qtbot.waitUntil(lambda: editor.preview_button.isEnabled())
    assert editor.preview_status.text() == strings.EDITOR_PREVIEW_NOTHING_SIGNED
