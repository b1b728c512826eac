"""`GET /esplora/block/{hash}`: Esplora's block JSON on a fresh chain of its own, with the
median time past (BIP-113) checked against the block times it is the median of."""

from __future__ import annotations

import statistics
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.sandbox.chain.node import Node
from app.sandbox.http.app import create_app
from tests.sandbox.conftest import ASGI_BASE_URL
from tests.sandbox.http import shapes
from tests.sandbox.scenario import broadcast, faucet_coin, get_json, mine_blocks
from tests.sandbox.txbuild import P2wpkhKey, split

REGTEST_BITS = 0x207FFFFF
REGTEST_GENESIS = "0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206"
# Coinbase witness: marker and flag (2), one item (1) of 32 bytes with its length (33).
COINBASE_WITNESS_BYTES = 36


@pytest.fixture
def fresh_node(tmp_path: Path) -> Iterator[Node]:
    """A node opened just now, on its own data directory."""
    node = Node.open(tmp_path / "data")
    try:
        yield node
    finally:
        node.close()


@pytest.fixture
async def fresh(fresh_node: Node) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(fresh_node)
    try:
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url=ASGI_BASE_URL) as client:
            yield client
    finally:
        app.state.market.close()


async def _tip(client: httpx.AsyncClient) -> dict[str, Any]:
    tip_hash = (await client.get("/esplora/blocks/tip/hash")).text
    block: dict[str, Any] = await get_json(client, f"/esplora/block/{tip_hash}")
    return block


async def _last_times(client: httpx.AsyncClient, block: dict[str, Any], n: int = 11) -> list[int]:
    """Timestamps of `block` and up to n - 1 blocks before it, walking `previousblockhash`."""
    times = [block["timestamp"]]
    while len(times) < n and block["previousblockhash"] is not None:
        block = await get_json(client, f"/esplora/block/{block['previousblockhash']}")
        times.append(block["timestamp"])
    return times


def _median_time_past(times: list[int]) -> int:
    return sorted(times)[len(times) // 2]  # Core's (and electrs') median of up to 11 times


async def test_tip_block_of_a_fresh_chain(fresh: httpx.AsyncClient) -> None:
    info = await get_json(fresh, "/sandbox/info")
    tip = await _tip(fresh)
    assert set(tip) == shapes.ESPLORA_BLOCK
    assert (tip["id"], tip["height"]) == (info["tipHash"], info["tipHeight"])
    assert (tip["version"], tip["bits"]) == (0x20000000, REGTEST_BITS)
    assert tip["difficulty"] == pytest.approx(4.656542373906925e-10)
    assert tip["tx_count"] >= 1 and tip["size"] > 80
    times = await _last_times(fresh, tip)
    assert len(times) == 11
    assert tip["mediantime"] == _median_time_past(times) <= tip["timestamp"]
    parent = await get_json(fresh, f"/esplora/block/{tip['previousblockhash']}")
    assert parent["height"] == tip["height"] - 1


async def test_genesis_block(fresh: httpx.AsyncClient) -> None:
    genesis = await get_json(fresh, f"/esplora/block/{REGTEST_GENESIS}")
    assert genesis == {
        "id": REGTEST_GENESIS,
        "height": 0,
        "version": 1,
        "timestamp": 1296688602,
        "tx_count": 1,
        "size": 285,
        "weight": 1140,
        "merkle_root": "4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b",
        "previousblockhash": None,
        "mediantime": 1296688602,  # only itself: Core's and electrs' rule at height 0
        "nonce": 2,
        "bits": REGTEST_BITS,
        "difficulty": genesis["difficulty"],
    }
    assert list(genesis) == [
        "id",
        "height",
        "version",
        "timestamp",
        "tx_count",
        "size",
        "weight",
        "merkle_root",
        "previousblockhash",
        "mediantime",
        "nonce",
        "bits",
        "difficulty",
    ]


async def test_mediantime_after_mining_12_blocks_five_minutes_apart(
    fresh: httpx.AsyncClient, fresh_node: Node, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Header times follow the wall clock: step it 5 minutes per block (an hour ahead at most,
    # within the 2 h the kernel allows).
    start = int(time.time())
    for n in range(1, 13):
        monkeypatch.setattr(fresh_node._engine, "wall_time", lambda n=n: start + n * 300)
        await mine_blocks(fresh)
    tip = await _tip(fresh)
    assert tip["timestamp"] == start + 12 * 300
    times = await _last_times(fresh, tip)
    assert times == [start + n * 300 for n in range(12, 1, -1)]
    # The median of the 11 last times is the 6th newest: the time of the block 5 below the tip.
    assert tip["mediantime"] == times[5] == statistics.median(times) == tip["timestamp"] - 1500
    parent = await get_json(fresh, f"/esplora/block/{tip['previousblockhash']}")
    assert parent["mediantime"] == tip["mediantime"] - 300


async def test_size_weight_and_tx_count(fresh: httpx.AsyncClient) -> None:
    sender, receiver = P2wpkhKey.from_label("block-sender"), P2wpkhKey.from_label("block-recv")
    await mine_blocks(fresh)  # whatever the demo data left in the mempool
    empty = await _tip(fresh)
    assert empty["tx_count"] == 1
    # Only the coinbase has witness data: weight = 4 x size - 3 x witness bytes.
    assert empty["weight"] == 4 * empty["size"] - 3 * COINBASE_WITNESS_BYTES

    coin = await faucet_coin(fresh, sender, 60_000)
    tx = split(coin, receiver, sender, amount=20_000, fee=400)
    assert (await broadcast(fresh, tx)).status_code == 200
    await mine_blocks(fresh)
    block = await _tip(fresh)
    assert block["tx_count"] == 2
    spent = await get_json(fresh, f"/esplora/tx/{tx.txid}")
    assert spent["status"]["block_hash"] == block["id"]
    witness_bytes = COINBASE_WITNESS_BYTES + (4 * spent["size"] - spent["weight"]) // 3
    assert block["weight"] == 4 * block["size"] - 3 * witness_bytes


async def test_unknown_and_malformed_block_hashes(fresh: httpx.AsyncClient) -> None:
    unknown = "cd" * 32
    response = await fresh.get(f"/esplora/block/{unknown}")
    assert response.status_code == 404
    assert response.json() == {"errorCode": "NOT_FOUND", "message": f"block {unknown} not found"}
    for bad in ("xyz", "ab" * 31, "zz" * 32):
        response = await fresh.get(f"/esplora/block/{bad}")
        assert response.status_code == 400
        assert response.json()["errorCode"] == "INVALID_REQUEST"
        assert "path.hash" in response.json()["message"]
    tip_hash = (await fresh.get("/esplora/blocks/tip/hash")).text
    assert (await get_json(fresh, f"/esplora/block/{tip_hash.upper()}"))["id"] == tip_hash
