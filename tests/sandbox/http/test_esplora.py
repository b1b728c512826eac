"""`/esplora`: happy paths with real transactions, Esplora's JSON shapes, and error cases."""

from __future__ import annotations

import math
from typing import Any

import httpx

from tests.sandbox.http import shapes
from tests.sandbox.scenario import broadcast, faucet_coin, get_json, mine_blocks
from tests.sandbox.txbuild import Coin, P2trKey, P2wpkhKey, spend, split

UNKNOWN_TXID = "ab" * 32


async def test_faucet_output_shows_in_utxos_and_stats_then_confirms(
    sandbox_client: httpx.AsyncClient,
) -> None:
    key = P2wpkhKey.from_label("esplora-faucet")
    coin = await faucet_coin(sandbox_client, key, 70_000, mine=False)

    utxos = await get_json(sandbox_client, f"/esplora/address/{key.address}/utxo")
    assert utxos == [
        {"txid": coin.txid, "vout": coin.vout, "value": 70_000, "status": {"confirmed": False}}
    ]
    stats = await get_json(sandbox_client, f"/esplora/address/{key.address}")
    assert set(stats) == shapes.ESPLORA_ADDRESS
    assert set(stats["chain_stats"]) == set(stats["mempool_stats"]) == shapes.ESPLORA_ADDRESS_STATS
    assert stats["address"] == key.address
    assert stats["mempool_stats"]["funded_txo_sum"] == 70_000
    assert stats["mempool_stats"]["funded_txo_count"] == stats["mempool_stats"]["tx_count"] == 1
    assert stats["chain_stats"]["funded_txo_sum"] == 0

    height = await mine_blocks(sandbox_client)
    tip_hash = (await sandbox_client.get("/esplora/blocks/tip/hash")).text
    [utxo] = await get_json(sandbox_client, f"/esplora/address/{key.address}/utxo")
    assert set(utxo) == shapes.ESPLORA_UTXO
    assert set(utxo["status"]) == shapes.ESPLORA_STATUS_CONFIRMED
    assert utxo["status"]["confirmed"] is True
    assert (utxo["status"]["block_height"], utxo["status"]["block_hash"]) == (height, tip_hash)
    assert isinstance(utxo["status"]["block_time"], int)
    stats = await get_json(sandbox_client, f"/esplora/address/{key.address}")
    assert stats["chain_stats"]["funded_txo_sum"] == 70_000
    assert stats["mempool_stats"]["funded_txo_sum"] == 0


async def test_broadcast_a_spend_then_read_it_back(sandbox_client: httpx.AsyncClient) -> None:
    sender, receiver = P2wpkhKey.from_label("esplora-sender"), P2wpkhKey.from_label("esplora-recv")
    coin = await faucet_coin(sandbox_client, sender, 100_000)
    tx = split(coin, receiver, sender, amount=30_000, fee=500)

    response = await broadcast(sandbox_client, tx)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    assert response.text == tx.txid

    body = await get_json(sandbox_client, f"/esplora/tx/{tx.txid}")
    assert set(body) == shapes.ESPLORA_TX
    assert (body["txid"], body["version"], body["locktime"], body["fee"]) == (tx.txid, 2, 0, 500)
    assert body["size"] == len(tx.raw)
    assert (body["weight"] + 3) // 4 == tx.vsize
    assert body["status"] == {"confirmed": False}
    [vin] = body["vin"]
    assert (
        shapes.ESPLORA_VIN_REQUIRED
        <= set(vin)
        <= shapes.ESPLORA_VIN_REQUIRED | shapes.ESPLORA_VIN_OPTIONAL
    )
    assert (vin["txid"], vin["vout"], vin["is_coinbase"]) == (coin.txid, coin.vout, False)
    assert vin["sequence"] == 0xFFFFFFFD
    assert vin["scriptsig"] == ""
    assert len(vin["witness"]) == 2
    assert set(vin["prevout"]) == shapes.ESPLORA_VOUT
    assert vin["prevout"]["value"] == 100_000
    assert vin["prevout"]["scriptpubkey_address"] == sender.address
    assert vin["prevout"]["scriptpubkey_type"] == "v0_p2wpkh"
    assert [set(out) for out in body["vout"]] == [shapes.ESPLORA_VOUT] * 2
    assert [(o["scriptpubkey_address"], o["value"]) for o in body["vout"]] == [
        (receiver.address, 30_000),
        (sender.address, 69_500),
    ]
    assert body["vout"][0]["scriptpubkey"] == receiver.script_pubkey.data.hex()

    hex_response = await sandbox_client.get(f"/esplora/tx/{tx.txid}/hex")
    assert hex_response.headers["content-type"].startswith("text/plain")
    assert hex_response.text == tx.hex
    assert await get_json(sandbox_client, f"/esplora/tx/{tx.txid}/status") == {"confirmed": False}

    sender_utxos = await get_json(sandbox_client, f"/esplora/address/{sender.address}/utxo")
    assert [(u["txid"], u["vout"], u["value"]) for u in sender_utxos] == [(tx.txid, 1, 69_500)]
    sender_stats = await get_json(sandbox_client, f"/esplora/address/{sender.address}")
    assert sender_stats["mempool_stats"]["spent_txo_sum"] == 100_000

    height = await mine_blocks(sandbox_client)
    status = await get_json(sandbox_client, f"/esplora/tx/{tx.txid}/status")
    assert set(status) == shapes.ESPLORA_STATUS_CONFIRMED
    assert (status["confirmed"], status["block_height"]) == (True, height)
    assert (await get_json(sandbox_client, f"/esplora/tx/{tx.txid}"))["status"] == status


async def test_uppercase_txid_is_found(sandbox_client: httpx.AsyncClient) -> None:
    key = P2wpkhKey.from_label("esplora-upper")
    coin = await faucet_coin(sandbox_client, key, 20_000, mine=False)
    body = await get_json(sandbox_client, f"/esplora/tx/{coin.txid.upper()}")
    assert body["txid"] == coin.txid


async def test_tip_height_and_hash_are_plain_text(sandbox_client: httpx.AsyncClient) -> None:
    before = await sandbox_client.get("/esplora/blocks/tip/height")
    assert before.headers["content-type"].startswith("text/plain")
    height = int(before.text)
    assert await mine_blocks(sandbox_client, 2) == height + 2
    assert int((await sandbox_client.get("/esplora/blocks/tip/height")).text) == height + 2
    tip_hash = (await sandbox_client.get("/esplora/blocks/tip/hash")).text
    assert len(tip_hash) == 64 and int(tip_hash, 16) >= 0


async def test_fee_estimates_cover_esplora_targets(sandbox_client: httpx.AsyncClient) -> None:
    estimates = await get_json(sandbox_client, "/esplora/fee-estimates")
    assert set(estimates) >= shapes.ESPLORA_FEE_TARGETS
    assert all(isinstance(rate, float) and rate >= 1.0 for rate in estimates.values())


async def test_recommended_fees_in_mempool_spaces_shape(sandbox_client: httpx.AsyncClient) -> None:
    fees = await get_json(sandbox_client, "/esplora/v1/fees/recommended")
    assert set(fees) == shapes.MEMPOOL_RECOMMENDED_FEES
    assert all(isinstance(rate, int) and rate >= 1 for rate in fees.values())
    order = ["fastestFee", "halfHourFee", "hourFee", "economyFee", "minimumFee"]
    assert [fees[k] for k in order] == sorted((fees[k] for k in order), reverse=True)
    estimates = await get_json(sandbox_client, "/esplora/fee-estimates")
    assert fees["fastestFee"] == math.ceil(estimates["1"])
    assert fees["hourFee"] == math.ceil(estimates["6"])


async def test_unused_address_has_zero_stats_and_no_utxos(
    sandbox_client: httpx.AsyncClient,
) -> None:
    address = P2wpkhKey.from_label("esplora-never-used").address
    assert await get_json(sandbox_client, f"/esplora/address/{address}/utxo") == []
    stats = await get_json(sandbox_client, f"/esplora/address/{address}")
    assert (
        stats["chain_stats"]
        == stats["mempool_stats"]
        == dict.fromkeys(shapes.ESPLORA_ADDRESS_STATS, 0)
    )


async def test_unknown_txid_is_404_on_every_tx_route(sandbox_client: httpx.AsyncClient) -> None:
    for suffix in ("", "/hex", "/status"):
        response = await sandbox_client.get(f"/esplora/tx/{UNKNOWN_TXID}{suffix}")
        assert response.status_code == 404
        assert response.json() == {
            "errorCode": "NOT_FOUND",
            "message": f"transaction {UNKNOWN_TXID} not found",
        }


async def test_malformed_txid_is_400_naming_the_parameter(
    sandbox_client: httpx.AsyncClient,
) -> None:
    for bad in ("xyz", "ab" * 31, "zz" * 32):
        response = await sandbox_client.get(f"/esplora/tx/{bad}")
        assert response.status_code == 400
        assert response.json()["errorCode"] == "INVALID_REQUEST"
        assert "path.txid" in response.json()["message"]


async def test_bad_addresses_are_400(sandbox_client: httpx.AsyncClient) -> None:
    mainnet = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"
    for bad in ("not-an-address", mainnet, "bcrt1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq"):
        for path in (f"/esplora/address/{bad}", f"/esplora/address/{bad}/utxo"):
            response = await sandbox_client.get(path)
            assert response.status_code == 400, (path, response.text)
            assert set(response.json()) == {"errorCode", "message"}


async def test_broadcast_rejects_bodies_that_are_not_a_transaction(
    sandbox_client: httpx.AsyncClient,
) -> None:
    for body in (b"", b"   ", b"not hex", b"abc", "é".encode(), b"00" * 10):
        response = await sandbox_client.post("/esplora/tx", content=body)
        assert response.status_code == 400, (body, response.text)
        assert set(response.json()) == {"errorCode", "message"}


async def test_broadcast_rejections_name_the_reason(sandbox_client: httpx.AsyncClient) -> None:
    owner, thief = P2wpkhKey.from_label("esplora-owner"), P2wpkhKey.from_label("esplora-thief")
    coin = await faucet_coin(sandbox_client, owner, 50_000)
    first = split(coin, thief, owner, amount=10_000, fee=400)
    assert (await broadcast(sandbox_client, first)).status_code == 200

    double_spend = split(coin, thief, owner, amount=20_000, fee=400)
    response = await broadcast(sandbox_client, double_spend)
    assert response.status_code == 400
    assert response.json()["errorCode"] not in ("INVALID_REQUEST", "INTERNAL_ERROR")

    # The thief signs for the owner's coin: Bitcoin Core's interpreter refuses input 0.
    stolen = type(coin)(txid=first.txid, vout=1, value=coin.value - 10_400, key=thief)
    forged = spend([stolen], [(thief.address, stolen.value - 500)])
    response = await broadcast(sandbox_client, forged)
    assert response.status_code == 400
    assert "0" in response.json()["message"]


async def test_broadcast_a_taproot_key_path_spend(sandbox_client: httpx.AsyncClient) -> None:
    sender, receiver = (
        P2trKey.from_label("esplora-tr-sender"),
        P2trKey.from_label("esplora-tr-recv"),
    )
    coin = await faucet_coin(sandbox_client, sender, 60_000)
    tx = split(coin, receiver, sender, amount=20_000, fee=400)
    response = await broadcast(sandbox_client, tx)
    assert response.status_code == 200, response.text
    body = await get_json(sandbox_client, f"/esplora/tx/{tx.txid}")
    [vin] = body["vin"]
    assert vin["prevout"]["scriptpubkey_type"] == "v1_p2tr"
    assert [len(item) for item in vin["witness"]] == [128]  # one 64-byte Schnorr signature
    assert body["vout"][0]["scriptpubkey_address"] == receiver.address
    assert (body["weight"] + 3) // 4 == tx.vsize


async def _outspend(client: httpx.AsyncClient, coin: Coin) -> Any:
    return await get_json(client, f"/esplora/tx/{coin.txid}/outspend/{coin.vout}")


async def test_outspend_follows_a_spend_from_mempool_to_block(
    sandbox_client: httpx.AsyncClient,
) -> None:
    owner, receiver = P2wpkhKey.from_label("outspend-owner"), P2wpkhKey.from_label("outspend-to")
    first = await faucet_coin(sandbox_client, owner, 40_000)
    second = await faucet_coin(sandbox_client, owner, 50_000)
    assert await _outspend(sandbox_client, second) == {"spent": False}

    tx = spend([first, second], [(receiver.address, 89_000)])
    assert (await broadcast(sandbox_client, tx)).status_code == 200
    # A mempool spend counts, as in Esplora; `vin` is the spending input's index.
    assert await _outspend(sandbox_client, second) == {
        "spent": True,
        "txid": tx.txid,
        "vin": 1,
        "status": {"confirmed": False},
    }
    assert (await _outspend(sandbox_client, first))["vin"] == 0

    height = await mine_blocks(sandbox_client)
    tip_hash = (await sandbox_client.get("/esplora/blocks/tip/hash")).text
    spent = await _outspend(sandbox_client, second)
    assert set(spent) == shapes.ESPLORA_OUTSPEND_SPENT
    assert (spent["spent"], spent["txid"], spent["vin"]) == (True, tx.txid, 1)
    assert set(spent["status"]) == shapes.ESPLORA_STATUS_CONFIRMED
    assert spent["status"] == await get_json(sandbox_client, f"/esplora/tx/{tx.txid}/status")
    assert (spent["status"]["block_height"], spent["status"]["block_hash"]) == (height, tip_hash)
    # The new output is unspent; the uppercase txid finds the same output.
    assert await get_json(sandbox_client, f"/esplora/tx/{tx.txid}/outspend/0") == {"spent": False}
    upper = f"/esplora/tx/{second.txid.upper()}/outspend/{second.vout}"
    assert await get_json(sandbox_client, upper) == spent


async def test_outspend_of_an_unknown_output_is_unspent_like_esplora(
    sandbox_client: httpx.AsyncClient,
) -> None:
    """electrs (Blockstream's and mempool.space's `rest.rs`) only looks the spend up: an
    unknown transaction or a vout past its outputs answers `{"spent": false}`, not 404."""
    coin = await faucet_coin(sandbox_client, P2wpkhKey.from_label("outspend-range"), 10_000)
    for path in (f"{UNKNOWN_TXID}/outspend/0", f"{coin.txid}/outspend/{coin.vout + 50}"):
        assert await get_json(sandbox_client, f"/esplora/tx/{path}") == {"spent": False}


async def test_outspend_with_a_bad_vout_or_txid_is_400(sandbox_client: httpx.AsyncClient) -> None:
    for path, parameter in (
        (f"{UNKNOWN_TXID}/outspend/-1", "path.vout"),
        (f"{UNKNOWN_TXID}/outspend/4294967296", "path.vout"),
        (f"{UNKNOWN_TXID}/outspend/one", "path.vout"),
        ("xyz/outspend/0", "path.txid"),
    ):
        response = await sandbox_client.get(f"/esplora/tx/{path}")
        assert response.status_code == 400, path
        assert response.json()["errorCode"] == "INVALID_REQUEST"
        assert parameter in response.json()["message"]
