"""Each market event in the user's words: the notification's headline and details, and the
Activity tab's message."""

from __future__ import annotations

import pytest

from app.core.market_events import BIDDING, PAYMENT, REASON_BALANCE, EventKind, MarketEvent
from app.ui.market_event_text import NOTIFIED, activity_text, headline

INSCRIPTION = "6fb976ab49dcec017f1e201e84395983204ae1a7c2abf7ced0a85d692e442799i0"


@pytest.mark.parametrize(
    ("event", "title", "detail"),
    [
        (
            MarketEvent(EventKind.BID_FILLED, "b1", "nodemonkes", 120_000, 1, 0),
            "Bid filled",
            "1 × nodemonkes at 120,000 sats",
        ),
        (
            MarketEvent(EventKind.BID_PARTLY_FILLED, "b1", "nodemonkes", 90_000, 2, 1),
            "Bid partly filled",
            "3 × nodemonkes at 90,000 sats: 2 filled, 1 still open",
        ),
        (
            MarketEvent(EventKind.BID_EXPIRED, "b1", "sub10k", 5_000, 1),
            "Bid expired",
            "1 × sub10k at 5,000 sats",
        ),
        (
            MarketEvent(
                EventKind.BID_CANCELLED_BY_SERVICE,
                "b1",
                "pixel-punks [Hat: Cap]",
                500_000,
                1,
                reason=REASON_BALANCE,
            ),
            "Bid cancelled by the service",
            "1 × pixel-punks [Hat: Cap] at 500,000 sats: the bidding wallet no longer covers it",
        ),
        (
            MarketEvent(EventKind.BID_ENDED, "b1", "nodemonkes", None, 1),
            "Bid ended",
            "1 × nodemonkes at an unknown price: the service no longer lists it (filled or "
            "cancelled there; not by you, not expired)",
        ),
        (
            MarketEvent(EventKind.BID_ENDED, "b1", INSCRIPTION, 70_000, 1, reason="funding_spent"),
            "Bid ended",
            "1 × 6fb976ab49dc…692e442799i0 at 70,000 sats: Ended: your payment coins were spent",
        ),
        (
            MarketEvent(EventKind.LISTING_SOLD, "l1", INSCRIPTION, 250_000),
            "Listing sold",
            "6fb976ab49dc…692e442799i0 for 250,000 sats",
        ),
        (
            MarketEvent(EventKind.LISTING_ENDED, "l1", INSCRIPTION, 250_000, reason="item_moved"),
            "Listing ended",
            "6fb976ab49dc…692e442799i0 for 250,000 sats (Ended: the item moved)",
        ),
    ],
)
def test_events_in_words(event: MarketEvent, title: str, detail: str) -> None:
    assert headline(event) == (title, detail)
    assert activity_text(event) == detail
    assert event.kind in NOTIFIED


def test_a_balance_change_names_its_wallet_and_is_not_notified() -> None:
    bidding = MarketEvent(EventKind.BALANCE_CHANGED, BIDDING, before=1_000_000, after=879_000)
    payment = MarketEvent(EventKind.BALANCE_CHANGED, PAYMENT, before=5_000, after=6_000)
    assert activity_text(bidding) == "Bidding wallet: 1,000,000 → 879,000 sats"
    assert activity_text(payment) == "Payment address: 5,000 → 6,000 sats"
    assert headline(bidding)[0] == "Bidding wallet balance changed"
    assert EventKind.BALANCE_CHANGED not in NOTIFIED
