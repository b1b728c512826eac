"""`/ord`: outputs, inscriptions and addresses in ord's JSON shapes, following real spends."""

from __future__ import annotations

import secrets
import string

import httpx

from tests.sandbox.http import shapes
from tests.sandbox.scenario import broadcast, faucet_coin, get_json, mine_blocks
from tests.sandbox.txbuild import Coin, P2wpkhKey, spend

UNKNOWN_TXID = "cd" * 32


async def inscribe(client: httpx.AsyncClient, key: P2wpkhKey, postage: int = 10_000) -> Coin:
    """A new inscription on an output of `key`; returns that output as a coin (id: txid + i0)."""
    response = await client.post(
        "/sandbox/inscriptions", json={"address": key.address, "postage": postage}
    )
    assert response.status_code == 201, response.text
    txid, vout = response.json()["outpoint"].split(":")
    assert response.json()["inscriptionId"] == f"{txid}i0"
    return Coin(txid=txid, vout=int(vout), value=postage, key=key)


async def test_plain_output_shape_and_spent_flag(sandbox_client: httpx.AsyncClient) -> None:
    key = P2wpkhKey.from_label("ord-plain")
    coin = await faucet_coin(sandbox_client, key, 40_000)
    output = await get_json(sandbox_client, f"/ord/output/{coin.outpoint}")
    assert set(output) == shapes.ORD_OUTPUT
    assert output["address"] == key.address
    assert (output["value"], output["spent"], output["indexed"]) == (40_000, False, True)
    assert (output["inscriptions"], output["runes"]) == ([], {})
    assert output["transaction"] == coin.txid
    assert output["outpoint"] == coin.outpoint

    spending = spend([coin], [(key.address, 39_000)])
    assert (await broadcast(sandbox_client, spending)).status_code == 200
    # Spent in the mempool: still in ord's index (the last block's UTXO set), spent as
    # Bitcoin Core's gettxout with the mempool says.
    output = await get_json(sandbox_client, f"/ord/output/{coin.outpoint}")
    assert (output["spent"], output["indexed"]) == (True, True)
    await mine_blocks(sandbox_client)
    output = await get_json(sandbox_client, f"/ord/output/{coin.outpoint}")
    assert (output["spent"], output["indexed"]) == (True, False)  # ord drops spent outputs


async def test_inscription_shape_and_where_it_sits(sandbox_client: httpx.AsyncClient) -> None:
    key = P2wpkhKey.from_label("ord-inscription")
    coin = await inscribe(sandbox_client, key, postage=12_000)
    inscription_id = f"{coin.txid}i0"
    # Real ord knows an inscription once a block holds its reveal.
    unrevealed = await sandbox_client.get(f"/ord/inscription/{inscription_id}")
    assert unrevealed.status_code == 404
    await mine_blocks(sandbox_client)
    body = await get_json(sandbox_client, f"/ord/inscription/{inscription_id}")
    assert set(body) == shapes.ORD_INSCRIPTION | shapes.SANDBOX_INSCRIPTION_EXTRA
    assert (body["id"], body["address"]) == (inscription_id, key.address)
    assert (body["output"], body["offset"]) == (coin.outpoint, 0)
    assert body["satpoint"] == f"{coin.outpoint}:0"
    assert body["value"] == 12_000
    assert body["tap_transfer"] is False
    output = await get_json(sandbox_client, f"/ord/output/{coin.outpoint}")
    assert output["inscriptions"] == [inscription_id]


async def test_inscription_follows_its_sat_first_in_first_out(
    sandbox_client: httpx.AsyncClient,
) -> None:
    owner, buyer = P2wpkhKey.from_label("ord-fifo-owner"), P2wpkhKey.from_label("ord-fifo-buyer")
    funding = await faucet_coin(sandbox_client, owner, 50_000)
    inscribed = await inscribe(sandbox_client, owner)
    await mine_blocks(sandbox_client)
    # Inputs: 50,000 funding sats, then the inscribed output; its first sat is sat 50,000 of
    # the inputs, which falls inside output 0 (55,000 sats) at offset 50,000.
    tx = spend([funding, inscribed], [(buyer.address, 55_000), (owner.address, 4_500)])
    assert (await broadcast(sandbox_client, tx)).status_code == 200
    await mine_blocks(sandbox_client)

    inscription_id = f"{inscribed.txid}i0"
    body = await get_json(sandbox_client, f"/ord/inscription/{inscription_id}")
    assert (body["output"], body["offset"], body["address"]) == (
        f"{tx.txid}:0",
        50_000,
        buyer.address,
    )
    assert body["satpoint"] == f"{tx.txid}:0:50000"
    buyer_view = await get_json(sandbox_client, f"/ord/address/{buyer.address}")
    assert set(buyer_view) == shapes.ORD_ADDRESS | shapes.SANDBOX_ADDRESS_EXTRA
    assert buyer_view["inscriptions"] == [inscription_id]
    assert buyer_view["outputs"] == [f"{tx.txid}:0"]
    assert buyer_view["sat_balance"] == 55_000
    owner_view = await get_json(sandbox_client, f"/ord/address/{owner.address}")
    assert inscription_id not in owner_view["inscriptions"]


async def test_runes_show_on_output_and_address(sandbox_client: httpx.AsyncClient) -> None:
    key = P2wpkhKey.from_label("ord-runes")
    response = await sandbox_client.post(
        "/sandbox/runes", json={"address": key.address, "rune": "ORDVIEWTESTRUNE", "amount": 2100}
    )
    assert response.status_code == 201, response.text
    outpoint = response.json()["outpoint"]
    await mine_blocks(sandbox_client)
    output = await get_json(sandbox_client, f"/ord/output/{outpoint}")
    [(rune_name, pile)] = output["runes"].items()
    assert rune_name.replace("•", "") == "ORDVIEWTESTRUNE"
    assert pile["amount"] == 2100
    view = await get_json(sandbox_client, f"/ord/address/{key.address}")
    assert outpoint in view["outputs"]
    [balance] = view["runes_balances"]
    assert str(balance[0]).replace("•", "") == "ORDVIEWTESTRUNE"


async def test_rune_entry_gives_the_canonical_spaced_name(
    sandbox_client: httpx.AsyncClient,
) -> None:
    key = P2wpkhKey.from_label("ord-rune-entry")
    letters = "ENTRY" + "".join(secrets.choice(string.ascii_uppercase) for _ in range(8))
    spaced = f"{letters[:5]}•{letters[5:]}"
    response = await sandbox_client.post(
        "/sandbox/runes", json={"address": key.address, "rune": spaced, "amount": 5}
    )
    assert response.status_code == 201, response.text
    # Not etched until a block holds it, as on a real chain.
    assert (await sandbox_client.get(f"/ord/rune/{letters}")).status_code == 404
    await mine_blocks(sandbox_client)
    rune_id = (await get_json(sandbox_client, f"/ord/rune/{letters}"))["id"]
    # Asked by its letters, by ord's '.' spelling, spaced another way, or by its id: one entry.
    for asked in (letters, spaced.replace("•", "."), f"{letters[:2]}•{letters[2:]}", rune_id):
        body = await get_json(sandbox_client, f"/ord/rune/{asked}")
        assert set(body) == shapes.ORD_RUNE
        assert set(body["entry"]) == shapes.ORD_RUNE_ENTRY
        assert body["entry"]["spaced_rune"] == spaced
        assert body["id"] == rune_id
        assert (body["entry"]["divisibility"], body["entry"]["symbol"]) == (0, "¤")
    unknown = await sandbox_client.get("/ord/rune/NOSUCHRUNEHEREATALL")
    assert (unknown.status_code, unknown.json()["errorCode"]) == (404, "NOT_FOUND")
    malformed = await sandbox_client.get("/ord/rune/lower•case")
    assert (malformed.status_code, malformed.json()["errorCode"]) == (400, "INVALID_RUNE")


async def test_not_found_and_malformed(sandbox_client: httpx.AsyncClient) -> None:
    for path in (f"/ord/output/{UNKNOWN_TXID}:0", f"/ord/inscription/{UNKNOWN_TXID}i0"):
        response = await sandbox_client.get(path)
        assert response.status_code == 404
        assert response.json()["errorCode"] == "NOT_FOUND"
    for path in ("/ord/output/xyz:0", f"/ord/output/{UNKNOWN_TXID}", "/ord/inscription/abci0"):
        response = await sandbox_client.get(path)
        assert response.status_code == 400
        assert response.json()["errorCode"] == "INVALID_REQUEST"
    response = await sandbox_client.get("/ord/address/not-an-address")
    assert response.status_code == 400


async def test_block_height_is_the_last_block_indexed(sandbox_client: httpx.AsyncClient) -> None:
    """ord's `/blockheight`: the sandbox indexes every block, so it is the chain's tip."""
    before = await get_json(sandbox_client, "/ord/blockheight")
    await mine_blocks(sandbox_client, 2)
    after = await get_json(sandbox_client, "/ord/blockheight")
    assert after == before + 2
    assert after == int((await sandbox_client.get("/esplora/blocks/tip/height")).text)
