"""Open bids: a reading of the bids that lands while the user is at work keeps their place.
The timer (every 30 s) and the live updates show a new reading by resetting the table; that
reset cleared the bids the user had selected (the Cancel button greyed under the cursor), and
a Cancel whose password prompt was open across one read the strategy keeping each bid from
the rows as they were numbered before it (the question then named another bid's owner).

Readings are handed to the shared state by hand (`WalletState.accept`, as the live updates
do): no service answers anything here (the profile's URLs are never contacted)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from pytestqt.qtbot import QtBot

from app.net.marketplace_bids import BidListEntry
from app.services.bidding_wallet import BiddingWalletBalance
from app.services.open_bids import OpenBidsView
from app.ui.qa.app import App
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.profiles import open_prepared_app


def _view(*bids: tuple[str, str]) -> OpenBidsView:
    """A reading of `bids` (id, collection), one collection bid each."""
    entries = tuple(
        BidListEntry(bid_id=bid_id, type="collection", price=10_000, quantity=1,
                     expiration_ms=1_900_000_000_000, collection_slug=slug)
        for bid_id, slug in bids
    )  # fmt: skip
    return OpenBidsView(entries, (), BiddingWalletBalance("bcrt1qbidding", 0, 0), ())


def _app(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> App:
    harness = open_prepared_app(qtbot, open_app, make_options())
    return App(harness, qtbot, qloop)


def test_a_new_reading_keeps_the_bids_selected(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    app = _app(qtbot, qloop, make_options, open_app)
    page = app.open_bids
    tab = page.tab
    tab.state.accept(_view(("bid-a", "aaa"), ("bid-b", "bbb"), ("bid-c", "ccc")))
    page.select("bid-b", "bid-c")
    assert sorted(tab.selected_ids()) == ["bid-b", "bid-c"]

    # The timer's reading: the same bids, and one more sorting first.
    tab.state.accept(_view(("bid-0", "000"), ("bid-a", "aaa"), ("bid-b", "bbb"), ("bid-c", "ccc")))
    assert sorted(tab.selected_ids()) == ["bid-b", "bid-c"]
    assert tab.cancel_button.isEnabled()

    # A selected bid gone (filled meanwhile): the others stay selected.
    tab.state.accept(_view(("bid-0", "000"), ("bid-a", "aaa"), ("bid-c", "ccc")))
    assert tab.selected_ids() == ["bid-c"]


def test_the_question_names_the_strategy_of_the_bid_chosen_across_a_reading(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    data_dir: Path,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    app = _app(qtbot, qloop, make_options, open_app)
    assert not app.context.wallet_lock.unlocked  # Cancel asks the password first
    page = app.open_bids
    tab = page.tab
    tab.model.set_owners({"kept": "ladder"})
    tab.state.accept(_view(("own", "aaa"), ("kept", "kkk")))
    before = len(app.harness.dialogs)
    page.press_cancel("kept")
    unlock = app.unlock_prompt(before)
    # While the password is typed, a reading puts another bid above the one chosen.
    tab.state.accept(_view(("own", "aaa"), ("new", "abc"), ("kept", "kkk")))
    assert unlock.unlock() is None
    question = page.question()
    note = question.dialog.strategy_note
    assert note.isVisibleTo(question.dialog) and "ladder" in note.text(), note.text()
    question.keep()
    assert page.outcome().kept
