"""EsploraClient against the shapes of Blockstream's API.md and mempool.space."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from net_router import Router

from app.net.errors import BadResponse, BroadcastRejected, NoFeeEstimates, NotFound, ServerError
from app.net.esplora import BlockInfo, EsploraClient, Outspend

BASE = "http://chain.test/esplora"
ADDR = "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080"
TXID = "bc4c30829a9564c0d58e6287195622b53ced54a25711d1b86be7cd3a70ef61ed"


def client(router: Router) -> EsploraClient:
    return EsploraClient(BASE, transport=router.transport)


def stats(funded: int, spent: int) -> dict[str, int]:
    return {
        "funded_txo_count": 2,
        "funded_txo_sum": funded,
        "spent_txo_count": 1,
        "spent_txo_sum": spent,
        "tx_count": 3,
    }


async def test_balance_is_confirmed_plus_unconfirmed(router: Router) -> None:
    router.json(
        "GET",
        f"/esplora/address/{ADDR}",
        {
            "address": ADDR,
            "chain_stats": stats(150_000, 50_000),
            "mempool_stats": stats(20_000, 30_000),
        },
    )
    async with client(router) as c:
        balance = await c.address_balance(ADDR)
    assert (balance.confirmed, balance.unconfirmed, balance.total) == (100_000, -10_000, 90_000)


async def test_balance_without_sums_is_a_bad_response(router: Router) -> None:
    # Elements-based chains omit the *_txo_sum fields: no balance can be computed.
    router.json(
        "GET",
        f"/esplora/address/{ADDR}",
        {"chain_stats": {"tx_count": 1}, "mempool_stats": {"tx_count": 0}},
    )
    async with client(router) as c:
        with pytest.raises(BadResponse, match="funded_txo_sum"):
            await c.address_balance(ADDR)


async def test_utxos(router: Router) -> None:
    router.json(
        "GET",
        f"/esplora/address/{ADDR}/utxo",
        [
            {
                "txid": TXID,
                "vout": 1,
                "status": {
                    "confirmed": True,
                    "block_height": 812_345,
                    "block_hash": "00" * 32,
                    "block_time": 1_700_000_000,
                },
                "value": 483_528,
            },
            {"txid": TXID.upper(), "vout": 0, "status": {"confirmed": False}, "value": 546},
        ],
    )
    async with client(router) as c:
        first, second = await c.address_utxos(ADDR)
    assert (first.outpoint, first.value, first.confirmed, first.height) == (
        f"{TXID}:1",
        483_528,
        True,
        812_345,
    )
    assert (second.txid, second.confirmed, second.height) == (TXID, False, None)


@pytest.mark.parametrize(
    "entry",
    [
        {"txid": "zz", "vout": 0, "value": 1},
        {"txid": TXID, "vout": 0},
        {"txid": TXID, "value": 1.5},
    ],
)
async def test_malformed_utxo_is_a_bad_response(router: Router, entry: dict[str, Any]) -> None:
    router.json("GET", f"/esplora/address/{ADDR}/utxo", [entry])
    async with client(router) as c:
        with pytest.raises(BadResponse):
            await c.address_utxos(ADDR)


async def test_tx_hex_and_status(router: Router) -> None:
    router.add("GET", f"/esplora/tx/{TXID}/hex", httpx.Response(200, text="0200000001AB\n"))
    router.json(
        "GET",
        f"/esplora/tx/{TXID}/status",
        {
            "confirmed": True,
            "block_height": 101,
            "block_hash": "11" * 32,
            "block_time": 1_700_000_001,
        },
    )
    async with client(router) as c:
        assert await c.tx_hex(TXID) == "0200000001ab"
        status = await c.tx_status(TXID)
    assert (status.confirmed, status.block_height, status.block_time) == (True, 101, 1_700_000_001)


async def test_unknown_tx_is_not_found(router: Router) -> None:
    router.add("GET", f"/esplora/tx/{TXID}/hex", httpx.Response(404, text="Transaction not found"))
    async with client(router) as c:
        with pytest.raises(NotFound, match="Transaction not found"):
            await c.tx_hex(TXID)


async def test_fee_estimates_esplora_shape(router: Router) -> None:
    router.json(
        "GET",
        "/esplora/fee-estimates",
        {
            "2": 87.882,
            "3": 87.882,
            "4": 87.882,
            "5": 81.129,
            "6": 68.285,
            "10": 1.027,
            "20": 1.027,
            "25": 1.027,
            "144": 1.027,
            "504": 1.027,
            "1008": 1.027,
        },
    )
    async with client(router) as c:
        fees = await c.fee_estimates()
    assert fees.fastest == 87.882  # no 1-block target: the fastest known
    assert (fees.half_hour, fees.hour, fees.economy, fees.minimum) == (87.882, 68.285, 1.027, 1.027)
    assert fees.for_target(8) == 68.285  # the largest target not above 8 is 6


async def test_fee_estimates_fall_back_to_mempool_recommended(router: Router) -> None:
    router.json(
        "GET",
        "/esplora/v1/fees/recommended",
        {"fastestFee": 12, "halfHourFee": 10, "hourFee": 8, "economyFee": 4, "minimumFee": 2},
    )
    async with client(router) as c:
        fees = await c.fee_estimates()
    assert (fees.fastest, fees.half_hour, fees.hour, fees.economy, fees.minimum) == (
        12.0,
        10.0,
        8.0,
        4.0,
        2.0,
    )
    assert [r.url.path for r in router.requests] == [
        "/esplora/fee-estimates",
        "/esplora/v1/fees/recommended",
    ]


async def test_empty_fee_estimates_raise(router: Router) -> None:
    router.json("GET", "/esplora/fee-estimates", {})
    async with client(router) as c:
        with pytest.raises(NoFeeEstimates):
            await c.fee_estimates()


def test_fee_target_must_be_positive() -> None:
    from app.net.fee_estimates import FeeEstimates

    with pytest.raises(ValueError):
        FeeEstimates({1: 2.0}).for_target(0)


async def test_broadcast_posts_raw_hex_and_returns_txid(router: Router) -> None:
    router.add("POST", "/esplora/tx", httpx.Response(200, text=TXID))
    async with client(router) as c:
        assert await c.broadcast("0200000001abcdef") == TXID
    assert router.last.content == b"0200000001abcdef"
    assert router.last.headers["content-type"] == "text/plain"


async def test_broadcast_rejection_carries_the_node_reason(router: Router) -> None:
    router.add(
        "POST",
        "/esplora/tx",
        httpx.Response(
            400,
            text="sendrawtransaction RPC error: "
            '{"code":-26,"message":"min relay fee not met, 110 < 141"}',
        ),
    )
    async with client(router) as c:
        with pytest.raises(BroadcastRejected) as caught:
            await c.broadcast("0200")
    assert caught.value.reason == "min relay fee not met, 110 < 141"
    assert "min relay fee not met" in str(caught.value)


async def test_broadcast_plain_text_rejection(router: Router) -> None:
    router.add("POST", "/esplora/tx", httpx.Response(400, text="bad-txns-inputs-missingorspent"))
    async with client(router) as c:
        with pytest.raises(BroadcastRejected) as caught:
            await c.broadcast("0200")
    assert caught.value.reason == "bad-txns-inputs-missingorspent"


async def test_broadcast_5xx_is_a_server_error(router: Router) -> None:
    router.add("POST", "/esplora/tx", httpx.Response(503, text="unavailable"))
    async with client(router) as c:
        with pytest.raises(ServerError):
            await c.broadcast("0200")


async def test_broadcast_odd_answer_is_a_bad_response(router: Router) -> None:
    router.add("POST", "/esplora/tx", httpx.Response(200, text="ok"))
    async with client(router) as c:
        with pytest.raises(BadResponse):
            await c.broadcast("0200")


async def test_tip_height(router: Router) -> None:
    router.add("GET", "/esplora/blocks/tip/height", httpx.Response(200, text="864328"))
    async with client(router) as c:
        assert await c.tip_height() == 864_328
    router.add("GET", "/esplora/blocks/tip/height", httpx.Response(200, text="tip"))
    async with client(router) as c:
        with pytest.raises(BadResponse):
            await c.tip_height()


async def test_address_in_path_is_quoted(router: Router) -> None:
    router.json("GET", "/esplora/address/a/b/utxo", [])  # the router matches decoded paths
    async with client(router) as c:
        assert await c.address_utxos("a/b") == []
    assert router.last.url.raw_path == b"/esplora/address/a%2Fb/utxo"


async def test_json_error_bodies_give_code_and_message(router: Router) -> None:
    # The sandbox answers errors as {"errorCode", "message"}.
    router.json(
        "GET",
        f"/esplora/tx/{TXID}/status",
        {"errorCode": "NOT_FOUND", "message": f"transaction {TXID} not found"},
        status=404,
    )
    async with client(router) as c:
        with pytest.raises(NotFound) as caught:
            await c.tx_status(TXID)
    assert caught.value.error_code == "NOT_FOUND"
    assert caught.value.message == f"transaction {TXID} not found"


async def test_broadcast_rejection_in_json_envelope(router: Router) -> None:
    router.json(
        "POST",
        "/esplora/tx",
        {"errorCode": "TX_REJECTED", "message": "bad-txns-inputs-missingorspent"},
        status=400,
    )
    async with client(router) as c:
        with pytest.raises(BroadcastRejected) as caught:
            await c.broadcast("0200")
    assert caught.value.reason == "bad-txns-inputs-missingorspent"


async def test_html_error_page_is_summarised_by_status(router: Router) -> None:
    router.add(
        "GET",
        "/esplora/blocks/tip/height",
        httpx.Response(502, text="<html>oops</html>", headers={"content-type": "text/html"}),
    )
    async with client(router) as c:
        with pytest.raises(ServerError) as caught:
            await c.tip_height()
    assert caught.value.message == "Bad Gateway"


async def test_tip_hash(router: Router) -> None:
    router.add("GET", "/esplora/blocks/tip/hash", httpx.Response(200, text="AB" * 32))
    async with client(router) as c:
        assert await c.tip_hash() == "ab" * 32


# --- outspend, block, tip ----------------------------------------------------------------------
# Shapes of Blockstream's esplora API.md ("GET /tx/:txid/outspend/:vout": `spent`, optional
# `txid`, `vin`, `status`; "Block format") as electrs' src/rest.rs serialises them
# (`SpendingValue` leaves the optional fields out when unspent; `BlockValue` in this key order,
# `previousblockhash` null for the genesis block; mempool.space's fork sends the same keys with
# a float `difficulty`).
SPENDER = "5a6b1e6e3f5d0a1c3e4f6a7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f70819"
OUTSPEND_CONFIRMED = {
    "spent": True,
    "txid": SPENDER,
    "vin": 3,
    "status": {
        "confirmed": True,
        "block_height": 850_123,
        "block_hash": "00000000000000000001a1b2c3d4e5f60718293a4b5c6d7e8f9012345678abcd",
        "block_time": 1_719_000_000,
    },
}
OUTSPEND_MEMPOOL = {"spent": True, "txid": SPENDER, "vin": 0, "status": {"confirmed": False}}
GENESIS = "000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f"
BLOCK_1 = "00000000839a8e6886ab5951d76f411475428afc90947ee320161bbf18eb6048"
# Mainnet block 1 (its mediantime is the median of its own and the genesis block's times,
# i.e. the upper one, as Core and electrs compute it).
BLOCK_1_JSON = {
    "id": BLOCK_1,
    "height": 1,
    "version": 1,
    "timestamp": 1231469665,
    "tx_count": 1,
    "size": 215,
    "weight": 860,
    "merkle_root": "0e3e2357e806b6cdb1f70b54c3a3a17b6714ee1f0e68bebb44a74b1efd512098",
    "previousblockhash": GENESIS,
    "mediantime": 1231469665,
    "nonce": 2573394689,
    "bits": 486604799,
    "difficulty": 1,
}
GENESIS_JSON = {
    **BLOCK_1_JSON,
    "id": GENESIS,
    "height": 0,
    "timestamp": 1231006505,
    "size": 285,
    "weight": 1140,
    "merkle_root": "4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b",
    "previousblockhash": None,
    "mediantime": 1231006505,
    "nonce": 2083236893,
}


async def test_outspend_unspent_confirmed_and_mempool(router: Router) -> None:
    router.json("GET", f"/esplora/tx/{TXID}/outspend/0", {"spent": False})
    router.json("GET", f"/esplora/tx/{TXID}/outspend/1", OUTSPEND_CONFIRMED)
    router.json(
        "GET", f"/esplora/tx/{TXID}/outspend/2", {**OUTSPEND_MEMPOOL, "txid": SPENDER.upper()}
    )
    async with client(router) as c:
        assert await c.outspend(TXID, 0) == Outspend(spent=False)
        assert await c.outspend(TXID, 1) == Outspend(True, SPENDER, 3, confirmed=True)
        assert await c.outspend(TXID, 2) == Outspend(True, SPENDER, 0, confirmed=False)
    assert router.last.url.path == f"/esplora/tx/{TXID}/outspend/2"


async def test_outspend_without_status_leaves_confirmed_unknown(router: Router) -> None:
    # API.md calls `status` optional; electrs always sends it with a spend.
    body = {"spent": True, "txid": SPENDER, "vin": 1}
    router.json("GET", f"/esplora/tx/{TXID}/outspend/0", body)
    async with client(router) as c:
        assert await c.outspend(TXID, 0) == Outspend(True, SPENDER, 1, confirmed=None)


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"spent": "false"},
        {"spent": 0},
        {"spent": True},
        {**OUTSPEND_CONFIRMED, "txid": "ab" * 31},
        {**OUTSPEND_CONFIRMED, "vin": None},
        {**OUTSPEND_CONFIRMED, "vin": "3"},
        {**OUTSPEND_CONFIRMED, "vin": -1},
        {**OUTSPEND_CONFIRMED, "vin": True},
        {**OUTSPEND_CONFIRMED, "status": {"block_height": 1}},
        {**OUTSPEND_CONFIRMED, "status": "confirmed"},
        [OUTSPEND_CONFIRMED],
    ],
)
async def test_malformed_outspend_is_a_bad_response(router: Router, body: Any) -> None:
    router.json("GET", f"/esplora/tx/{TXID}/outspend/0", body)
    async with client(router) as c:
        with pytest.raises(BadResponse):
            await c.outspend(TXID, 0)


@pytest.mark.parametrize("vout", [-1, 2**32, True])
async def test_outspend_refuses_an_impossible_vout(router: Router, vout: int) -> None:
    async with client(router) as c:
        with pytest.raises(ValueError, match="vout"):
            await c.outspend(TXID, vout)
    assert router.requests == []


async def test_block_and_genesis(router: Router) -> None:
    router.json("GET", f"/esplora/block/{BLOCK_1}", BLOCK_1_JSON)
    router.json("GET", f"/esplora/block/{GENESIS}", GENESIS_JSON)
    async with client(router) as c:
        assert await c.block(BLOCK_1) == BlockInfo(BLOCK_1, 1, 1231469665, 1231469665)
        genesis = await c.block(GENESIS)
    assert (genesis.height, genesis.timestamp, genesis.median_time) == (0, 1231006505, 1231006505)


async def test_tip_reads_the_tip_hash_then_its_block(router: Router) -> None:
    router.add("GET", "/esplora/blocks/tip/hash", httpx.Response(200, text=BLOCK_1.upper()))
    router.json("GET", f"/esplora/block/{BLOCK_1}", BLOCK_1_JSON)
    async with client(router) as c:
        tip = await c.tip()
    assert tip == BlockInfo(BLOCK_1, 1, 1231469665, 1231469665)
    assert [r.url.path for r in router.requests] == [
        "/esplora/blocks/tip/hash",
        f"/esplora/block/{BLOCK_1}",
    ]


@pytest.mark.parametrize(
    "body",
    [
        {key: value for key, value in BLOCK_1_JSON.items() if key != "mediantime"},
        {**BLOCK_1_JSON, "mediantime": "1231469665"},
        {**BLOCK_1_JSON, "mediantime": 1231469665.5},
        {**BLOCK_1_JSON, "timestamp": None},
        {**BLOCK_1_JSON, "height": -1},
        {**BLOCK_1_JSON, "id": "zz" * 32},
        {**BLOCK_1_JSON, "id": GENESIS},  # another block than the one asked for
        [BLOCK_1_JSON],
    ],
)
async def test_malformed_block_is_a_bad_response(router: Router, body: Any) -> None:
    router.json("GET", f"/esplora/block/{BLOCK_1}", body)
    async with client(router) as c:
        with pytest.raises(BadResponse):
            await c.block(BLOCK_1)


async def test_unknown_block_is_not_found(router: Router) -> None:
    # electrs: 404 with the plain-text body "Block not found".
    router.add("GET", f"/esplora/block/{BLOCK_1}", httpx.Response(404, text="Block not found"))
    async with client(router) as c:
        with pytest.raises(NotFound, match="Block not found"):
            await c.block(BLOCK_1)
