"""What the strategy engine's benchmarks share (bench_strategy_engine, bench_strategy_hour): a
sandbox process on loopback and a context over it, pools to bid in, the engine built on an
approved policy, and records of what the engine sent.

Time: the context's clock is the sandbox's (wall time plus the sandbox clock's offset), and
every wait (the 500 ms pace, the wait between ticks) is skipped by moving both forward
(`SkippingSleeper`). So the engine's own work (reads, signing, requests) takes the time it
really takes on this machine, and only the waits are simulated: "the engine clock" below.

    async with engine_sandbox() as sb:
        await add_collection(sb.http, slug, floor=40_000, rival_price=20_000)
        await fund_bidding_wallet(sb, 100_000_000)
        engine = build_engine(sb, [(PoolKey(slug), rule, budget)], units_per_tick=20)
        ...
        share = pace_share(sb.pace.requests)
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import re
import secrets
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from app.core.bid_request import Trait
from app.core.limits import BID_RATE_INTERVAL_MS
from app.core.pools import PoolKey
from app.core.strategy_rules import PoolStrategy, StrategyRule
from app.net.clients import NetClients
from app.net.config import ServiceConfig
from app.services.bidding_wallet import get_bidding_wallet
from app.services.context import ServiceContext
from app.services.pacing import BidPacer, OffsetClock, Sleeper
from app.services.sandbox_process import start_sandbox
from app.services.strategy_engine import StrategyEngine
from benchmarks.bench_services_bids import new_keys, post
from tests.support.strategy_engine import approve_policy, engine_for


class SkippingSleeper:
    """A wait is not waited: the sandbox's clock and ours move forward by it at once."""

    def __init__(self, http: httpx.AsyncClient, clock: OffsetClock) -> None:
        self.http, self.clock = http, clock
        self.skipped_ms = 0

    async def sleep_ms(self, ms: int) -> None:
        if ms <= 0:
            return
        (await self.http.post("/sandbox/clock", json={"advanceMs": ms})).raise_for_status()
        self.clock.advance(ms)
        self.skipped_ms += ms


@dataclass(frozen=True)
class PacedRequest:
    """One bid request: when the pace let it go and when its answer came (the pace counts
    the next request's 500 ms from the answer), on the engine clock (ms) and the wall (s)."""

    sent_ms: int
    answered_ms: int
    sent_wall: float
    answered_wall: float
    units: int


class RecordingPacer(BidPacer):
    """The context's bid pacer, keeping a `PacedRequest` per bid request."""

    def __init__(self, clock: OffsetClock) -> None:
        super().__init__(clock)
        self.clock = clock
        self.requests: list[PacedRequest] = []
        self._let_go: tuple[int, float] | None = None

    async def before_send(self, address: str, sleeper: Sleeper) -> None:
        await super().before_send(address, sleeper)
        self._let_go = (self.clock.now_ms(), time.perf_counter())

    def sent(self, address: str, units: int) -> None:
        super().sent(address, units)
        now, wall = self.clock.now_ms(), time.perf_counter()
        sent_ms, sent_wall = self._let_go or (now, wall)
        self.requests.append(PacedRequest(sent_ms, now, sent_wall, wall, units))
        self._let_go = None


_ID_LIKE = re.compile(r"[^/]{21,}")  # addresses, txids, ids: one route whatever they are


class CountingTransport(httpx.AsyncHTTPTransport):
    """The clients' transport, counting requests by method and route; a route given a delay
    in `delays_ms` is answered that much later (a real network's round trip: loopback
    answers in a few ms), in real time, which the engine clock counts."""

    def __init__(self, delays_ms: Mapping[str, int] | None = None) -> None:
        super().__init__()
        self.counts: Counter[str] = Counter()
        self.delays_ms = dict(delays_ms or {})

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        route = f"{request.method} {_ID_LIKE.sub('*', request.url.path)}"
        self.counts[route] += 1
        if delay := self.delays_ms.get(route):
            await asyncio.sleep(delay / 1000)
        return await super().handle_async_request(request)


@dataclass
class EngineSandbox:
    http: httpx.AsyncClient  # the sandbox's scenario API (not counted, not paced)
    ctx: ServiceContext
    clock: OffsetClock
    sleeper: SkippingSleeper
    pace: RecordingPacer
    transport: CountingTransport
    profile: Path
    sandbox_pid: int
    engines: list[StrategyEngine] = field(default_factory=list)


PLACE_ROUTE = "POST /v1/bid/place"


@contextlib.asynccontextmanager
async def engine_sandbox(
    delays_ms: Mapping[str, int] | None = None,
) -> AsyncIterator[EngineSandbox]:
    """A new sandbox process and a context over it (a new wallet, the payment address funded
    for the bidding wallet's setup; `delays_ms`: `CountingTransport`'s); stopped and removed
    on the way out."""
    with tempfile.TemporaryDirectory() as tmp:
        sandbox = await start_sandbox(Path(tmp) / "data")
        try:
            async with httpx.AsyncClient(base_url=sandbox.url, timeout=120) as http:
                info = (await http.get("/sandbox/info")).json()
                clock = OffsetClock(info["clockOffsetMs"])
                sleeper = SkippingSleeper(http, clock)
                transport = CountingTransport(delays_ms)
                clients = NetClients.open(ServiceConfig.sandbox(sandbox.url), transport=transport)
                ctx = ServiceContext(clients, new_keys(), clock=clock, sleeper=sleeper)
                pace = RecordingPacer(clock)
                ctx.pacer = pace
                await post(
                    http, "/sandbox/faucet", {"address": ctx.payment_address, "sats": 100_000}
                )
                try:
                    yield EngineSandbox(
                        http, ctx, clock, sleeper, pace, transport, Path(tmp) / "profile",
                        sandbox.pid,
                    )  # fmt: skip
                finally:
                    await clients.aclose()
        finally:
            await sandbox.stop()


def new_slug(prefix: str) -> str:
    return f"{prefix}-{secrets.token_hex(4)}"


async def add_collection(
    http: httpx.AsyncClient,
    slug: str,
    *,
    floor: int,
    rival_price: int,
    traits: Sequence[dict[str, Any]] = (),
    rival_trait: Trait | None = None,
) -> None:
    """A new collection with a listing at `floor` and a rival's bid at `rival_price` (a trait
    bid when `rival_trait` is given)."""
    await post(http, "/sandbox/collections", {"slug": slug, "name": slug, "traits": list(traits)})
    await post(http, "/sandbox/market/floor", {"slug": slug, "price": floor})
    await rival(http, slug, rival_price, rival_trait)


async def rival(
    http: httpx.AsyncClient, slug: str, price: int, trait: Trait | None = None
) -> dict[str, Any]:
    """A new sandbox bidder's bid in the pool (a new bidder: the 500 ms rule never delays it)."""
    body: dict[str, Any] = {
        "kind": "collection" if trait is None else "trait", "slug": slug, "price": price,
        "quantity": 1, "bidder": f"rival-{secrets.token_hex(6)}", "fundSats": 10_000_000,
    }  # fmt: skip
    if trait is not None:
        body["trait"] = trait.to_json()
    data: dict[str, Any] = (await post(http, "/sandbox/market/bids", body))["data"]
    return data


async def fund_bidding_wallet(sb: EngineSandbox, sats: int) -> None:
    wallet = await get_bidding_wallet(sb.ctx)
    await post(sb.http, "/sandbox/faucet", {"address": wallet.address, "sats": sats})
    await post(sb.http, "/sandbox/mine", {"blocks": 1})


def build_engine(
    sb: EngineSandbox,
    pools: Sequence[tuple[PoolKey, StrategyRule, int]],
    *,
    on_event: Callable[[str, dict[str, object]], None] | None = None,
    **config: Any,
) -> StrategyEngine:
    """The engine for `pools` (pool, rule, budget), under a policy approved for them with the
    highest of the rules' caps and the sum of the budgets (the total budget too)."""
    keys = [pool for pool, _, _ in pools]
    cap = max(math.ceil(PoolStrategy(p, r, b).cap()) for p, r, b in pools)
    total = sum(budget for _, _, budget in pools)
    policy = approve_policy(sb.ctx, sb.profile, keys, cap, total)
    engine = engine_for(
        sb.ctx, sb.profile, policy, list(pools), total=total, on_event=on_event, **config
    )
    sb.engines.append(engine)
    return engine


def pace_share(requests: Sequence[PacedRequest]) -> float:
    """Bid requests a second over `requests` (consecutive) as a share of the spec's bound:
    at the bound each request of k units is k x 500 ms after the one before, so 1.0 is the
    bound used exactly and above 1.0 would break it."""
    if len(requests) < 2:
        return 0.0
    span = requests[-1].sent_ms - requests[0].sent_ms
    allowed = sum(r.units for r in requests[:-1]) * BID_RATE_INTERVAL_MS
    return allowed / span if span else math.inf
