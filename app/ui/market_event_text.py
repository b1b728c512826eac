"""A market event in the user's words: a headline and its details (the notification), and
the details as the Activity tab's message (its Action column names the event)."""

from __future__ import annotations

from collections.abc import Mapping

from app.core.market_events import BIDDING, REASON_BALANCE, EventKind, MarketEvent
from app.ui import strings
from app.ui.models.review_model import short

_BID_TITLES = {
    EventKind.BID_FILLED: strings.LIVE_BID_FILLED,
    EventKind.BID_PARTLY_FILLED: strings.LIVE_BID_PARTLY_FILLED,
    EventKind.BID_EXPIRED: strings.LIVE_BID_EXPIRED,
    EventKind.BID_CANCELLED_BY_SERVICE: strings.LIVE_BID_CANCELLED,
    EventKind.BID_ENDED: strings.LIVE_BID_ENDED,
}
# What the user is told about as it happens; a balance change is only recorded (the Wallet
# tab shows it, and a fill or a sale already says why it moved).
NOTIFIED = frozenset(_BID_TITLES) | {EventKind.LISTING_SOLD, EventKind.LISTING_ENDED}


def _price(sats: int | None) -> str:
    return strings.LIVE_PRICE_UNKNOWN if sats is None else strings.LIVE_PRICE.format(sats=sats)


def said(text: str) -> str:
    """The service's words without control or direction characters (a newline would start a
    line of its own in a notification, a right-to-left override reverse what follows)."""
    return "".join(c if c.isprintable() else "\ufffd" for c in text)


def _what(event: MarketEvent) -> str:
    return short(said(event.what), 12)  # an inscription id is 66 characters


def _state(words: Mapping[str, str], reason: str) -> str:
    """A state in the user's words, else the service's own word shortened (it can send any
    length into a notification)."""
    return words.get(reason) or short(said(reason), 16)


def headline(event: MarketEvent) -> tuple[str, str]:
    """(title, details): "Bid filled", "1 × nodemonkes at 120,000 sats"."""
    kind = event.kind
    if kind in _BID_TITLES:
        filled = event.quantity if kind is EventKind.BID_PARTLY_FILLED else None
        units = (event.quantity or 0) + (event.remaining or 0) if filled else event.quantity
        bid = strings.LIVE_BID.format(
            quantity=units or 1, what=_what(event), price=_price(event.price)
        )
        return _BID_TITLES[kind], _bid_detail(event, bid)
    if kind is EventKind.LISTING_SOLD:
        return strings.LIVE_LISTING_SOLD, _listing(event)
    if kind is EventKind.LISTING_ENDED:
        state = _state(strings.LISTINGS_STATES, event.reason)
        return strings.LIVE_LISTING_ENDED, f"{_listing(event)} ({state})" if state else _listing(
            event
        )
    title = (
        strings.LIVE_BALANCE_BIDDING if event.subject == BIDDING else strings.LIVE_BALANCE_PAYMENT
    )
    return title, strings.LIVE_BALANCE.format(before=event.before or 0, after=event.after or 0)


def _bid_detail(event: MarketEvent, bid: str) -> str:
    kind = event.kind
    if kind is EventKind.BID_PARTLY_FILLED:
        return strings.LIVE_PARTLY_DETAIL.format(
            bid=bid, filled=event.quantity or 0, remaining=event.remaining or 0
        )
    if kind is EventKind.BID_CANCELLED_BY_SERVICE and event.reason == REASON_BALANCE:
        return strings.LIVE_CANCELLED_BALANCE.format(bid=bid)
    if kind is EventKind.BID_ENDED:
        if not event.reason:
            return strings.LIVE_ENDED_UNEXPLAINED.format(bid=bid)
        state = _state(strings.INSCRIPTION_BID_STATES, event.reason)
        return strings.LIVE_ENDED_BECAUSE.format(bid=bid, state=state)
    return bid


def _listing(event: MarketEvent) -> str:
    return strings.LIVE_LISTING.format(what=_what(event), price=_price(event.price))


def activity_text(event: MarketEvent) -> str:
    """The Activity tab's message: the details (its Action column says the headline), a
    balance with the wallet it is of. The bid's or listing's id is in the entry's details."""
    if event.kind is EventKind.BALANCE_CHANGED:
        bidding = event.subject == BIDDING
        wallet = (
            strings.LIVE_BALANCE_BIDDING_WALLET if bidding else strings.LIVE_BALANCE_PAYMENT_ADDRESS
        )
        return strings.LIVE_BALANCE_OF.format(wallet=wallet, change=headline(event)[1])
    return headline(event)[1]
