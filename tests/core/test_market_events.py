"""MarketDiffer: readings in, events out (each kind), and none by surprise."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.core.bid_request import Trait
from app.core.market_events import (
    BIDDING,
    MAX_DEFERRALS,
    PAYMENT,
    REASON_BALANCE,
    EventKind,
    MarketDiffer,
    MarketEvent,
    MarketSnapshot,
    WatchedBid,
    WatchedState,
)
from app.core.pools import MakerFee, PoolKey

FEE = MakerFee(0, 1_000)
NOW = 1_800_000_000_000
HOUR = 3_600_000


def bid(
    bid_id: str,
    price: int,
    pool: str | None = "nodemonkes",
    *,
    quantity: int = 1,
    expires: int = NOW + HOUR,
    created: int = 0,
    trait: Trait | None = None,
) -> WatchedBid:
    key = None if pool is None else PoolKey(pool, trait)
    what = str(key) if key is not None else f"{bid_id}i0"
    return WatchedBid(bid_id, what, price, quantity, expires, key, created)


def snap(
    bids: list[WatchedBid],
    bidding: int | None = 1_000_000,
    payment: int | None = 5_000_000,
    *,
    now: int = NOW,
    listings: list[WatchedState] | None = None,
    inscription_bids: list[WatchedState] | None = None,
) -> MarketSnapshot:
    return MarketSnapshot(
        now,
        tuple(bids),
        bidding,
        payment,
        FEE,
        None if listings is None else tuple(listings),
        None if inscription_bids is None else tuple(inscription_bids),
    )


def kinds(events: list[MarketEvent]) -> list[tuple[EventKind, str]]:
    return [(e.kind, e.subject) for e in events]


def differ_at(first: MarketSnapshot) -> MarketDiffer:
    differ = MarketDiffer()
    assert differ.diff(first) == []  # the baseline tells nothing
    return differ


def test_a_reading_with_no_change_tells_nothing() -> None:
    bids = [bid("a", 120_000), bid("b", 90_000, "sub10k")]
    differ = differ_at(snap(bids))
    for _ in range(3):
        assert differ.diff(snap(bids)) == []
    assert not differ.deferred


def test_a_confirmation_is_no_balance_change() -> None:
    differ = differ_at(snap([], 500_000))
    assert differ.diff(snap([], 500_000)) == []


def test_a_fill_is_paid_for_by_the_bidding_wallet() -> None:
    differ = differ_at(snap([bid("a", 120_000), bid("b", 50_000, "sub10k")]))
    events = differ.diff(snap([bid("b", 50_000, "sub10k")], 1_000_000 - 121_000))
    assert kinds(events) == [(EventKind.BID_FILLED, "a"), (EventKind.BALANCE_CHANGED, BIDDING)]
    filled, balance = events
    assert (filled.what, filled.price, filled.quantity, filled.remaining) == (
        "nodemonkes",
        120_000,
        1,
        0,
    )
    assert (balance.before, balance.after) == (1_000_000, 879_000)


def test_a_fill_whose_network_fee_the_wallet_also_pays_is_still_a_fill() -> None:
    differ = differ_at(snap([bid("a", 120_000)]))
    events = differ.diff(snap([], 1_000_000 - 121_000 - 420))
    assert kinds(events)[0] == (EventKind.BID_FILLED, "a")


def test_a_partial_fill_keeps_the_bid_with_fewer_units() -> None:
    differ = differ_at(snap([bid("a", 100_000, quantity=3)]))
    events = differ.diff(snap([bid("a", 100_000, quantity=1)], 1_000_000 - 2 * 101_000))
    assert kinds(events) == [
        (EventKind.BID_PARTLY_FILLED, "a"),
        (EventKind.BALANCE_CHANGED, BIDDING),
    ]
    assert (events[0].quantity, events[0].remaining) == (2, 1)


def test_a_partial_fill_and_a_full_fill_in_one_reading() -> None:
    differ = differ_at(snap([bid("a", 100_000, quantity=3), bid("b", 60_000, "sub10k")]))
    after = snap([bid("a", 100_000, quantity=2)], 1_000_000 - 101_000 - 61_000)
    assert kinds(differ.diff(after))[:2] == [
        (EventKind.BID_PARTLY_FILLED, "a"),
        (EventKind.BID_FILLED, "b"),
    ]


def test_the_pool_rule_cancels_what_the_balance_left_no_longer_covers() -> None:
    # 100,000 held; a 59,000 bid in one pool, a 49,000 bid in another. The first fills
    # (60,000 with the fee): 40,000 left cannot cover the second, which the service cancels.
    before = snap([bid("a", 59_000, "pool-x"), bid("b", 49_000, "pool-y")], 100_000)
    differ = differ_at(before)
    events = differ.diff(snap([], 40_000))
    assert kinds(events) == [
        (EventKind.BID_FILLED, "a"),
        (EventKind.BID_CANCELLED_BY_SERVICE, "b"),
        (EventKind.BALANCE_CHANGED, BIDDING),
    ]
    assert events[1].reason == REASON_BALANCE


def test_in_one_pool_the_cheaper_fill_leaves_the_dearer_bid_cancelled() -> None:
    # One pool, 100,000 held: 49,000 and 39,000 (50,000 + 40,000 committed). The cheaper
    # fills: 60,000 left still covers the dearer one, so nothing else goes.
    differ = differ_at(snap([bid("a", 49_000), bid("b", 39_000)], 100_000))
    events = differ.diff(snap([bid("a", 49_000)], 60_000))
    assert kinds(events) == [(EventKind.BID_FILLED, "b"), (EventKind.BALANCE_CHANGED, BIDDING)]


def test_a_withdrawal_cancels_by_the_pool_rule_and_fills_nothing() -> None:
    differ = differ_at(snap([bid("a", 59_000)], 100_000))
    events = differ.diff(snap([], 50_000))  # 50,000 withdrawn: 60,000 no longer covered
    assert kinds(events) == [
        (EventKind.BID_CANCELLED_BY_SERVICE, "a"),
        (EventKind.BALANCE_CHANGED, BIDDING),
    ]


def test_an_expired_bid_is_told_as_expired_not_as_cancelled() -> None:
    differ = differ_at(snap([bid("a", 50_000, expires=NOW + 1_000), bid("b", 50_000, "x")]))
    events = differ.diff(snap([bid("b", 50_000, "x")], now=NOW + 1_000))
    assert kinds(events) == [(EventKind.BID_EXPIRED, "a")]


def test_our_own_cancel_is_no_event() -> None:
    differ = differ_at(snap([bid("a", 50_000), bid("b", 40_000)]))
    differ.expect_own_cancel(["a", "b"])
    assert differ.diff(snap([bid("b", 40_000)])) == []  # b not gone yet: still expected
    assert differ.diff(snap([])) == []
    assert not differ.deferred


def test_a_bid_our_cancel_missed_is_news_again() -> None:
    differ = differ_at(snap([bid("a", 50_000)]))
    differ.expect_own_cancel(["a"])
    differ.forget_own_cancel(["a"])  # the cancel said "not an open bid": it had filled
    assert kinds(differ.diff(snap([], 1_000_000 - 51_000)))[0] == (EventKind.BID_FILLED, "a")


def test_a_bid_gone_without_a_reason_waits_for_the_balance_then_fills() -> None:
    differ = differ_at(snap([bid("a", 50_000)]))
    assert differ.diff(snap([])) == []  # the list dropped it; Esplora has not seen the fill
    assert differ.deferred
    events = differ.diff(snap([], 1_000_000 - 51_000))
    assert kinds(events) == [(EventKind.BID_FILLED, "a"), (EventKind.BALANCE_CHANGED, BIDDING)]
    assert not differ.deferred


def test_a_bid_gone_without_a_reason_is_told_as_ended_after_the_deferrals() -> None:
    differ = differ_at(snap([bid("a", 50_000)]))
    for _ in range(MAX_DEFERRALS):
        assert differ.diff(snap([])) == []
    events = differ.diff(snap([]))
    assert kinds(events) == [(EventKind.BID_ENDED, "a")]
    assert differ.diff(snap([])) == []  # told once


def test_a_single_inscription_bid_is_filled_from_the_payment_balance() -> None:
    differ = differ_at(snap([bid("i1", 70_000, None)]))
    events = differ.diff(snap([], payment=5_000_000 - 70_000 - 10_546))
    assert kinds(events) == [(EventKind.BID_FILLED, "i1"), (EventKind.BALANCE_CHANGED, PAYMENT)]


def test_balance_changes_of_both_wallets() -> None:
    differ = differ_at(snap([], 100_000, 200_000))
    events = differ.diff(snap([], 600_000, 150_000))
    assert [(e.subject, e.before, e.after) for e in events] == [
        (BIDDING, 100_000, 600_000),
        (PAYMENT, 200_000, 150_000),
    ]


def test_an_unknown_balance_tells_no_balance_change() -> None:
    differ = differ_at(snap([], None, None))
    assert differ.diff(snap([], 5, 5)) == []


def listing(listing_id: str, state: str, txid: str | None = None) -> WatchedState:
    return WatchedState(listing_id, f"{listing_id}i0", 250_000, state, txid)


def test_a_listing_sold_and_one_ended() -> None:
    differ = differ_at(snap([], listings=[listing("l1", "active"), listing("l2", "active")]))
    after = [listing("l1", "sold", "f" * 64), listing("l2", "item_moved")]
    events = differ.diff(snap([], listings=after))
    assert kinds(events) == [(EventKind.LISTING_SOLD, "l1"), (EventKind.LISTING_ENDED, "l2")]
    assert events[0].txid == "f" * 64 and events[1].reason == "item_moved"
    assert differ.diff(snap([], listings=after)) == []


def test_a_listing_we_ended_is_no_event() -> None:
    differ = differ_at(snap([], listings=[listing("l1", "active")]))
    differ.expect_own_cancel(["l1"])
    assert differ.diff(snap([], listings=[listing("l1", "item_moved")])) == []


def test_a_service_without_a_listings_list_tells_nothing_about_listings() -> None:
    differ = differ_at(snap([], listings=None))
    assert differ.diff(snap([], listings=[listing("l1", "sold")])) == []


@pytest.mark.parametrize(
    ("state", "kind"),
    [
        ("accepted", EventKind.BID_FILLED),
        ("cancelled", EventKind.BID_CANCELLED_BY_SERVICE),
        ("inscription_moved", EventKind.BID_ENDED),
    ],
)
def test_single_inscription_bids_with_states(state: str, kind: EventKind) -> None:
    open_row = WatchedState("i1", "abc…i0", 70_000, "open")
    differ = differ_at(snap([bid("i1", 70_000, None)], inscription_bids=[open_row]))
    events = differ.diff(snap([], inscription_bids=[replace(open_row, state=state)]))
    assert kinds(events) == [(kind, "i1")]  # from its state, not guessed from a balance


def test_a_single_inscription_bid_we_cancelled_is_no_event() -> None:
    open_row = WatchedState("i1", "abc…i0", 70_000, "open")
    differ = differ_at(snap([], inscription_bids=[open_row]))
    differ.expect_own_cancel(["i1"])
    assert differ.diff(snap([], inscription_bids=[replace(open_row, state="cancelled")])) == []


def test_a_deferred_reading_still_tells_the_states_once() -> None:
    differ = differ_at(snap([bid("a", 50_000)], listings=[listing("l1", "active")]))
    events = differ.diff(snap([], listings=[listing("l1", "sold")]))
    assert kinds(events) == [(EventKind.LISTING_SOLD, "l1")] and differ.deferred
    events = differ.diff(snap([], 1_000_000 - 51_000, listings=[listing("l1", "sold")]))
    assert kinds(events) == [(EventKind.BID_FILLED, "a"), (EventKind.BALANCE_CHANGED, BIDDING)]
