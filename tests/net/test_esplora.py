"""EsploraClient against the shapes of Blockstream's API.md and mempool.space."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from net_router import Router

from app.net.errors import BadResponse, BroadcastRejected, NoFeeEstimates, NotFound, ServerError
from app.net.esplora import EsploraClient

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
