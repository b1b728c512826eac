"""The Activity tab: requests and results with errorCode and message, txids copied with the
button, a filter; the log persists across a window restart and holds no secret."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QStyleOptionViewItem
from pytestqt.qtbot import QtBot

from app.core.market_events import EventKind
from app.net.errors import HttpError
from app.services.activity import ActivityEntry
from app.services.qa_vault import MemoryKeyring
from app.services.sandbox_demo import _summary
from app.ui import strings
from app.ui.models.activity_model import COL_ACTION, COL_CODE, COL_MESSAGE, ActivityTableModel
from app.ui.qa.app import App
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory, close_app
from app.ui.qa.loop import run_async
from app.ui.qa.profiles import ABANDON, PASSWORD, open_prepared_app, prepare_profile
from app.ui.state.market_watch import ACTION_PREFIX
from app.ui.tabs.activity_tab import ActivityTab, ElideRightDelegate

TXID = "b5ec3d107f6c57510ee779f318ab1fdf9b080fbd2e715575aa836688b43c42e0"
API_KEY = "sk-live-not-for-logs-42"
WIF = "cMcfH8sRgBgDMfpBNG6H3haaxLkaYXgqMRef8Nev6tWyBSNr6c3n"


async def place_and_fail(app: AppHarness) -> None:
    """What a use case does: track each request; one succeeds, one is refused."""
    activity = app.context.activity
    assert activity is not None
    async with activity.track("bid.place", collection="pixel-punks") as result:
        result.txid = TXID
        result.message = "bid placed"
    with pytest.raises(HttpError):
        async with activity.track("bid.cancel", password=PASSWORD):
            raise HttpError(
                "marketplace",
                400,
                f"refused {ABANDON} / {WIF} / key {API_KEY}",
                "BID_NOT_CANCELLABLE",
            )


def test_activity_persists_across_restart_without_secrets(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    data_dir: Path,
    keychain: MemoryKeyring,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    gui_thread: GuiThreadWatch,
) -> None:
    profile = prepare_profile(data_dir, keychain=keychain)
    keychain.set_password("bidwallet-api-key", profile.name, API_KEY)
    app = open_app(make_options(keychain=keychain))
    gui_thread.start()
    qtbot.waitSignal(app.window.controller.ready, timeout=30_000).wait()
    run_async(qloop, place_and_fail(app))

    page = App(app, qtbot, qloop).activity.open()
    tab = page.widget
    assert isinstance(tab.table.itemDelegateForColumn(COL_MESSAGE), ElideRightDelegate)
    rows = page.entries()
    assert [r.result for r in rows] == [strings.ACTIVITY_ERROR, strings.ACTIVITY_OK]  # newest 1st
    assert [r.code for r in rows] == ["BID_NOT_CANCELLABLE", ""]
    assert [r.txid for r in rows] == ["", TXID]
    message = rows[0].message
    assert message.startswith("refused") and "(HTTP 400)" in message
    for secret in ("abandon", WIF, API_KEY):
        assert secret not in message

    assert not tab.copy_button.isEnabled()
    assert page.copy_txid(1) == TXID
    assert [r.code for r in page.errors_only()] == ["BID_NOT_CANCELLABLE"]
    page.errors_only(False)
    assert [r.txid for r in page.filter("PLACE")] == [TXID]

    close_app(app, qloop)
    again = open_app(make_options(keychain=keychain))
    qtbot.waitSignal(again.window.controller.ready, timeout=30_000).wait()
    reopened = App(again, qtbot, qloop).activity.entries()
    assert [r.txid for r in reopened] == ["", TXID]
    assert [r.code for r in reopened] == ["BID_NOT_CANCELLABLE", ""]
    log_text = again.context.activity.path.read_text()  # type: ignore[union-attr]
    for secret in ("abandon abandon", WIF, API_KEY, PASSWORD):
        assert secret not in log_text
    gui_thread.assert_not_blocked()


def test_the_error_code_column_shows_only_once_an_entry_has_a_code(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    data_dir: Path,
    keychain: MemoryKeyring,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    """Empty, the column took the room the messages need at 1024 px."""
    app = open_prepared_app(qtbot, open_app, make_options(keychain=keychain), keychain=keychain)
    tab = app.window.tab("activity")
    assert isinstance(tab, ActivityTab)
    app.window.show_tab("activity")
    activity = app.context.activity
    assert activity is not None

    async def succeed() -> None:
        async with activity.track("bid.place") as result:
            result.message = "bid placed"

    run_async(qloop, succeed())
    assert tab.table.isColumnHidden(COL_CODE)
    run_async(qloop, place_and_fail(app))  # one more success, then BID_NOT_CANCELLABLE
    assert not tab.table.isColumnHidden(COL_CODE)
    close_app(app, qloop)
    again = open_app(make_options(keychain=keychain))
    qtbot.waitSignal(again.window.controller.ready, timeout=30_000).wait()
    reopened = again.window.tab("activity")
    assert isinstance(reopened, ActivityTab)
    assert not reopened.table.isColumnHidden(COL_CODE)  # read back from the log


# Where the app names an action it records: tracked(context, "x"), activity.track("x"),
# activity.record("x"), a tab's _record("x"), the sandbox demo's api.call("x").
_RECORDED_ACTION = re.compile(
    r"(?:tracked\(\s*[\w.]+,\s*|\.track\(\s*|\.record\(\s*|_record\(\s*|steps\.run\(\s*)"
    r'"([a-z_]+(?:\.[a-z_]+)?)"'
)


def test_every_action_the_app_records_is_shown_in_the_users_words() -> None:
    source = Path(__file__).resolve().parents[2] / "app"
    recorded = {
        name
        for path in source.rglob("*.py")
        for name in _RECORDED_ACTION.findall(path.read_text(encoding="utf-8"))
    }
    assert {"bid.place", "fund.broadcast", "sandbox.faucet", "psbt.sign"} <= recorded
    named = set(strings.ACTIVITY_ACTIONS) | set(strings.ACTIVITY_ACTION_NAMES)
    assert sorted(recorded - named) == []
    market = {ACTION_PREFIX + kind.value for kind in EventKind}
    assert sorted(market - named) == []
    for words in {**strings.ACTIVITY_ACTIONS, **strings.ACTIVITY_ACTION_NAMES}.values():
        assert "." not in words and "_" not in words and words[0].isupper()


def test_the_action_column_shows_words_and_keeps_the_name_in_its_tooltip() -> None:
    entries = [
        ActivityEntry(at=datetime.now(UTC), action="bid.place", ok=True),
        ActivityEntry(at=datetime.now(UTC), action="sandbox.inscribe", ok=True),
        ActivityEntry(at=datetime.now(UTC), action="later.thing_done", ok=False),
    ]
    model = ActivityTableModel(entries)
    shown = [model.index(row, COL_ACTION).data() for row in range(3)]
    assert shown == ["Place a bid", "Demo inscription to your wallet", "Thing done"]
    tip = model.index(0, COL_ACTION).data(Qt.ItemDataRole.ToolTipRole)
    assert tip == "bid.place"


def test_a_message_too_long_for_its_column_is_cut_at_its_end_not_its_middle(qtbot: QtBot) -> None:
    long = "Bid filled: 1 × pixel-punks at 600,000 sats (bid 7c1d8e…) " * 3
    model = ActivityTableModel(
        [ActivityEntry(at=datetime.now(UTC), action="x.y", ok=True, message=long)]
    )
    option = QStyleOptionViewItem()
    ElideRightDelegate().initStyleOption(option, model.index(0, COL_MESSAGE))
    assert option.textElideMode == Qt.TextElideMode.ElideRight
    assert model.index(0, COL_MESSAGE).data(Qt.ItemDataRole.ToolTipRole) == long  # whole


def test_the_demo_wallets_steps_say_what_they_made_in_words() -> None:
    assert _summary({"inscriptionId": "ab" * 32 + "i0", "txid": "cd" * 32}).startswith(
        "Inscription abab"
    )
    assert _summary({"height": 152}) == "Block 152"
    assert _summary({"outpoint": "ef" * 32 + ":1"}) == f"Coin {'ef' * 32}:1"
