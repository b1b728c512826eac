"""The QA plugin's `Sandbox` controller against the session's real sandbox (no window): each
call arranges what a scenario needs, read back from the sandbox's other views (Esplora, ord,
the marketplace's bid list), synchronously from test code."""

from __future__ import annotations

import asyncio

import pytest

from app.net.esplora import EsploraClient
from app.net.marketplace import MarketplaceClient
from app.net.ord import OrdClient
from app.services.pacing import OffsetClock
from app.services.sandbox_scenario import SandboxRefused
from app.ui.qa.loop import run_async
from app.ui.qa.sandbox import Sandbox, SandboxClockSleeper, new_collection, sandbox_post

TRAITS = {"hat": ["red", "blue"], "eyes": ["laser"]}


def owner_of(sandbox: Sandbox, inscription_id: str) -> str | None:
    async def read() -> str | None:
        async with OrdClient(f"{sandbox.url}/ord") as ord_client:
            return (await ord_client.inscription(inscription_id)).address

    return run_async(sandbox.loop, read())


def test_the_fixture_is_the_controller_of_the_session_process(bidwallet_sandbox: Sandbox) -> None:
    sandbox = bidwallet_sandbox
    assert sandbox.url == sandbox.process.url and sandbox.url.startswith("http://127.0.0.1:")
    assert sandbox.info().raw["network"] == "regtest"


def test_fund_confirms_unless_asked_not_to(bidwallet_sandbox: Sandbox) -> None:
    sandbox = bidwallet_sandbox
    address = sandbox.address("qa-funded", "p2wpkh")
    confirmed = sandbox.fund(address, 21_000)
    waiting = sandbox.fund(address, 22_000, confirm=False)

    async def coins() -> dict[str, bool]:
        async with EsploraClient(f"{sandbox.url}/esplora") as esplora:
            return {c.outpoint: c.confirmed for c in await esplora.address_utxos(address)}

    assert run_async(sandbox.loop, coins()) == {confirmed.outpoint: True, waiting.outpoint: False}
    height = sandbox.mine()
    assert run_async(sandbox.loop, coins()) == {confirmed.outpoint: True, waiting.outpoint: True}
    assert sandbox.mine(2) == height + 2


def test_the_clock_moves_by_seconds_or_ms(bidwallet_sandbox: Sandbox) -> None:
    sandbox = bidwallet_sandbox
    start = sandbox.advance_clock(0)
    assert sandbox.advance_clock(seconds=1.5).offset_ms == start.offset_ms + 1_500
    assert sandbox.advance_clock(ms=250).offset_ms == start.offset_ms + 1_750
    with pytest.raises(ValueError, match="ms or seconds"):
        sandbox.advance_clock(ms=1, seconds=1)
    with pytest.raises(ValueError, match="ms or seconds"):
        sandbox.advance_clock()


def test_an_item_inscribed_then_moved(bidwallet_sandbox: Sandbox) -> None:
    sandbox = bidwallet_sandbox
    slug = sandbox.new_collection(TRAITS)
    assert slug in [c.slug for c in sandbox.run(lambda c: c.collections())]
    seller = sandbox.address("qa-seller")
    item = sandbox.inscribe(seller, collection=slug, attributes={"hat": "red"})
    assert owner_of(sandbox, item.inscription_id) == seller
    buyer = sandbox.address("qa-buyer")
    sandbox.move_item(item.inscription_id, buyer)
    assert owner_of(sandbox, item.inscription_id) == buyer


def test_a_competing_bid_above_ours_then_cancelled(bidwallet_sandbox: Sandbox) -> None:
    sandbox = bidwallet_sandbox
    slug = sandbox.new_collection(TRAITS)
    above = sandbox.outbid(40_000, slug=slug, trait=("hat", "blue"), bidder="qa-outbidder")
    (bid_id,) = above.bid_ids

    async def listed() -> dict[str, int | None]:
        address = str(above.raw["bidderTokenReceiveAddress"])
        async with MarketplaceClient(f"{sandbox.url}/v1") as market:
            return {b.bid_id: b.price for b in await market.get_bids(address)}

    assert run_async(sandbox.loop, listed())[bid_id] == 41_000
    assert sandbox.cancel_competing_bid(bid_id).success is True
    assert bid_id not in run_async(sandbox.loop, listed())


def test_a_bid_filled_by_a_sandbox_seller(bidwallet_sandbox: Sandbox) -> None:
    sandbox = bidwallet_sandbox
    slug = sandbox.new_collection(TRAITS)
    bid = sandbox.competing_bid(25_000, slug=slug, bidder="qa-filled")
    fill = sandbox.fill_bid(bid.bid_ids[0])
    assert fill.bid_id == bid.bid_ids[0]
    assert owner_of(sandbox, fill.inscription_id) == bid.raw["bidderTokenReceiveAddress"]


def test_listings_the_floor_and_purchases(bidwallet_sandbox: Sandbox) -> None:
    sandbox = bidwallet_sandbox
    slug = sandbox.new_collection(TRAITS)
    first = sandbox.list_item(80_000, slug=slug, seller="qa-lister")
    shift = sandbox.move_floor(slug, 60_000)
    assert shift.floor == 60_000
    cheapest = sandbox.buy_cheapest(slug=slug)
    assert cheapest.price == 60_000 and cheapest.inscription_id == first.inscription_id

    second = sandbox.list_item(90_000, slug=slug, seller="qa-lister")
    receiver = sandbox.address("qa-collector")
    bought = sandbox.buy_listing(second.id, receive_address=receiver)
    assert bought.listing_id == second.id
    assert owner_of(sandbox, second.inscription_id or "") == receiver

    third = sandbox.list_item(95_000, slug=slug)
    assert sandbox.end_listing(third.id).removed_by_txid


def test_the_simulator_steps_on(bidwallet_sandbox: Sandbox) -> None:
    ran = bidwallet_sandbox.simulate(steps=3, seed=11)
    assert (ran.seed, len(ran.steps)) == (11, 3)
    assert bidwallet_sandbox.simulate(seed=11).steps[0].step == ran.next_step


def test_a_refusal_names_the_sandboxs_reason(bidwallet_sandbox: Sandbox) -> None:
    with pytest.raises(SandboxRefused) as refused:
        bidwallet_sandbox.accept_inscription_bid("0" * 24)
    assert refused.value.status == 404 and "sandbox" in str(refused.value)


def test_the_older_helpers_run_through_the_same_client(bidwallet_sandbox: Sandbox) -> None:
    """`new_collection(root, traits)` and `sandbox_post` on the running loop, and the clock
    sleeper."""
    slug = new_collection(bidwallet_sandbox.url, TRAITS)
    assert slug in [c.slug for c in bidwallet_sandbox.run(lambda c: c.collections())]
    height = sandbox_post(bidwallet_sandbox.url, "/sandbox/mine", {"blocks": 1})["height"]
    assert bidwallet_sandbox.mine() == height + 1
    with pytest.raises(AssertionError, match=r"^/sandbox/collections: .*HTTP 409"):
        sandbox_post(bidwallet_sandbox.url, "/sandbox/collections", {"slug": slug, "name": "x"})

    clock = OffsetClock()
    sleeper = SandboxClockSleeper(bidwallet_sandbox.url, clock)
    before = bidwallet_sandbox.advance_clock(0).offset_ms
    run_async(bidwallet_sandbox.loop, sleeper.sleep_ms(5_000))
    assert (sleeper.waits, clock.offset_ms) == ([5_000], 5_000)
    assert bidwallet_sandbox.advance_clock(0).offset_ms == before + 5_000


def test_new_collection_outside_the_loop_says_what_it_needs(
    bidwallet_sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(asyncio, "get_running_loop", _no_loop)
    with pytest.raises(RuntimeError, match="session's loop"):
        new_collection(bidwallet_sandbox.url, TRAITS)


def _no_loop() -> asyncio.AbstractEventLoop:
    raise RuntimeError("no running event loop")
