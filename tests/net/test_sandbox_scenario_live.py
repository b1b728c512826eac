"""`SandboxClient`'s scenario calls against a real `bidwallet sandbox serve` process: what each
call does is read back from the sandbox's other views (its chain through Esplora and ord, its
clock, its market), and a refusal arrives as the sandbox's own error."""

from __future__ import annotations

import secrets
import string
from collections.abc import AsyncIterator, Iterator

import pytest

from app.net.errors import HttpError
from app.net.esplora import EsploraClient
from app.net.ord import OrdClient
from app.net.sandbox import SandboxClient
from app.net.sandbox_scenario import RevealOutput
from tests.sandbox.sandbox_process import SandboxProcess

# The client fixture is async (the session loop): the tests run in that loop too.
pytestmark = pytest.mark.asyncio(loop_scope="session")

TRAITS = {"hat": ["red", "blue"], "eyes": ["laser"]}


@pytest.fixture(scope="module")
def sandbox_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("net-sandbox")
    process = SandboxProcess(root / "logs", root / "data")
    try:
        yield process.url
    finally:
        process.kill()


@pytest.fixture
async def sandbox(sandbox_url: str) -> AsyncIterator[SandboxClient]:
    async with SandboxClient(sandbox_url) as client:
        yield client


def fresh_slug() -> str:
    return f"net-{secrets.token_hex(4)}"


async def test_faucet_then_mine_confirms_the_payment(sandbox: SandboxClient) -> None:
    address = await sandbox.sandbox_address("net-faucet", "p2wpkh")
    paid = await sandbox.faucet(address, 12_345)
    height = await sandbox.mine()
    async with EsploraClient(f"{sandbox.base_url}esplora") as esplora:
        coins = await esplora.address_utxos(address)
        tip = await esplora.tip_height()
    assert [(c.txid, c.vout, c.value) for c in coins if c.txid == paid.txid] == [
        (paid.txid, paid.vout, 12_345)
    ]
    assert paid.outpoint == f"{paid.txid}:{paid.vout}"
    assert height == tip
    assert await sandbox.mine(2) == height + 2


async def test_the_clock_moves_by_what_was_asked(sandbox: SandboxClient) -> None:
    before = await sandbox.advance_clock(0)
    moved = await sandbox.advance_clock(90_000)
    assert moved.offset_ms == before.offset_ms + 90_000
    assert moved.clock_ms >= before.clock_ms + 90_000
    assert (await sandbox.info()).clock_ms is not None


async def test_a_collection_and_its_items_with_traits(sandbox: SandboxClient) -> None:
    slug = fresh_slug()
    created = await sandbox.create_collection(slug, "Net Test", TRAITS)
    assert (created.slug, created.name) == (slug, "Net Test")
    assert created.traits == (("hat", ("red", "blue")), ("eyes", ("laser",)))
    assert slug in [c.slug for c in await sandbox.collections()]

    owner = await sandbox.sandbox_address("net-owner")
    item = await sandbox.inscribe(owner, collection=slug, attributes={"hat": "blue"})
    await sandbox.mine()
    async with OrdClient(f"{sandbox.base_url}ord") as ord_client:
        found = await ord_client.inscription(item.inscription_id)
    assert found.address == owner
    assert item.outpoint.split(":")[0] == found.output.split(":")[0]

    buyer = await sandbox.sandbox_address("net-receiver")
    txid = await sandbox.transfer_inscription(item.inscription_id, buyer)
    await sandbox.mine()
    async with OrdClient(f"{sandbox.base_url}ord") as ord_client:
        moved = await ord_client.inscription(item.inscription_id)
    assert (moved.address, moved.output.split(":")[0]) == (buyer, txid)


async def test_an_envelope_inscribed_by_commit_and_reveal(sandbox: SandboxClient) -> None:
    owner = await sandbox.sandbox_address("net-envelope")
    revealed = await sandbox.inscribe_envelope(
        [RevealOutput(owner, 546)], content_type="text/plain", body="hello"
    )
    await sandbox.mine()
    assert revealed.inscription_id == f"{revealed.reveal_txid}i0"
    assert revealed.commit_txid != revealed.reveal_txid
    async with OrdClient(f"{sandbox.base_url}ord") as ord_client:
        found = await ord_client.inscription(revealed.inscription_id)
    assert found.address == owner


async def test_runes_etched_then_sent_from_the_reserve(sandbox: SandboxClient) -> None:
    rune = "".join(secrets.choice(string.ascii_uppercase) for _ in range(16))
    owner = await sandbox.sandbox_address("net-runes")
    etched = await sandbox.give_runes(owner, rune, 5_000)
    sent = await sandbox.give_runes(owner, rune, 7)
    await sandbox.mine()
    assert etched != sent and all(":" in o for o in (etched, sent))


async def test_mempool_traffic_waits_until_mined(sandbox: SandboxClient) -> None:
    traffic = await sandbox.add_mempool_traffic(7.0, 1_000)
    assert traffic.txids and all(len(t) == 64 for t in traffic.txids)
    assert traffic.fee_estimates and all(r >= 1 for r in traffic.fee_estimates.values())
    async with EsploraClient(f"{sandbox.base_url}esplora") as esplora:
        await sandbox.mine()
        confirmed = await esplora.tx_status(traffic.txids[0])
    assert confirmed.confirmed


async def test_modes_are_set_and_answered(sandbox: SandboxClient) -> None:
    assert await sandbox.set_ord_indexes_mempool(True) is True
    assert (await sandbox.info()).raw["ordIndexesMempool"] is True
    assert await sandbox.set_ord_indexes_mempool(False) is False
    assert await sandbox.set_runestones("edict") == "edict"
    assert await sandbox.set_runestones("none") == "none"


async def test_the_market_moves_listing_bid_sale_floor(sandbox: SandboxClient) -> None:
    slug = fresh_slug()
    await sandbox.create_collection(slug, "Net Market", TRAITS)
    listed = await sandbox.market_listing(60_000, slug=slug, seller="net-seller")
    assert (listed.status, listed.price, listed.collection_slug) == ("active", 60_000, slug)
    assert listed.inscription_id is not None

    floor = await sandbox.market_floor(slug, 50_000)
    # Repriced: a new listing of the same item replaces the active one.
    (repriced,) = floor.changed
    assert floor.floor == 50_000 and repriced.inscription_id == listed.inscription_id

    bought = await sandbox.market_buy(slug=slug)
    assert (bought.listing_id, bought.price) == (repriced.id, 50_000)
    assert bought.purchase_txid and bought.transfer_txid

    bid = await sandbox.market_bid("trait", 30_000, slug=slug, trait=("hat", "red"))
    assert len(bid.bid_ids) == 1 and bid.bidder == "bidder-1"
    filled = await sandbox.market_fill(bid.bid_ids[0])
    assert filled.bid_id == bid.bid_ids[0] and filled.txid

    other = await sandbox.market_bid("collection", 20_000, slug=slug, bidder="net-bidder")
    cancelled = await sandbox.cancel_market_bid(other.bid_ids[0])
    assert cancelled.success is True and cancelled.raw["cancelledIds"] == list(other.bid_ids)

    again = await sandbox.market_listing(70_000, slug=slug, seller="net-seller")
    ended = await sandbox.end_market_listing(again.id)
    assert ended.id == again.id and ended.status != "active" and ended.removed_by_txid


async def test_a_collector_fills_a_bid_with_the_item_it_holds(sandbox: SandboxClient) -> None:
    slug = fresh_slug()
    await sandbox.create_collection(slug, "Net Fill", TRAITS)
    collector = await sandbox.sandbox_address("collector-2")
    item = await sandbox.inscribe(collector, collection=slug, attributes={"hat": "blue"})
    await sandbox.mine()
    bid = await sandbox.market_bid("trait", 26_000, slug=slug, trait=("hat", "blue"))
    paid_to = await sandbox.sandbox_address("net-proceeds", "p2wpkh")
    fill = await sandbox.fill_bid(bid.bid_ids[0], seller_address=paid_to)
    assert (fill.bid_id, fill.inscription_id, fill.seller_address) == (
        bid.bid_ids[0],
        item.inscription_id,
        paid_to,
    )
    with pytest.raises(HttpError) as none_left:
        other = await sandbox.market_bid("trait", 27_000, slug=slug, trait=("hat", "red"))
        await sandbox.fill_bid(other.bid_ids[0])
    assert none_left.value.error_code == "FILL_NO_MATCHING_INSCRIPTION"


async def test_the_simulator_reports_each_step(sandbox: SandboxClient) -> None:
    first = await sandbox.market_simulate(seed=7, steps=2)
    then = await sandbox.market_simulate(seed=7)
    assert (first.seed, [s.step for s in first.steps], first.next_step) == (7, [0, 1], 2)
    assert [s.step for s in then.steps] == [2] and then.next_step == 3


async def test_refusals_carry_the_sandboxs_code(sandbox: SandboxClient) -> None:
    with pytest.raises(HttpError) as unknown_bid:
        await sandbox.accept_inscription_bid("0" * 24)
    assert unknown_bid.value.status == 404
    with pytest.raises(HttpError) as unknown_listing:
        await sandbox.purchase_listing("0" * 24)
    assert unknown_listing.value.status == 404
    with pytest.raises(HttpError) as bad_slug:
        await sandbox.market_floor("no-such-collection-" + secrets.token_hex(3), 10_000)
    assert (bad_slug.value.status, bad_slug.value.error_code) == (400, "UNKNOWN_COLLECTION")
    with pytest.raises(HttpError) as taken:
        slug = fresh_slug()
        await sandbox.create_collection(slug, "Twice")
        await sandbox.create_collection(slug, "Twice")
    assert taken.value.status == 409 and taken.value.error_code


async def test_the_sandboxs_buyer_purchases_a_listing(
    sandbox: SandboxClient,
) -> None:
    """`purchase_listing` buys a participant's listing as it buys a user's."""
    slug = fresh_slug()
    await sandbox.create_collection(slug, "Net Purchase", TRAITS)
    listed = await sandbox.market_listing(40_000, slug=slug)
    receiver = await sandbox.sandbox_address("net-purchase-receiver")
    bought = await sandbox.purchase_listing(listed.id, buyer_token_receive_address=receiver)
    assert (bought.listing_id, bought.buyer_token_receive_address) == (listed.id, receiver)
    await sandbox.mine()
    async with OrdClient(f"{sandbox.base_url}ord") as ord_client:
        found = await ord_client.inscription(listed.inscription_id or "")
    assert found.address == receiver
