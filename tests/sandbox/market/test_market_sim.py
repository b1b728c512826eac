"""The market simulator and the demo market (issue 16): a seed and the same clock moves give the
same market on two sandboxes (whatever their keys and ids), steps continue across calls, the
demo market is made once; the serve options that run them parse."""

from __future__ import annotations

import argparse
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.sandbox.chain.node import Node
from app.sandbox.cli import add_serve_arguments
from app.sandbox.demo import DEMO_COLLECTIONS, DEMO_RUNES
from app.sandbox.http.app import create_app
from app.sandbox.http.market_activity import MarketActivity
from app.sandbox.http.settings import SandboxSettings
from app.sandbox.market.listings_store import active_listings
from app.sandbox.market.market_sim import seed_demo_market
from app.sandbox.market.service import Market
from tests.sandbox.market.conftest import FrozenWall, asgi_client
from tests.sandbox.market.helpers import advance, ok

START_MS = 1_800_000_000_000
SEED = 20_261_125

Sandbox = tuple[httpx.AsyncClient, Market]


@pytest.fixture
async def new_sandbox(tmp_path: Path) -> AsyncIterator[Callable[[], Any]]:
    """`await new_sandbox()`: (client, market) of a new node whose clock stands at START_MS."""
    async with AsyncExitStack() as stack:
        count = 0

        async def make() -> Sandbox:
            nonlocal count
            count += 1
            node = Node.open(tmp_path / f"node-{count}")
            stack.callback(node.close)
            node.clock._wall_ms = FrozenWall(START_MS - node.clock.now_ms() + node.clock._wall_ms())
            app = create_app(node, SandboxSettings())
            client = await stack.enter_async_context(asgi_client(app))
            return client, app.state.market

        yield make


def market_state(market: Market) -> dict[str, Any]:
    """The market as prices and sizes, without keys, ids or txids."""
    with market.store.reading() as conn:
        listings = sorted((x.collection_slug or "", x.price) for x in active_listings(conn))
        bids = sorted(
            conn.execute(
                "SELECT slug, COALESCE(trait_type, ''), COALESCE(trait_value, ''), price, "
                "quantity, status FROM bids"
            ).fetchall()
        )
        sold = conn.execute("SELECT COUNT(*) FROM secure_listings WHERE status = 'sold'")
        return {"listings": listings, "bids": bids, "sold": sold.fetchone()[0]}


def without_ids(reports: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The steps of `reports`, in order, without the orders' ids."""
    return [
        {k: v for k, v in step.items() if k not in ("listingId", "bidIds")}
        for report in reports
        for step in report["steps"]
    ]


async def simulate(client: httpx.AsyncClient, steps: int) -> dict[str, Any]:
    body = {"seed": SEED, "steps": steps}
    report: dict[str, Any] = ok(await client.post("/sandbox/market/simulate", json=body))
    return report


async def test_the_same_seed_and_clock_make_the_same_market(new_sandbox: Any) -> None:
    (one, one_market), (two, two_market) = await new_sandbox(), await new_sandbox()
    first = [await simulate(one, 12), await simulate(one, 12)]
    await advance(one, 600)
    first.append(await simulate(one, 16))
    second = [await simulate(two, 24)]
    await advance(two, 600)
    second.append(await simulate(two, 16))

    assert [s["step"] for r in first for s in r["steps"]] == list(range(40))
    assert without_ids(first) == without_ids(second)
    assert market_state(one_market) == market_state(two_market)
    done = {s["action"] for r in first for s in r["steps"] if s["done"]}
    assert {"list", "bid"} <= done, done  # the simulator did move the market


async def test_another_seed_makes_another_market(new_sandbox: Any) -> None:
    (one, one_market), (two, two_market) = await new_sandbox(), await new_sandbox()
    await simulate(one, 20)
    ok(await two.post("/sandbox/market/simulate", json={"seed": SEED + 1, "steps": 20}))
    assert market_state(one_market) != market_state(two_market)


async def test_the_demo_market_has_sellers_and_bidders_per_collection_and_rune(
    new_sandbox: Any,
) -> None:
    _, market = await new_sandbox()
    assert seed_demo_market(market) is True
    state = market_state(market)
    for spec in DEMO_COLLECTIONS:
        assert len([p for slug, p in state["listings"] if slug == spec["slug"]]) == 3  # 4, 1 sold
        assert len([b for b in state["bids"] if b[0] == spec["slug"]]) == 4
    for rune, _amount, _owner in DEMO_RUNES:
        assert len([b for b in state["bids"] if b[0] == rune]) == 2
        assert len([p for slug, p in state["listings"] if slug == rune]) == 2
    assert state["sold"] == len(DEMO_COLLECTIONS)
    assert seed_demo_market(market) is False  # once per data directory
    assert market_state(market) == state


async def test_the_served_sandbox_makes_the_demo_market_on_its_own_thread(
    new_sandbox: Any,
) -> None:
    _, market = await new_sandbox()
    activity = MarketActivity(market, demo=True, sim_seed=SEED, sim_interval_s=3_600)
    activity.start()
    activity.stop()  # joins: the demo comes first; a stop before the first tick runs no step
    assert seed_demo_market(market) is False  # made by the thread
    assert market.store.get_meta(f"market_sim_step:{SEED}") is None
    _, quiet = await new_sandbox()
    idle = MarketActivity(quiet, demo=False, sim_seed=None)
    assert not idle.needed
    idle.start()
    idle.stop()
    assert market_state(quiet) == {"listings": [], "bids": [], "sold": 0}


def test_the_serve_options_of_the_market() -> None:
    parser = argparse.ArgumentParser()
    add_serve_arguments(parser)
    defaults = parser.parse_args([])
    assert (defaults.demo_market, defaults.market_sim, defaults.market_sim_interval) == (
        True,
        None,
        None,
    )
    args = parser.parse_args(
        ["--no-demo-market", "--market-sim", "7", "--market-sim-interval", "2"]
    )
    assert (args.demo_market, args.market_sim, args.market_sim_interval) == (False, 7, 2.0)
    with pytest.raises(SystemExit):
        parser.parse_args(["--market-sim", "-1"])
