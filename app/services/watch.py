"""Live updates: read what matters on a schedule and tell what changed.

One reading (`read_market`) is our open bids with the bidding wallet's balance and the pools
(`open_bids.load_open_bids`, what the window shows), the payment address's balance, and, where
the service offers them, our listings and our single-inscription bids with their state. That is
about `REQUESTS_PER_READING` requests, all through the profile's clients, so each waits for the
host's pace (`app.net.rate_limit.HostPacer`) like any other request; the schedule
(`app.core.poll_schedule`) keeps the readings within a share of that rate, reads often right
after an action of ours (`nudge`), less often while nothing changes, and backs off on errors.
`app.core.market_events.MarketDiffer` turns each reading into events (a fill, an expiry, a
cancellation by the service, a sale...).

The sandbox publishes no feed of market events: it is polled like the public service.

Time is injected: `sleeper.sleep_ms` does every wait (tests pass one that returns when they
say), and the service clock comes with each context (`ctx.clock`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from app.core.market_events import (
    MarketDiffer,
    MarketEvent,
    MarketSnapshot,
    WatchedBid,
    WatchedState,
)
from app.core.poll_schedule import PollSchedule, PollTiming, floor_for_rate
from app.core.pools import MakerFee
from app.core.rate_limit import RateLimit
from app.net.marketplace_bids import BidListEntry
from app.net.marketplace_states import InscriptionBidState, SellerListing
from app.services.context import ServiceContext
from app.services.errors import NetError, ServiceError
from app.services.open_bids import OpenBidsView, load_open_bids, pool_key_of
from app.services.pacing import Sleeper

__all__ = [
    "REQUESTS_PER_READING",
    "MarketReading",
    "MarketWatcher",
    "read_market",
    "schedule_for",
]

log = logging.getLogger(__name__)

# Open bids under two addresses, two balances, listings, inscription bids.
REQUESTS_PER_READING: Final = 6


@dataclass(frozen=True)
class MarketReading:
    """One reading: the window's view of the bids and balance, the rest, and the snapshot
    the events are computed from. `listings` / `inscription_bids` None: not offered."""

    view: OpenBidsView
    payment_balance: int
    listings: tuple[SellerListing, ...] | None
    inscription_bids: tuple[InscriptionBidState, ...] | None
    snapshot: MarketSnapshot


def schedule_for(
    rate: RateLimit | None,
    timing: PollTiming | None = None,
    jitter: Callable[[], float] | None = None,
) -> PollSchedule:
    """The schedule of a profile whose hosts keep `rate` (None: no pace of ours)."""
    floor = floor_for_rate(None if rate is None else rate.per_second, REQUESTS_PER_READING)
    return PollSchedule(timing, floor_ms=floor, jitter=jitter)


async def read_market(
    ctx: ServiceContext, *, listings_offered: bool = True, states_offered: bool = True
) -> MarketReading:
    """One reading; a list the service said it does not offer (`*_offered` False) is not
    asked again."""
    view = await load_open_bids(ctx)
    payment = await ctx.clients.esplora.address_balance(ctx.payment_address)
    market = ctx.clients.marketplace
    address = ctx.ordinals_address
    listings = await market.get_seller_listings(address) if listings_offered else None
    states = await market.get_inscription_bid_states(address) if states_offered else None
    snapshot = await ctx.run_cpu(  # 10,000 bids take ~10 ms: not on the event loop
        _snapshot, ctx.clock.now_ms(), view, payment.total, ctx.maker_fee, listings, states
    )
    return MarketReading(
        view,
        payment.total,
        None if listings is None else tuple(listings),
        None if states is None else tuple(states),
        snapshot,
    )


def _snapshot(
    now_ms: int,
    view: OpenBidsView,
    payment_balance: int,
    maker_fee: MakerFee,
    listings: list[SellerListing] | None,
    states: list[InscriptionBidState] | None,
) -> MarketSnapshot:
    return MarketSnapshot(
        now_ms=now_ms,
        bids=tuple(_watched(entry) for entry in view.bids),
        bidding_balance=view.balance.total,
        payment_balance=payment_balance,
        maker_fee=maker_fee,
        listings=None if listings is None else tuple(_listing_row(x) for x in listings),
        inscription_bids=None if states is None else tuple(_bid_row(s) for s in states),
    )


def _watched(entry: BidListEntry) -> WatchedBid:
    pool = pool_key_of(entry)
    if pool is not None:
        what = str(pool)
    else:
        what = entry.inscription_id or entry.collection_slug or entry.rune_name or entry.bid_id
    created = entry.raw.get("createdAt")
    return WatchedBid(
        entry.bid_id,
        what,
        entry.price,
        entry.quantity,
        entry.expiration_ms,
        pool,
        created if isinstance(created, int) else 0,
        price_is_total=entry.is_rune_bid,
    )


def _listing_row(listing: SellerListing) -> WatchedState:
    txid = listing.raw.get("endTxid") or listing.raw.get("purchaseTxid")
    return WatchedState(
        listing.listing_id,
        listing.item,
        listing.price,
        listing.state,
        txid if isinstance(txid, str) else None,
    )


def _bid_row(state: InscriptionBidState) -> WatchedState:
    return WatchedState(
        state.bid_id, state.inscription_id, state.price, state.state, state.end_txid
    )


OnReading = Callable[[MarketReading, list[MarketEvent]], None]
OnError = Callable[[BaseException, int], None]  # the error, and the wait before the next try


class MarketWatcher:
    """Reads the market through `context()` until cancelled, handing each reading and its
    events to `on_reading`. Its first reading is the baseline, unless it is given the
    `differ` of an earlier watcher of the same connection (what changed meanwhile is told)."""

    def __init__(
        self,
        context: Callable[[], ServiceContext],
        on_reading: OnReading,
        *,
        sleeper: Sleeper,
        schedule: PollSchedule,
        on_error: OnError | None = None,
        differ: MarketDiffer | None = None,
    ) -> None:
        self._context = context
        self._on_reading = on_reading
        self._on_error = on_error
        self.sleeper = sleeper
        self.schedule = schedule
        self.differ = differ or MarketDiffer()
        self._offered = {"listings": True, "states": True}  # until the service says not
        self.readings = 0  # readings that went through (tests count them)
        self._woken = asyncio.Event()
        self._nudged_ms: int | None = None
        self._last: tuple[object, ...] | None = None

    def nudge(self) -> None:
        """An action of ours: read again soon (a wait in progress is cut short)."""
        self._nudged_ms = self.schedule.after_action()
        self._woken.set()

    async def run(self) -> None:
        delay = self.schedule.first_delay_ms()
        while True:
            await self._wait(delay)
            delay = await self.read_once()

    async def read_once(self) -> int:
        """Read, tell, and say how long to wait before the next reading."""
        try:
            ctx = self._context()
            reading = await read_market(
                ctx,
                listings_offered=self._offered["listings"],
                states_offered=self._offered["states"],
            )
        except (NetError, ServiceError) as exc:
            wait = self.schedule.after_error()
            log.info("live update failed (%s); next try in %d ms", type(exc).__name__, wait)
            if self._on_error is not None:
                self._on_error(exc, wait)
            return wait
        self._offered["listings"] = reading.listings is not None
        self._offered["states"] = reading.inscription_bids is not None
        events = await ctx.run_cpu(self.differ.diff, reading.snapshot)  # not on the loop
        self.readings += 1
        shape = _shape(reading.snapshot)
        changed = bool(events) or self.differ.deferred or shape != self._last
        self._last = shape
        self._on_reading(reading, events)
        wait = self.schedule.after_reading(changed)
        if self.differ.deferred:  # a bid left unexplained: the balance may catch up at once
            wait = min(wait, max(self.schedule.floor_ms, self.schedule.timing.fast_ms))
        return wait

    async def _wait(self, ms: int) -> None:
        """`ms` through the sleeper; a nudge replaces what is left with the short delay."""
        while True:
            self._woken.clear()
            sleep = asyncio.ensure_future(self.sleeper.sleep_ms(ms))
            woken = asyncio.ensure_future(self._woken.wait())
            try:
                done, _ = await asyncio.wait({sleep, woken}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in (sleep, woken):
                    if not task.done():
                        task.cancel()
            if sleep in done:
                sleep.result()
                return
            ms = self._nudged_ms if self._nudged_ms is not None else ms


def _shape(snapshot: MarketSnapshot) -> tuple[object, ...]:
    """What a reading shows, to tell an idle reading from one with news."""
    return (
        snapshot.bids,
        snapshot.bidding_balance,
        snapshot.payment_balance,
        snapshot.listings,
        snapshot.inscription_bids,
    )
