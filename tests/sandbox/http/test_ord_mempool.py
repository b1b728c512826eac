"""`POST /sandbox/ord/mempool`: `/ord/output` answers like real ord, which indexes blocks only,
for outputs of mempool transactions; the default describes them at once."""

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


async def test_ord_can_answer_like_real_ord_for_mempool_outputs(
    sandbox_client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    """`POST /sandbox/ord/mempool {"indexed": false}`: an output of a mempool transaction is
    `indexed: false` with no inscriptions or runes (what real ord says before the block), a
    confirmed one is unchanged, a block makes the fresh one indexed; the default describes
    mempool outputs at once, and the market keeps reading the truth."""
    key = P2wpkhKey.from_label("ord-mempool-mode")
    confirmed = await faucet_coin(sandbox_client, key, 30_000)
    fresh = await faucet_coin(sandbox_client, key, 20_000, mine=False)
    assert (await get_json(sandbox_client, f"/ord/output/{fresh.outpoint}"))["indexed"] is True
    assert (await get_json(sandbox_client, "/sandbox/info"))["ordIndexesMempool"] is True

    response = await sandbox_client.post("/sandbox/ord/mempool", json={"indexed": False})
    assert (response.status_code, response.json()) == (200, {"indexed": False})
    try:
        inscribed = await inscribe(sandbox_client, key)  # unconfirmed
        inscription_id = f"{inscribed.split(':')[0]}i0"
        assert (await get_json(sandbox_client, "/sandbox/info"))["ordIndexesMempool"] is False
        output = await get_json(sandbox_client, f"/ord/output/{fresh.outpoint}")
        assert set(output) == shapes.ORD_OUTPUT
        assert (output["indexed"], output["inscriptions"], output["runes"]) == (False, [], {})
        assert (output["value"], output["address"], output["spent"]) == (20_000, key.address, False)
        assert output["sat_ranges"] is None
        hidden = await get_json(sandbox_client, f"/ord/output/{inscribed}")
        assert (hidden["indexed"], hidden["inscriptions"]) == (False, [])
        truth = sandbox_node.ord_output(inscribed)
        assert truth is not None and truth["inscriptions"] == [inscription_id]
        kept = await get_json(sandbox_client, f"/ord/output/{confirmed.outpoint}")
        assert (kept["indexed"], kept["value"]) == (True, 30_000)

        await mine_blocks(sandbox_client)
        output = await get_json(sandbox_client, f"/ord/output/{inscribed}")
        assert (output["indexed"], output["inscriptions"]) == (True, [inscription_id])
        for bad in ({}, {"indexed": "no"}, {"indexed": 0}):
            response = await sandbox_client.post("/sandbox/ord/mempool", json=bad)
            assert response.status_code == 400, bad
            assert response.json()["errorCode"] == "INVALID_REQUEST"
    finally:
        response = await sandbox_client.post("/sandbox/ord/mempool", json={"indexed": True})
    assert response.json() == {"indexed": True}
    again = await faucet_coin(sandbox_client, key, 10_000, mine=False)
    assert (await get_json(sandbox_client, f"/ord/output/{again.outpoint}"))["indexed"] is True
