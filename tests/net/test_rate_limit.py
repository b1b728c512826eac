"""Every client keeps its host's pace and waits out a 429, within bounds; the waits are
reported so the window can say so. A fake clock and sleep: nothing here really waits."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import httpx
import pytest
from net_router import Router

from app.core.rate_limit import MAX_RATE_LIMITED_RETRIES, RateLimit
from app.net.clients import NetClients
from app.net.config import ServiceConfig
from app.net.errors import ConnectionLost, HttpError, RateLimited
from app.net.marketplace import MarketplaceClient
from app.net.rate_limit import RateLimits, RateLimitWait, WaitCause, host_of

SANDBOX = "http://127.0.0.1:8123"
TIP = "/esplora/blocks/tip/height"


class FakeTime:
    """A clock that moves only when something sleeps; every sleep is recorded."""

    def __init__(self) -> None:
        self.now = 1_000.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


@pytest.fixture
def time_() -> FakeTime:
    return FakeTime()


def limits(time_: FakeTime, limit: RateLimit | None, jitter: float = 0.0) -> RateLimits:
    return RateLimits(limit, clock=time_.clock, sleep=time_.sleep, jitter=lambda: jitter)


def answers(*responses: httpx.Response) -> Iterator[httpx.Response]:
    yield from responses


def in_turn(router: Router, path: str, *responses: httpx.Response) -> None:
    queue = answers(*responses)
    router.add("GET", path, lambda _request: next(queue))


def test_one_pacer_per_host_shared_by_the_clients_on_it(time_: FakeTime) -> None:
    shared = limits(time_, RateLimit(5, 10))
    clients = NetClients.open(ServiceConfig.sandbox(SANDBOX), rate_limits=shared)
    pacers = {clients.marketplace.pacer, clients.esplora.pacer, clients.ord.pacer}
    assert len(pacers) == 1  # the sandbox serves the three from one port
    public = NetClients.open(ServiceConfig.satflow(None), rate_limits=shared)
    hosts = {c.pacer.host for c in (public.marketplace, public.esplora, public.ord)}
    assert hosts == {
        "https://api.satflow.com:443",
        "https://mempool.space:443",
        "https://ordinals.com:443",
    }
    assert host_of("HTTP://Example.com/x") == "http://example.com:80"


def test_the_public_service_is_paced_by_default_and_the_sandbox_is_not() -> None:
    assert ServiceConfig.satflow(None).rate_limit == RateLimit(5, 10)
    custom = ServiceConfig.custom("https://a.example", "https://b.example", "https://c.example")
    assert custom.rate_limit == RateLimit(5, 10)
    assert ServiceConfig.sandbox(SANDBOX).rate_limit is None


async def test_requests_beyond_the_burst_wait_their_turn(time_: FakeTime) -> None:
    router = Router()
    router.add("GET", TIP, httpx.Response(200, text="101"))
    paced = limits(time_, RateLimit(5, 3))
    seen: list[RateLimitWait] = []
    paced.subscribe(seen.append)
    async with NetClients.open(
        ServiceConfig.sandbox(SANDBOX), transport=router.transport, rate_limits=paced
    ) as clients:
        for _ in range(6):
            assert await clients.esplora.tip_height() == 101
    assert time_.slept == pytest.approx([0.2, 0.2, 0.2])
    assert len(router.requests) == 6
    assert seen == []  # a fifth of a second is not worth a notice


@pytest.mark.parametrize(
    ("reply", "waited"),
    [
        (httpx.Response(429, json={"errorCode": "RATE_LIMITED", "retryAfterMs": 1500}), 1.5),
        (httpx.Response(429, json={"error": "slow down", "details": {"retryAfterMs": 700}}), 0.7),
        (httpx.Response(429, text="Too Many Requests", headers={"Retry-After": "3"}), 3.0),
        (httpx.Response(429, text="Too Many Requests"), 0.25),  # backoff, jitter 0
    ],
)
async def test_a_429_is_waited_out_and_the_request_sent_again(
    time_: FakeTime, reply: httpx.Response, waited: float
) -> None:
    router = Router()
    in_turn(router, TIP, reply, httpx.Response(200, text="7"))
    paced = limits(time_, None)
    seen: list[RateLimitWait] = []
    paced.subscribe(seen.append)
    async with NetClients.open(
        ServiceConfig.sandbox(SANDBOX), transport=router.transport, rate_limits=paced
    ) as clients:
        assert await clients.esplora.tip_height() == 7
    assert time_.slept == pytest.approx([waited])
    assert seen == [
        RateLimitWait("http://127.0.0.1:8123", pytest.approx(waited), WaitCause.SERVICE)
    ]
    assert paced.rate_limited == 1


async def test_a_retry_after_date_is_read(time_: FakeTime) -> None:
    router = Router()
    when = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    in_turn(
        router,
        TIP,
        httpx.Response(429, headers={"Retry-After": when}),
        httpx.Response(200, text="7"),
    )
    async with NetClients.open(
        ServiceConfig.sandbox(SANDBOX), transport=router.transport, rate_limits=limits(time_, None)
    ) as clients:
        assert await clients.esplora.tip_height() == 7
    (slept,) = time_.slept
    assert 25 < slept <= 31


async def test_a_429_holds_the_whole_host(time_: FakeTime) -> None:
    """After a 429 on one client, the others on the same host wait too."""
    router = Router()
    in_turn(
        router, TIP, httpx.Response(429, json={"retryAfterMs": 2000}), httpx.Response(200, text="7")
    )
    router.json("GET", "/ord/blockheight", 7)
    paced = limits(time_, None)
    async with NetClients.open(
        ServiceConfig.sandbox(SANDBOX), transport=router.transport, rate_limits=paced
    ) as clients:
        pacer = clients.ord.pacer
        assert await clients.esplora.tip_height() == 7
        time_.now -= 1.5  # as if ord's request came half a second after the 429
        await pacer.before_send()
    assert time_.slept == pytest.approx([2.0, 1.5])


async def test_it_gives_up_after_the_bound_and_the_caller_hears_the_429(time_: FakeTime) -> None:
    router = Router()
    router.add("GET", TIP, httpx.Response(429, text="Too Many Requests"))
    async with NetClients.open(
        ServiceConfig.sandbox(SANDBOX), transport=router.transport, rate_limits=limits(time_, None)
    ) as clients:
        with pytest.raises(HttpError) as caught:
            await clients.esplora.tip_height()
    assert caught.value.status == 429
    assert len(router.requests) == MAX_RATE_LIMITED_RETRIES + 1
    assert time_.slept == pytest.approx([0.25, 0.5, 1.0, 2.0, 4.0])


async def test_a_wait_longer_than_we_wait_is_not_waited(time_: FakeTime) -> None:
    router = Router()
    router.add("GET", "/v1/challenge", httpx.Response(429, json={"retryAfterMs": 600_000}))
    async with NetClients.open(
        ServiceConfig.sandbox(SANDBOX), transport=router.transport, rate_limits=limits(time_, None)
    ) as clients:
        with pytest.raises(RateLimited) as caught:
            await clients.marketplace.get_challenge("bcrt1qexample")
    assert caught.value.retry_after_ms == 600_000
    assert (len(router.requests), time_.slept) == (1, [])


async def test_bid_placement_keeps_its_own_429_rule(time_: FakeTime) -> None:
    """A 429 of /bid/place reaches bid_retry at once: it paces per address and re-signs."""
    router = Router()
    router.add("POST", "/v1/bid/place", httpx.Response(429, json={"retryAfterMs": 500}))
    client = MarketplaceClient(
        f"{SANDBOX}/v1", transport=router.transport, pacer=limits(time_, None).pacer(SANDBOX)
    )
    async with client:
        with pytest.raises(RateLimited):
            await client.place_collection_bid({"price": 1000})
    assert (len(router.requests), time_.slept) == (1, [])


async def test_a_failing_listener_does_not_fail_the_request(time_: FakeTime) -> None:
    router = Router()
    in_turn(
        router, TIP, httpx.Response(429, json={"retryAfterMs": 10}), httpx.Response(200, text="7")
    )
    paced = limits(time_, None)

    def broken(_event: RateLimitWait) -> None:
        raise RuntimeError("listener bug")

    unsubscribe = paced.subscribe(broken)
    async with NetClients.open(
        ServiceConfig.sandbox(SANDBOX), transport=router.transport, rate_limits=paced
    ) as clients:
        assert await clients.esplora.tip_height() == 7
    unsubscribe()
    unsubscribe()  # twice is harmless


async def test_a_get_whose_connection_broke_is_sent_again_once(time_: FakeTime) -> None:
    calls: list[str] = []

    def flaky(request: httpx.Request) -> httpx.Response:
        calls.append(request.method)
        if len(calls) == 1 or request.method == "POST":
            raise httpx.RemoteProtocolError("Server disconnected without sending a response.")
        return httpx.Response(200, text="7")

    transport = httpx.MockTransport(flaky)
    async with NetClients.open(
        ServiceConfig.sandbox(SANDBOX), transport=transport, rate_limits=limits(time_, None)
    ) as clients:
        assert await clients.esplora.tip_height() == 7
        assert calls == ["GET", "GET"]
        with pytest.raises(ConnectionLost):  # a POST may have been applied: never resent
            await clients.esplora.broadcast("00")
        assert calls == ["GET", "GET", "POST"]

    always: list[str] = []

    def broken(request: httpx.Request) -> httpx.Response:
        always.append(request.method)
        raise httpx.RemoteProtocolError("Server disconnected without sending a response.")

    async with NetClients.open(
        ServiceConfig.sandbox(SANDBOX),
        transport=httpx.MockTransport(broken),
        rate_limits=limits(time_, None),
    ) as clients:
        with pytest.raises(ConnectionLost):
            await clients.esplora.tip_height()
    assert always == ["GET", "GET"]  # once more, not forever
