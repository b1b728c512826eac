"""A pool's market: floor, top bid, depth and our bids' rank (`app.core.market_snapshot`), read
from the marketplace's order pages, cached per pool and refreshed on a schedule.

`read_pool_market` reads both sides of one pool: bids highest first and listings cheapest first,
`PAGE_SIZE` rows a page, at most `MAX_PAGES` pages a side (the top of the book: the service's
own counts come with the snapshot, `bids_total` / `listings_total`). A rune pool is asked by
its rune name, a trait pool by its collection (the service has no trait filter: the snapshot
keeps that trait's bids). Rows the client could not read are counted in `skipped_rows`.

Which orders are ours: the caller says (`own_addresses`, `own_bid_ids`); `read_own_orders`
gives them: our payment, ordinals and bidding-wallet addresses (it is not documented which one
the service shows as the bidder) and the ids of our open bids.

`MarketReader` keeps the last snapshot of each pool it watches and reads each again on its own
schedule (`app.core.poll_schedule`: `base_ms` apart, longer while nothing changes, backing off
after errors, never faster than a share of the host's request rate allows); every request
goes through the profile's clients, so the host's pace and 429 handling apply. A failed read
keeps the last snapshot, marked stale, with the error.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any, Final, TypeVar

from app.core.market_snapshot import MarketSnapshot, build_snapshot, is_rune_pool
from app.core.poll_schedule import PollSchedule, PollTiming, floor_for_rate
from app.core.pools import PoolKey
from app.core.rate_limit import RateLimit
from app.net.marketplace_activity import ActivityPage
from app.services.context import ServiceContext
from app.services.errors import NetError, ServiceError
from app.services.open_bids import listed_bids
from app.services.pacing import Clock, Sleeper, SystemClock

__all__ = [
    "MAX_PAGES",
    "PAGE_SIZE",
    "REQUESTS_PER_REFRESH",
    "MarketReader",
    "OwnOrders",
    "PoolMarket",
    "own_addresses",
    "read_own_orders",
    "read_pool_market",
]

log = logging.getLogger(__name__)

PAGE_SIZE: Final = 250  # what another client of the public service asks for (notes, [3P])
MAX_PAGES: Final = 4  # a side: the top 1,000 orders
# A refresh usually reads one page a side; the schedule plans for that.
REQUESTS_PER_REFRESH: Final = 2
# A market panel is looked at while deciding a price: read it more often than the live updates.
MARKET_TIMING: Final = PollTiming(
    start_ms=0, fast_ms=3_000, fast_polls=3, base_ms=10_000, idle_max_ms=60_000
)

Row = TypeVar("Row")


@dataclass(frozen=True)
class OwnOrders:
    addresses: frozenset[str]
    bid_ids: frozenset[str]


def own_addresses(ctx: ServiceContext) -> frozenset[str]:
    """Our addresses a bidder or seller field may show: payment, ordinals, bidding wallet."""
    known = {ctx.payment_address, ctx.ordinals_address, ctx.bidding_wallet_address}
    return frozenset(a for a in known if a)


async def read_own_orders(ctx: ServiceContext) -> OwnOrders:
    """Our addresses and the ids of our open bids (two requests: `open_bids.listed_bids`)."""
    bids = await listed_bids(ctx)
    return OwnOrders(own_addresses(ctx), frozenset(b.bid_id for b in bids))


async def _all_pages(
    read: Callable[[int], Awaitable[ActivityPage[Row]]],
) -> tuple[list[Row], int | None, int]:
    """Rows of up to MAX_PAGES pages, the service's total, and the rows skipped."""
    rows: list[Row] = []
    skipped = 0
    total: int | None = None
    for number in range(1, MAX_PAGES + 1):
        page = await read(number)
        rows.extend(page.rows)
        skipped += page.skipped
        total = page.total if page.total is not None else total
        read_so_far = len(rows) + skipped
        if (
            len(page.rows) + page.skipped < PAGE_SIZE
            or (total is not None and read_so_far >= total)
            or (page.total_pages is not None and number >= page.total_pages)
        ):
            break
    return rows, total, skipped


async def read_pool_market(
    ctx: ServiceContext,
    pool: PoolKey,
    *,
    own_addresses: frozenset[str],
    own_bid_ids: frozenset[str],
    rune: bool | None = None,
) -> MarketSnapshot:
    """Both sides of `pool`, as a snapshot (a rune's, when `rune`; None: told from the
    pool's name). Raises the `NetError` family on failure."""
    market = ctx.clients.marketplace
    slug = pool.collection_slug
    bids, bids_total, skipped_bids = await _all_pages(
        lambda n: market.get_activity_bids(slug, page=n, page_size=PAGE_SIZE)
    )
    listings, listings_total, skipped_listings = await _all_pages(
        lambda n: market.get_activity_listings(slug, page=n, page_size=PAGE_SIZE)
    )
    snapshot = await ctx.run_cpu(  # 10,000 rows take a few ms: still not on the event loop
        lambda: build_snapshot(
            pool,
            bids,
            listings,
            own_addresses=own_addresses,
            own_bid_ids=own_bid_ids,
            fetched_at_ms=ctx.clock.now_ms(),
            skipped_rows=skipped_bids + skipped_listings,
            rune=is_rune_pool(pool) if rune is None else rune,
            bids_total=bids_total,
            listings_total=listings_total,
        )
    )
    if snapshot.skipped_rows:
        log.info("market of %s: %d rows could not be read", pool, snapshot.skipped_rows)
    return snapshot


@dataclass(frozen=True)
class PoolMarket:
    """What the reader holds for one pool: the last snapshot (None until one was read), and
    the error of the last read when it failed (the snapshot is then an older one: `stale`)."""

    pool: PoolKey
    snapshot: MarketSnapshot | None
    error: BaseException | None = None

    @property
    def stale(self) -> bool:
        return self.error is not None

    def age_ms(self, now_ms: int) -> int | None:
        return None if self.snapshot is None else max(0, now_ms - self.snapshot.fetched_at_ms)


OnPoolMarket = Callable[[PoolMarket], None]


class MarketReader:
    """Per-pool cache of market snapshots, read again on a schedule while `run()` runs.

    `watch(pools)` says which pools to keep fresh (the Bid tab's chosen pool, the pools of our
    open bids); `nudge()` after an action of ours reads them soon. `own_orders()` says which
    orders are ours at each read (the caller's open bids); without it, or when it answers None
    (the caller has not read our open bids yet), `read_own_orders` asks the service (two more
    requests a read): a snapshot never takes our own bid for a rival's because our bid ids
    were not known yet (the service need not show our address as the bidder), which would have
    "Top bid + step" outbid ourselves."""

    def __init__(
        self,
        context: Callable[[], ServiceContext],
        *,
        sleeper: Sleeper,
        clock: Clock | None = None,
        on_update: OnPoolMarket | None = None,
        own_orders: Callable[[], OwnOrders | None] | None = None,
        rate: RateLimit | None = None,
        timing: PollTiming = MARKET_TIMING,
        jitter: Callable[[], float] | None = None,
    ) -> None:
        self._context = context
        self.sleeper = sleeper
        self.clock: Clock = clock or SystemClock()  # when each pool is due; moves as sleeper waits
        self._on_update = on_update
        self._own_orders = own_orders
        self._rate = rate
        self._timing = timing
        self._jitter = jitter
        self._cache: dict[PoolKey, PoolMarket] = {}
        self._schedules: dict[PoolKey, PollSchedule] = {}
        self._due_ms: dict[PoolKey, int] = {}
        self._woken = asyncio.Event()

    # --- what the window asks -----------------------------------------------------------

    def cached(self, pool: PoolKey) -> PoolMarket | None:
        return self._cache.get(pool)

    @property
    def watched(self) -> tuple[PoolKey, ...]:
        return tuple(self._schedules)

    def watch(self, pools: Iterable[PoolKey]) -> None:
        """Keep exactly these pools fresh; a new one is read at once, a dropped one forgotten
        from the schedule (its last snapshot stays cached)."""
        wanted = list(dict.fromkeys(pools))
        for pool in list(self._schedules):
            if pool not in wanted:
                del self._schedules[pool], self._due_ms[pool]
        floor = floor_for_rate(
            None if self._rate is None else self._rate.per_second,
            REQUESTS_PER_REFRESH * max(1, len(wanted)),
        )
        for pool in wanted:
            if pool not in self._schedules:
                self._schedules[pool] = PollSchedule(
                    self._timing, floor_ms=floor, jitter=self._jitter
                )
                self._due_ms[pool] = self.clock.now_ms() + self._timing.start_ms
            self._schedules[pool].floor_ms = floor
        self._woken.set()

    def nudge(self) -> None:
        """An action of ours (a bid placed or cancelled): read every watched pool soon."""
        for pool, schedule in self._schedules.items():
            self._due_ms[pool] = self.clock.now_ms() + schedule.after_action()
        self._woken.set()

    # --- reading ------------------------------------------------------------------------

    async def refresh(self, pool: PoolKey) -> PoolMarket:
        """Read `pool` now; on an error keep its last snapshot, marked stale."""
        try:
            ctx = self._context()
            own = self._own_orders() if self._own_orders else None
            if own is None:
                own = await read_own_orders(ctx)
            snapshot = await read_pool_market(
                ctx, pool, own_addresses=own.addresses, own_bid_ids=own.bid_ids
            )
        except (NetError, ServiceError) as exc:
            log.info("market of %s not read: %s", pool, type(exc).__name__)
            before = self._cache.get(pool)
            held = PoolMarket(pool, None if before is None else before.snapshot, exc)
            self._store(held)
            self._reschedule(pool, None)
            return held
        before = self._cache.get(pool)
        changed = before is None or before.snapshot is None or _moved(before.snapshot, snapshot)
        held = PoolMarket(pool, snapshot)
        self._store(held)
        self._reschedule(pool, changed)
        return held

    async def run(self) -> None:
        """Refresh each watched pool when it is due, until cancelled."""
        while True:
            if not self._schedules:
                await self._wait(None)
                continue
            pool = min(self._due_ms, key=self._due_ms.__getitem__)
            wait = self._due_ms[pool] - self.clock.now_ms()
            if wait > 0:
                await self._wait(wait)
                continue  # the watched set or the due times may have changed meanwhile
            await self.refresh(pool)

    def _store(self, held: PoolMarket) -> None:
        self._cache[held.pool] = held
        if self._on_update is not None:
            self._on_update(held)

    def _reschedule(self, pool: PoolKey, changed: bool | None) -> None:
        schedule = self._schedules.get(pool)
        if schedule is None:
            return  # read on demand, not watched
        wait = schedule.after_error() if changed is None else schedule.after_reading(changed)
        self._due_ms[pool] = self.clock.now_ms() + wait

    async def _wait(self, ms: int | None) -> None:
        """Up to `ms` (None: until woken); `watch` and `nudge` cut the wait short."""
        self._woken.clear()
        woken = asyncio.ensure_future(self._woken.wait())
        waits: set[asyncio.Future[Any]] = {woken}
        sleep = None
        if ms is not None:
            sleep = asyncio.ensure_future(self.sleeper.sleep_ms(ms))
            waits.add(sleep)
        try:
            done, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in waits:
                if not task.done():
                    task.cancel()
        if sleep is not None and sleep in done:
            sleep.result()


def _moved(before: MarketSnapshot, after: MarketSnapshot) -> bool:
    """Whether a reading shows something new (what the schedule's idle stretch goes by)."""
    unchanged = replace(after, fetched_at_ms=before.fetched_at_ms)
    return unchanged != before
