"""The Bid, Open bids and Unlock page objects against the real sandbox: a collection, a trait
and a rune bid placed in one call each (the question's rows and the result line returned), a
field's error read, a bid cancelled by its id and gone after Refresh, the password prompt
answered wrong then right; and failures in words that name the page, the action and what was
expected (Place pressed while disabled, an unknown bid, a question that never opens)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from app.core.poll_schedule import PollTiming
from app.services.pacing import AsyncioSleeper
from app.services.sandbox_demo import DEMO_RUNE
from app.ui import strings
from app.ui.qa.app import App
from app.ui.qa.expect import ScenarioFailure
from app.ui.qa.sandbox import fund_bidding_wallet
from app.ui.state.market_state import MarketState

if TYPE_CHECKING:
    from app.ui.qa.sandbox import Sandbox

FUNDS = 500_000
FAST_MARKET = PollTiming(start_ms=0, fast_ms=200, base_ms=200, idle_max_ms=200, error_max_ms=1_000)


def test_bids_of_each_kind_placed_in_one_call(bidwallet_app: App) -> None:
    app = bidwallet_app
    assert app.assets is not None
    slug = app.assets.collection_slug
    fund_bidding_wallet(app.harness, app.loop, FUNDS)
    bid = app.bid.ready(slug)

    placed = bid.place_collection_bid(slug, 11_000, 2)
    assert placed.ok and placed.said.startswith(f"Placed: 2 bids in {slug}."), placed.said
    assert placed.asked is not None
    assert placed.asked.values["price"] == "11,000 sats per item"
    assert placed.asked.values["pools"] == f"{slug}: 2 bids"
    assert ":11000:2:" in placed.asked.message

    traits = ["Hat: Crown", "Eyes: 🔥 Fire"]
    placed = bid.place_trait_bid(slug, traits, 12_000, 1)
    assert placed.ok, placed.said
    assert all(f"[{label}]" in placed.said for label in traits)

    placed = bid.place_rune_bid(DEMO_RUNE, 30_000, 600)
    assert placed.ok and placed.said.startswith(f"Placed: 1 bid in {DEMO_RUNE}."), placed.said
    assert placed.asked is not None and placed.asked.values["quantity"] == "600 units"

    listed = app.open_bids.ready(count=5)
    kinds = sorted(row.kind for row in listed.rows())
    assert kinds == sorted(["Collection"] * 2 + ["Trait"] * 2 + ["Rune"])


def test_field_errors_and_place_while_disabled(bidwallet_app: App) -> None:
    app = bidwallet_app
    assert app.assets is not None
    slug = app.assets.collection_slug
    bid = app.bid.ready(slug, funded=False)
    bid.fill_collection_bid(slug, "1", 1)
    error = bid.field_error("price")
    assert error and error == bid.tab.form.messages["price"].text()
    assert bid.field_error("quantity") == ""
    with pytest.raises(ScenarioFailure, match=r"no field 'colour' \(fields: kind, slug"):
        bid.field_error("colour")
    assert not bid.can_place
    with pytest.raises(ScenarioFailure) as failure:
        bid.place()
    text = str(failure.value)
    assert text.startswith("Bid page, place: expected Place enabled; it shows: ")
    assert repr(error) in text  # what the page shows: the price's error, quoted


def test_cancel_by_id_refresh_and_unlock(bidwallet_app: App) -> None:
    app = bidwallet_app
    assert app.assets is not None
    slug = app.assets.collection_slug
    fund_bidding_wallet(app.harness, app.loop, FUNDS)
    assert app.bid.ready(slug).place_collection_bid(slug, 10_000, 2).ok

    bids = app.open_bids.ready(count=2)
    first, second = bids.bid_ids()
    with pytest.raises(
        ScenarioFailure, match=r"^Open bids page, select: no bid 'nope'; it shows 2"
    ):
        bids.select("nope")

    kept = bids.cancel(first, confirm=False)
    assert kept.kept and kept.asked == [bids.row(first).described]
    # Locked: the password is asked first; a wrong one is said in the prompt, which stays.
    app.context.wallet_lock.lock()
    before = len(app.harness.dialogs)
    bids.press_cancel(first)
    prompt = app.unlock_prompt(before)
    assert prompt.unlock("not the password") == strings.WRONG_PASSWORD
    assert prompt.is_open and not app.context.wallet_lock.unlocked
    assert prompt.unlock() is None
    bids.question().cancel_bids()
    done = bids.outcome()
    assert done.ok and done.said == "1 of 1 bid cancelled.", done.said
    assert done.results == (f"✓ Cancelled: {done.asked[0]}",)
    bids.wait_gone(first)
    bids.refresh()
    assert bids.bid_ids() == [second]

    # Locked again, Cancel brings the password prompt, not the question: waiting for the
    # question fails naming it; the prompt cancelled, nothing is cancelled.
    app.context.wallet_lock.lock()
    before = len(app.harness.dialogs)
    bids.press_cancel(second)
    prompt = app.unlock_prompt(before)
    with pytest.raises(ScenarioFailure) as failure:
        bids.question(timeout_ms=300)
    assert str(failure.value).startswith(
        "Open bids page, cancel: expected the question before cancelling within 0.3 s"
    )
    prompt.cancel()
    assert not app.context.wallet_lock.unlocked
    bids.refresh()
    assert bids.bid_ids() == [second]


def test_outbid_then_filled_as_the_table_shows(
    bidwallet_app: App, bidwallet_sandbox: Sandbox
) -> None:
    """Another bidder outbids ours: its rank falls to second; a seller fills it: it leaves
    the table at the next read. (The market is read every 200 ms here, not on the app's
    schedule of 3 to 60 s.)"""
    app = bidwallet_app
    MarketState.of(app.context).use_time(AsyncioSleeper(), FAST_MARKET)
    slug = bidwallet_sandbox.new_collection({"Hat": ["Cap"]})  # a pool of its own
    fund_bidding_wallet(app.harness, app.loop, FUNDS)
    assert app.bid.ready(slug).place_collection_bid(slug, 10_000, 1).ok
    bids = app.open_bids.ready(count=1)
    (ours,) = bids.bid_ids()
    top = bids.wait_rank(ours, "1st of 1 · top bid")
    assert top.rank.endswith("top bid")

    bidwallet_sandbox.outbid(10_000, slug=slug)
    bids.refresh()
    bids.wait_rank(ours, "2nd of 2")

    bidwallet_sandbox.fill_bid(ours)
    bids.refresh()
    bids.wait_gone(ours)
    assert bids.counts == strings.OPEN_BIDS_EMPTY
