"""EsploraClient against Esplora's and mempool.space's documented bodies (sources named in
tests/contract/samples/esplora_api.py): address stats and coins, transaction status, outspends,
blocks, the tip, both fee-estimate shapes, raw transactions and broadcasting."""

from __future__ import annotations

import hashlib

import httpx
import pytest

from app.net.errors import BroadcastRejected
from app.net.esplora import BlockInfo, EsploraClient, Outspend, Utxo
from tests.contract.samples import esplora_api as e
from tests.net.net_router import Router

BASE = "http://esplora.test/api"
RAW_TXID = hashlib.sha256(hashlib.sha256(bytes.fromhex(e.RAW_TX)).digest()).digest()[::-1].hex()


def client(router: Router) -> EsploraClient:
    return EsploraClient(BASE, transport=router.transport)


def text(body: str, status: int = 200) -> httpx.Response:
    return httpx.Response(status, text=body)  # text/plain, as electrs' http_message sends


async def test_address_balance(router: Router) -> None:
    router.json("GET", f"/api/address/{e.ADDRESS}", e.ADDRESS_STATS)
    async with client(router) as c:
        balance = await c.address_balance(e.ADDRESS)
    assert (balance.confirmed, balance.unconfirmed, balance.total) == (84313783821, 0, 84313783821)


async def test_address_utxos_confirmed_and_in_the_mempool(router: Router) -> None:
    router.json("GET", f"/api/address/{e.ADDRESS}/utxo", [e.UTXO_CONFIRMED, e.UTXO_UNCONFIRMED])
    async with client(router) as c:
        utxos = await c.address_utxos(e.ADDRESS)
    assert utxos == [
        Utxo(e.UTXO_CONFIRMED["txid"], 0, 644951084, True, 698642),
        Utxo(e.UTXO_UNCONFIRMED["txid"], 1, 1973787, False, None),
    ]


async def test_tx_status_confirmed(router: Router) -> None:
    router.json("GET", f"/api/tx/{e.STATUS_TXID}/status", e.TX_STATUS_CONFIRMED)
    async with client(router) as c:
        status = await c.tx_status(e.STATUS_TXID)
    assert (status.confirmed, status.block_height, status.block_hash, status.block_time) == (
        True,
        363348,
        e.TX_STATUS_CONFIRMED["block_hash"],
        1435754650,
    )


async def test_tx_status_in_the_mempool(router: Router) -> None:
    router.json("GET", f"/api/tx/{e.STATUS_TXID}/status", e.TX_STATUS_UNCONFIRMED)
    async with client(router) as c:
        status = await c.tx_status(e.STATUS_TXID)
    assert (status.confirmed, status.block_height, status.block_hash, status.block_time) == (
        False,
        None,
        None,
        None,
    )


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (e.OUTSPEND_SPENT, Outspend(True, e.OUTSPEND_SPENT["txid"], 1, True)),
        (e.OUTSPEND_UNSPENT, Outspend(False)),
    ],
    ids=["spent", "unspent"],
)
async def test_outspend(router: Router, body: dict[str, object], expected: Outspend) -> None:
    router.json("GET", f"/api/tx/{e.STATUS_TXID}/outspend/3", body)
    async with client(router) as c:
        assert await c.outspend(e.STATUS_TXID, 3) == expected


async def test_block(router: Router) -> None:
    router.json("GET", f"/api/block/{e.BLOCK_HASH}", e.BLOCK)
    async with client(router) as c:
        block = await c.block(e.BLOCK_HASH)
    assert block == BlockInfo(e.BLOCK_HASH, 363366, 1435766771, 1435763435)


async def test_tip_height_and_hash_are_text(router: Router) -> None:
    router.add("GET", "/api/blocks/tip/height", text(e.TIP_HEIGHT_TEXT))
    router.add("GET", "/api/blocks/tip/hash", text(e.TIP_HASH_TEXT))
    async with client(router) as c:
        assert await c.tip_height() == 698767
        assert await c.tip_hash() == e.TIP_HASH_TEXT


async def test_fee_estimates_by_target(router: Router) -> None:
    router.json("GET", "/api/fee-estimates", e.FEE_ESTIMATES)
    async with client(router) as c:
        fees = await c.fee_estimates()
    assert (fees.fastest, fees.half_hour, fees.hour, fees.economy, fees.minimum) == (
        87.882,
        87.882,
        68.285,
        1.027,
        1.027,
    )
    assert (fees.for_target(5), fees.for_target(10), fees.for_target(1000)) == (
        81.129,
        68.285,
        1.027,
    )


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (e.RECOMMENDED_FEES, (1.0, 1.0, 1.0, 1.0, 1.0)),
        (e.PRECISE_FEES, (2.023, 1.094, 0.502, 0.2, 0.1)),
    ],
    ids=["recommended", "precise-values"],
)
async def test_fee_estimates_fall_back_to_mempool_recommended(
    router: Router, body: dict[str, float], expected: tuple[float, ...]
) -> None:
    # /fee-estimates is unrouted (404): the client asks mempool.space's /v1/fees/recommended.
    router.json("GET", "/api/v1/fees/recommended", body)
    async with client(router) as c:
        fees = await c.fee_estimates()
    assert [r.url.path for r in router.requests] == [
        "/api/fee-estimates",
        "/api/v1/fees/recommended",
    ]
    assert (fees.fastest, fees.half_hour, fees.hour, fees.economy, fees.minimum) == expected


async def test_tx_hex(router: Router) -> None:
    router.add("GET", f"/api/tx/{RAW_TXID}/hex", text(e.RAW_TX))
    async with client(router) as c:
        assert await c.tx_hex(RAW_TXID) == e.RAW_TX


async def test_broadcast_returns_the_txid(router: Router) -> None:
    router.add("POST", "/api/tx", text(RAW_TXID))
    async with client(router) as c:
        assert await c.broadcast(e.RAW_TX) == RAW_TXID
    assert router.last.content.decode() == e.RAW_TX
    assert router.last.headers["content-type"] == "text/plain"


async def test_broadcast_refusal_carries_the_nodes_reason(router: Router) -> None:
    router.add("POST", "/api/tx", text(e.BROADCAST_REJECTED_TEXT, status=400))
    async with client(router) as c:
        with pytest.raises(BroadcastRejected) as caught:
            await c.broadcast(e.RAW_TX)
    assert (caught.value.status, caught.value.reason) == (400, "min relay fee not met, 110 < 141")
