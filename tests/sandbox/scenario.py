"""HTTP helpers for tests that drive a sandbox (in-process or a real process) as a client."""

from __future__ import annotations

from typing import Any

import httpx

from tests.sandbox.txbuild import Coin, P2wpkhKey, SignedTx


async def faucet_coin(
    client: httpx.AsyncClient, key: P2wpkhKey, sats: int, *, mine: bool = True
) -> Coin:
    """Fund `key` through `POST /sandbox/faucet`, optionally confirm it; returns the coin."""
    response = await client.post("/sandbox/faucet", json={"address": key.address, "sats": sats})
    assert response.status_code == 200, response.text
    body = response.json()
    if mine:
        await mine_blocks(client, 1)
    return Coin(txid=body["txid"], vout=body["vout"], value=sats, key=key)


async def mine_blocks(client: httpx.AsyncClient, blocks: int = 1) -> int:
    response = await client.post("/sandbox/mine", json={"blocks": blocks})
    assert response.status_code == 200, response.text
    height: int = response.json()["height"]
    return height


async def broadcast(client: httpx.AsyncClient, tx: SignedTx) -> httpx.Response:
    return await client.post("/esplora/tx", content=tx.hex, headers={"content-type": "text/plain"})


async def get_json(client: httpx.AsyncClient, path: str) -> Any:
    response = await client.get(path)
    assert response.status_code == 200, f"GET {path}: {response.status_code} {response.text}"
    return response.json()
