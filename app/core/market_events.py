"""What changed on the market between two readings, as events a user is told about.

The public service lists open bids only (`GET /address/bids`), so a bid that left the list is
explained from what else is known, in this order:

1. we cancelled it (`MarketDiffer.expect_own_cancel`): no event, it was our own doing;
2. its expiration time passed on the service's clock: expired;
3. the bidding wallet's drop pays for it (its price plus the maker fee): filled;
4. the balance left no longer covers it by the pool rule (`app.core.pools.bids_to_cancel`,
   the cancel-after-fill rule): cancelled by the service;
5. none of these: the reading is held back (`deferred`) for up to `MAX_DEFERRALS` more
   readings (the balance and the list are read one after the other, and an Esplora may see a
   fill's transaction a moment after the marketplace dropped the bid), then it is told as
   "ended by the service" without guessing which.

A bid whose listed quantity went down was partly filled. A single-inscription bid (no pool)
is paid from the payment address: the payment balance's drop is what fills it. Where the
service lists single-inscription bids with their state, or a seller's listings with theirs
(`InscriptionBidState`-like and `SellerListing`-like rows), the state says what happened
instead. Balances are compared by total (confirmed plus unconfirmed): a confirmation alone
is no change.

Pure: the caller reads the market and passes `MarketSnapshot`s in order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from app.core.pools import MakerFee, OpenBid, PoolKey, bid_cost, bids_to_cancel

MAX_DEFERRALS: Final = 2
OPEN: Final = "open"
ACTIVE: Final = "active"
ACCEPTED: Final = "accepted"
CANCELLED: Final = "cancelled"
SOLD: Final = "sold"
REASON_BALANCE: Final = "balance"  # the pool rule: the balance no longer covers the bid
BIDDING: Final = "bidding"
PAYMENT: Final = "payment"

_Cost = Callable[["WatchedBid"], int]


class EventKind(StrEnum):
    BID_FILLED = "bid_filled"
    BID_PARTLY_FILLED = "bid_partly_filled"
    BID_EXPIRED = "bid_expired"
    BID_CANCELLED_BY_SERVICE = "bid_cancelled_by_service"
    BID_ENDED = "bid_ended"  # gone, and neither expired, paid for nor cancelled by the rule
    LISTING_SOLD = "listing_sold"
    LISTING_ENDED = "listing_ended"
    BALANCE_CHANGED = "balance_changed"


@dataclass(frozen=True)
class WatchedBid:
    """One open bid as listed: `what` names it for people (a collection, trait, rune or
    inscription); `pool` is None for a single-inscription bid; `price_is_total`: the price is
    for all `quantity` units (a rune bid), not for each."""

    bid_id: str
    what: str
    price: int | None
    quantity: int | None = None
    expiration_ms: int | None = None
    pool: PoolKey | None = None
    created_ms: int = 0
    price_is_total: bool = False


@dataclass(frozen=True)
class WatchedState:
    """A row of a list with states: a seller's listing or a single-inscription bid."""

    id: str
    what: str
    price: int | None
    state: str
    txid: str | None = None


@dataclass(frozen=True)
class MarketSnapshot:
    """One reading. A None balance or list was not read (or is not offered)."""

    now_ms: int  # the service's clock
    bids: tuple[WatchedBid, ...]
    bidding_balance: int | None
    payment_balance: int | None
    maker_fee: MakerFee
    listings: tuple[WatchedState, ...] | None = None
    inscription_bids: tuple[WatchedState, ...] | None = None


@dataclass(frozen=True)
class MarketEvent:
    """`subject` is the bid or listing id, or BIDDING / PAYMENT for a balance; `quantity` the
    units filled and `remaining` what is still open (0: fully filled); `before`/`after` a
    balance; `reason` REASON_BALANCE or the state the service gave."""

    kind: EventKind
    subject: str
    what: str = ""
    price: int | None = None
    quantity: int | None = None
    remaining: int | None = None
    before: int | None = None
    after: int | None = None
    reason: str = ""
    txid: str | None = None


@dataclass
class _BidPart:
    events: list[MarketEvent] = field(default_factory=list)
    unexplained: list[WatchedBid] = field(default_factory=list)


class MarketDiffer:
    """Holds the last reading and turns each new one into events. `diff` may run in a worker
    thread while the event loop's thread adds our own cancels."""

    def __init__(self) -> None:
        self._baseline: MarketSnapshot | None = None
        self._deferrals = 0
        self._own: set[str] = set()

    @property
    def deferred(self) -> bool:
        """The last reading left a bid unexplained: read again soon."""
        return self._deferrals > 0

    def expect_own_cancel(self, ids: Iterable[str]) -> None:
        """Bids (or listings) we are ending ourselves: their going is no event."""
        self._own.update(ids)

    def forget_own_cancel(self, ids: Iterable[str]) -> None:
        """Ours after all not ended (the cancel failed): their going is news again."""
        self._own.difference_update(ids)

    def diff(self, snapshot: MarketSnapshot) -> list[MarketEvent]:
        """The events since the last reading (none for the first, which is the baseline)."""
        before = self._baseline
        if before is None:
            self._baseline = snapshot
            return []
        own = frozenset(self._own)  # a copy: the caller may add to it meanwhile
        states = _state_events(before.inscription_bids, snapshot.inscription_bids, own)
        states += _listing_events(before.listings, snapshot.listings, own)
        stated = {r.id for r in (before.inscription_bids or ()) + (snapshot.inscription_bids or ())}
        part = _bid_events(before, snapshot, own, stated)
        if part.unexplained and self._deferrals < MAX_DEFERRALS:
            # Keep the bids' baseline; the lists with states move on (told once).
            self._deferrals += 1
            self._baseline = _with_lists(before, snapshot)
            return states
        part.events += [
            MarketEvent(EventKind.BID_ENDED, b.bid_id, b.what, b.price, b.quantity)
            for b in part.unexplained
        ]
        part.events += _balance_events(before, snapshot)
        gone = {b.bid_id for b in before.bids} - {b.bid_id for b in snapshot.bids}
        self._own.difference_update(gone | _ended_ids(snapshot))
        self._deferrals = 0
        self._baseline = snapshot
        return part.events + states


def _with_lists(old: MarketSnapshot, new: MarketSnapshot) -> MarketSnapshot:
    return MarketSnapshot(
        old.now_ms,
        old.bids,
        old.bidding_balance,
        old.payment_balance,
        old.maker_fee,
        new.listings,
        new.inscription_bids,
    )


def _ended_ids(snapshot: MarketSnapshot) -> set[str]:
    rows = (snapshot.listings or ()) + (snapshot.inscription_bids or ())
    return {r.id for r in rows if r.state not in (OPEN, ACTIVE)}


def _bid_events(
    before: MarketSnapshot, now: MarketSnapshot, own: AbstractSet[str], stated: set[str]
) -> _BidPart:
    part = _BidPart()
    listed = {b.bid_id: b for b in now.bids}
    gone: list[WatchedBid] = []
    partial_cost = {BIDDING: 0, PAYMENT: 0}
    for bid in before.bids:
        if bid.bid_id in stated:
            continue  # its state says what happened (`_state_events`)
        current = listed.get(bid.bid_id)
        if current is None:
            if bid.bid_id in own:
                continue
            expired = bid.expiration_ms is not None and bid.expiration_ms <= now.now_ms
            if expired:
                part.events.append(
                    MarketEvent(
                        EventKind.BID_EXPIRED, bid.bid_id, bid.what, bid.price, bid.quantity
                    )
                )
            else:
                gone.append(bid)
            continue
        filled = _units_filled(bid, current)
        if filled:
            part.events.append(
                MarketEvent(
                    EventKind.BID_PARTLY_FILLED,
                    bid.bid_id,
                    bid.what,
                    bid.price,
                    filled,
                    remaining=current.quantity,
                )
            )
            wallet = BIDDING if bid.pool is not None else PAYMENT
            partial_cost[wallet] += _partial_cost(bid, filled, now.maker_fee)
    pooled = [b for b in gone if b.pool is not None]
    single = [b for b in gone if b.pool is None]
    bidding_drop = _drop(before.bidding_balance, now.bidding_balance, partial_cost[BIDDING])
    fills, by_rule, unexplained = _classify_pooled(pooled, now, bidding_drop)
    payment_drop = _drop(before.payment_balance, now.payment_balance, partial_cost[PAYMENT])
    single_fills, single_unexplained = _paid_for(single, payment_drop, lambda b: b.price or 0)
    part.events += [_filled(b) for b in fills + single_fills]
    part.events += [
        MarketEvent(
            EventKind.BID_CANCELLED_BY_SERVICE,
            b.bid_id,
            b.what,
            b.price,
            b.quantity,
            reason=REASON_BALANCE,
        )
        for b in by_rule
    ]
    part.unexplained = unexplained + single_unexplained
    return part


def _filled(bid: WatchedBid) -> MarketEvent:
    return MarketEvent(EventKind.BID_FILLED, bid.bid_id, bid.what, bid.price, bid.quantity, 0)


def _units_filled(before: WatchedBid, now: WatchedBid) -> int:
    if before.quantity is None or now.quantity is None:
        return 0
    return max(0, before.quantity - now.quantity)


def _partial_cost(bid: WatchedBid, units: int, fee: MakerFee) -> int:
    """What `units` of a partly filled bid took from its wallet (a rune bid's price is the
    total for its quantity; a collection bid's is per item)."""
    price = bid.price or 0
    if bid.pool is None:
        return price
    if bid.price_is_total and bid.quantity:
        return bid_cost(price, fee) * units // bid.quantity
    return bid_cost(price, fee) * units


def _drop(before: int | None, after: int | None, explained: int) -> int | None:
    """How much a wallet lost that is not yet explained; None when a balance is unknown."""
    if before is None or after is None:
        return None
    return max(0, before - after - explained)


def _classify_pooled(
    gone: Sequence[WatchedBid], now: MarketSnapshot, drop: int | None
) -> tuple[list[WatchedBid], list[WatchedBid], list[WatchedBid]]:
    """(filled, cancelled by the pool rule, unexplained) among pooled bids that went."""
    if not gone:
        return [], [], []
    balance = now.bidding_balance
    if balance is None or drop is None:
        return [], [], list(gone)
    fee = now.maker_fee
    survivors = [_open_bid(b) for b in now.bids if b.pool is not None and b.price is not None]
    priced = [b for b in gone if b.price is not None]
    filled: list[WatchedBid] = []
    left = drop
    while True:
        candidates = [b for b in priced if b not in filled]
        doomed = {o.bid_id for o in bids_to_cancel(balance, survivors + _open(candidates), fee)}
        kept = [b for b in candidates if b.bid_id not in doomed]
        if kept:  # the rule keeps them: they went some other way, a fill if the drop pays
            paid, unpaid = _paid_for(kept, left, lambda b: bid_cost(b.price or 0, fee))
            filled += paid
            left -= sum(bid_cost(b.price or 0, fee) for b in paid)
            if unpaid:
                cancelled = [b for b in candidates if b.bid_id in doomed]
                unpriced = [b for b in gone if b.price is None]
                return filled, cancelled, unpaid + unpriced
        affordable = [
            b for b in candidates if b.bid_id in doomed and bid_cost(b.price or 0, fee) <= left
        ]
        if not affordable:
            break
        # The drop pays for one the rule would cancel: the dearest it pays for was filled
        # (the rest are then judged again without it).
        best = max(affordable, key=lambda b: (bid_cost(b.price or 0, fee), -b.created_ms))
        filled.append(best)
        left -= bid_cost(best.price or 0, fee)
    cancelled = [b for b in priced if b not in filled]
    return filled, cancelled, [b for b in gone if b.price is None]


def _paid_for(
    bids: Sequence[WatchedBid], drop: int | None, cost: _Cost
) -> tuple[list[WatchedBid], list[WatchedBid]]:
    """The bids a wallet's drop pays for (dearest first), and the ones it does not."""
    if drop is None:
        return [], list(bids)
    paid, unpaid, left = [], [], drop
    for bid in sorted(bids, key=lambda b: (-cost(b), b.created_ms, b.bid_id)):
        if bid.price is not None and cost(bid) <= left:
            paid.append(bid)
            left -= cost(bid)
        else:
            unpaid.append(bid)
    return paid, unpaid


def _open_bid(bid: WatchedBid) -> OpenBid:
    assert bid.pool is not None and bid.price is not None
    return OpenBid(bid.bid_id, bid.pool, bid.price, bid.created_ms)


def _open(bids: Iterable[WatchedBid]) -> list[OpenBid]:
    return [_open_bid(b) for b in bids]


def _balance_events(before: MarketSnapshot, now: MarketSnapshot) -> list[MarketEvent]:
    events = []
    for wallet, old, new in (
        (BIDDING, before.bidding_balance, now.bidding_balance),
        (PAYMENT, before.payment_balance, now.payment_balance),
    ):
        if old is not None and new is not None and old != new:
            events.append(MarketEvent(EventKind.BALANCE_CHANGED, wallet, before=old, after=new))
    return events


def _state_events(
    before: tuple[WatchedState, ...] | None,
    now: tuple[WatchedState, ...] | None,
    own: AbstractSet[str],
) -> list[MarketEvent]:
    """Single-inscription bids that left "open": accepted (filled), cancelled, or ended."""
    events = []
    for old, new in _transitions(before, now, OPEN):
        if new.state == ACCEPTED:
            kind, reason = EventKind.BID_FILLED, ""
        elif new.state == CANCELLED:
            if old.id in own:
                continue
            kind, reason = EventKind.BID_CANCELLED_BY_SERVICE, ""
        else:
            kind, reason = EventKind.BID_ENDED, new.state
        events.append(
            MarketEvent(kind, old.id, old.what, old.price, 1, 0, reason=reason, txid=new.txid)
        )
    return events


def _listing_events(
    before: tuple[WatchedState, ...] | None,
    now: tuple[WatchedState, ...] | None,
    own: AbstractSet[str],
) -> list[MarketEvent]:
    """Listings that stopped being active: sold, or ended (unless we ended them)."""
    events = []
    for old, new in _transitions(before, now, ACTIVE):
        if new.state == SOLD:
            events.append(
                MarketEvent(EventKind.LISTING_SOLD, old.id, old.what, old.price, txid=new.txid)
            )
        elif old.id not in own:
            events.append(
                MarketEvent(
                    EventKind.LISTING_ENDED,
                    old.id,
                    old.what,
                    old.price,
                    reason=new.state,
                    txid=new.txid,
                )
            )
    return events


def _transitions(
    before: tuple[WatchedState, ...] | None, now: tuple[WatchedState, ...] | None, live: str
) -> list[tuple[WatchedState, WatchedState]]:
    """(was live, is no longer) pairs of rows both readings list."""
    if before is None or now is None:
        return []
    current = {r.id: r for r in now}
    return [
        (old, current[old.id])
        for old in before
        if old.state == live and old.id in current and current[old.id].state != live
    ]
