"""The app's Esplora client (`app.net.esplora`) against the sandbox's `/esplora`: the outspend,
block and tip answers it parses are the ones served."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from app.net.errors import NotFound
from app.net.esplora import EsploraClient, Outspend
from tests.sandbox.conftest import ASGI_BASE_URL
from tests.sandbox.scenario import broadcast, faucet_coin, get_json, mine_blocks
from tests.sandbox.txbuild import P2wpkhKey, split


@pytest.fixture
async def esplora(sandbox_app: FastAPI) -> AsyncIterator[EsploraClient]:
    transport = httpx.ASGITransport(app=sandbox_app, raise_app_exceptions=False)
    async with EsploraClient(f"{ASGI_BASE_URL}/esplora", transport=transport) as client:
        yield client


async def test_outspend_through_the_apps_client(
    esplora: EsploraClient, sandbox_client: httpx.AsyncClient
) -> None:
    owner = P2wpkhKey.from_label("client-outspend")
    coin = await faucet_coin(sandbox_client, owner, 30_000)
    assert await esplora.outspend(coin.txid, coin.vout) == Outspend(spent=False)
    tx = split(coin, P2wpkhKey.from_label("client-outspend-to"), owner, amount=10_000, fee=300)
    assert (await broadcast(sandbox_client, tx)).status_code == 200
    assert await esplora.outspend(coin.txid, coin.vout) == Outspend(True, tx.txid, 0, False)
    await mine_blocks(sandbox_client)
    assert await esplora.outspend(coin.txid, coin.vout) == Outspend(True, tx.txid, 0, True)
    assert await esplora.outspend("ab" * 32, 0) == Outspend(spent=False)  # as Esplora answers


async def test_tip_and_block_through_the_apps_client(
    esplora: EsploraClient, sandbox_client: httpx.AsyncClient
) -> None:
    height = await mine_blocks(sandbox_client)
    tip = await esplora.tip()
    served = await get_json(sandbox_client, f"/esplora/block/{tip.hash}")
    assert (tip.height, tip.hash) == (height, await esplora.tip_hash())
    assert (tip.timestamp, tip.median_time) == (served["timestamp"], served["mediantime"])
    assert tip.median_time <= tip.timestamp
    parent = await esplora.block(served["previousblockhash"])
    assert parent.height == height - 1
    with pytest.raises(NotFound):
        await esplora.block("cd" * 32)
