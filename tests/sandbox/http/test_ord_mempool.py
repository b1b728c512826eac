"""`/ord/output` answers like real ord, which indexes blocks only: an output of a mempool
transaction is `indexed: false` until a block holds it. `POST /sandbox/ord/mempool
{"indexed": true}` shows the mempool instead (not what real ord does)."""

from __future__ import annotations

import httpx

from app.sandbox.chain.node import Node
from tests.sandbox.http import shapes
from tests.sandbox.scenario import faucet_coin, get_json, mine_blocks
from tests.sandbox.txbuild import P2wpkhKey


async def inscribe(client: httpx.AsyncClient, key: P2wpkhKey) -> str:
    """A new (unconfirmed) inscription on an output of `key`; that output."""
    response = await client.post("/sandbox/inscriptions", json={"address": key.address})
    assert response.status_code == 201, response.text
    outpoint: str = response.json()["outpoint"]
    return outpoint


async def test_ord_answers_like_real_ord_for_mempool_outputs_unless_told(
    sandbox_client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    """By default an output of a mempool transaction is `indexed: false` with no inscriptions
    or runes (what real ord says before the block), a confirmed one is described, a block
    makes the fresh one indexed, and the market keeps reading the current state;
    `{"indexed": true}` describes mempool outputs at once."""
    key = P2wpkhKey.from_label("ord-mempool-mode")
    confirmed = await faucet_coin(sandbox_client, key, 30_000)
    fresh = await faucet_coin(sandbox_client, key, 20_000, mine=False)
    inscribed = await inscribe(sandbox_client, key)  # unconfirmed
    inscription_id = f"{inscribed.split(':')[0]}i0"
    assert (await get_json(sandbox_client, "/sandbox/info"))["ordIndexesMempool"] is False
    output = await get_json(sandbox_client, f"/ord/output/{fresh.outpoint}")
    assert set(output) == shapes.ORD_OUTPUT
    assert (output["indexed"], output["inscriptions"], output["runes"]) == (False, [], {})
    assert (output["value"], output["address"], output["spent"]) == (20_000, key.address, False)
    assert (output["sat_ranges"], output["confirmations"]) == (None, 0)
    hidden = await get_json(sandbox_client, f"/ord/output/{inscribed}")
    assert (hidden["indexed"], hidden["inscriptions"]) == (False, [])
    truth = sandbox_node.ord_output(inscribed)
    assert truth is not None and truth["inscriptions"] == [inscription_id]
    kept = await get_json(sandbox_client, f"/ord/output/{confirmed.outpoint}")
    assert (kept["indexed"], kept["value"], kept["confirmations"]) == (True, 30_000, 1)

    response = await sandbox_client.post("/sandbox/ord/mempool", json={"indexed": True})
    assert (response.status_code, response.json()) == (200, {"indexed": True})
    try:
        assert (await get_json(sandbox_client, "/sandbox/info"))["ordIndexesMempool"] is True
        shown = await get_json(sandbox_client, f"/ord/output/{inscribed}")
        assert (shown["indexed"], shown["inscriptions"]) == (True, [inscription_id])
        for bad in ({}, {"indexed": "no"}, {"indexed": 0}):
            response = await sandbox_client.post("/sandbox/ord/mempool", json=bad)
            assert response.status_code == 400, bad
            assert response.json()["errorCode"] == "INVALID_REQUEST"
    finally:
        response = await sandbox_client.post("/sandbox/ord/mempool", json={"indexed": False})
    assert response.json() == {"indexed": False}

    await mine_blocks(sandbox_client)
    output = await get_json(sandbox_client, f"/ord/output/{inscribed}")
    assert (output["indexed"], output["inscriptions"]) == (True, [inscription_id])
