"""Inscription bid: the list of our bids shows the newest reading, whatever order the readings
end in. The tab reads on a timer (every 20 s), on Refresh, when shown and after a bid is
placed; a slow read started before the bid was placed ended after the quick one that listed
it, and the table lost the new bid (and its state) until the next tick. A slow read that
failed late also said the service could not be reached under a list just read.

The service's answers are held by hand (a future per read, resolved in the order chosen
here): no request leaves the test (the profile's URLs are never contacted)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

import app.services.inscription_bid as inscription_bid
from app.net.errors import TransportError
from app.services.context import ServiceContext
from app.services.inscription_bid import InscriptionBids, InscriptionBidState
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.profiles import open_prepared_app, unlock_by_typing
from app.ui.tabs.inscription_bid_tab import InscriptionBidTab

PLACED = InscriptionBidState("bid-new", "ab" * 32 + "i0", 50_000, "open")


@pytest.mark.parametrize("older_fails", [False, True])
def test_an_older_reading_ending_last_does_not_replace_the_newer(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    monkeypatch: pytest.MonkeyPatch,
    older_fails: bool,
) -> None:
    app = open_prepared_app(qtbot, open_app, make_options())
    unlock_by_typing(qtbot, app)
    reads: list[tuple[asyncio.Task[object], asyncio.Future[InscriptionBids]]] = []

    async def held(_ctx: ServiceContext) -> InscriptionBids:
        task = asyncio.current_task()
        assert task is not None
        reads.append((task, qloop.create_future()))
        return await reads[-1][1]

    monkeypatch.setattr(inscription_bid, "my_inscription_bids", held)
    app.window.show_tab("inscription_bid")  # its first read starts...
    tab = app.window.tab("inscription_bid")
    assert isinstance(tab, InscriptionBidTab)
    qtbot.waitUntil(lambda: len(reads) == 1)
    tab.refresh_button.click()  # ...and a bid placed since is read again
    qtbot.waitUntil(lambda: len(reads) == 2)
    refreshed: list[int] = []
    tab.refreshed.connect(lambda: refreshed.append(1))

    (older, older_answer), (newer, newer_answer) = reads
    newer_answer.set_result(InscriptionBids((PLACED,), with_states=True))
    qtbot.waitUntil(newer.done)
    assert tab.state_of("bid-new") == "open" and tab.model.rowCount() == 1
    if older_fails:
        older_answer.set_exception(TransportError("marketplace", "GET", "/v1/bids", "timed out"))
    else:
        older_answer.set_result(InscriptionBids((), with_states=True))
    qtbot.waitUntil(older.done)
    assert tab.state_of("bid-new") == "open" and tab.model.rowCount() == 1
    assert tab.list_hint.text() == ""
    assert refreshed == [1]  # said once, by the read shown (a page waiting on it reads it)
