"""`/sandbox`: info, faucet, mining, collections, inscriptions, runes, transfers and the clock."""

from __future__ import annotations

import httpx
import pytest

from app.sandbox.chain.node import Node
from tests.sandbox.scenario import get_json, mine_blocks
from tests.sandbox.txbuild import P2wpkhKey


async def tip_height(client: httpx.AsyncClient) -> int:
    return int((await client.get("/esplora/blocks/tip/height")).text)


async def test_info_names_the_network_and_the_tip(sandbox_client: httpx.AsyncClient) -> None:
    info = await get_json(sandbox_client, "/sandbox/info")
    assert info["network"] == "regtest"
    assert info["tipHeight"] == await tip_height(sandbox_client)
    assert info["tipHash"] == (await sandbox_client.get("/esplora/blocks/tip/hash")).text


async def test_faucet_pays_the_address(sandbox_client: httpx.AsyncClient) -> None:
    key = P2wpkhKey.from_label("scenario-faucet")
    response = await sandbox_client.post(
        "/sandbox/faucet", json={"address": key.address, "sats": 123_456}
    )
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"txid", "vout"}
    tx = await get_json(sandbox_client, f"/esplora/tx/{body['txid']}")
    paid = tx["vout"][body["vout"]]
    assert (paid["scriptpubkey_address"], paid["value"]) == (key.address, 123_456)


async def test_mine_counts_blocks(sandbox_client: httpx.AsyncClient) -> None:
    start = await tip_height(sandbox_client)
    assert await mine_blocks(sandbox_client, 3) == start + 3
    response = await sandbox_client.post("/sandbox/mine", json={})  # default: one block
    assert response.json() == {"height": start + 4}
    for bad in (0, -1, 1001, True, "2"):
        response = await sandbox_client.post("/sandbox/mine", json={"blocks": bad})
        assert response.status_code == 400, bad
        assert response.json()["message"].startswith("body.blocks")
    assert await tip_height(sandbox_client) == start + 4


async def test_collections_round_trip_with_non_ascii_traits(
    sandbox_client: httpx.AsyncClient,
) -> None:
    traits = [
        {"trait_type": "Hintergrund", "values": ["Grün", "Weiß"]},
        {"trait_type": "眼", "values": ["🔥", "青"]},
    ]
    response = await sandbox_client.post(
        "/sandbox/collections", json={"slug": "qa-unicode", "name": "QA Ünïcødé", "traits": traits}
    )
    assert response.status_code == 201, response.text
    created = response.json()
    assert (created["slug"], created["name"], created["traits"]) == (
        "qa-unicode",
        "QA Ünïcødé",
        traits,
    )
    assert await get_json(sandbox_client, "/sandbox/collections/qa-unicode") == created
    listed = await get_json(sandbox_client, "/sandbox/collections")
    assert created in listed

    missing = await sandbox_client.get("/sandbox/collections/no-such-collection")
    assert missing.status_code == 404
    assert missing.json()["errorCode"] == "NOT_FOUND"


async def test_demo_collections_exist_on_a_fresh_node(sandbox_client: httpx.AsyncClient) -> None:
    listed = await get_json(sandbox_client, "/sandbox/collections")
    demo = [c for c in listed if not c["slug"].startswith("qa-")]
    assert demo, "a fresh sandbox has demo collections"
    values = [v for c in demo for t in c["traits"] for v in t["values"]]
    assert any(not v.isascii() for v in values), "some demo trait values are non-ASCII"


@pytest.mark.parametrize(
    "body",
    [
        {"slug": "", "name": "x"},
        {"slug": "has space", "name": "x"},
        {"slug": "ok", "name": ""},
        {"slug": "ok", "name": "x", "traits": [{"trait_type": "t", "values": "not-a-list"}]},
        {"slug": "ok", "name": "x", "traits": [{"trait_type": "t"}]},
    ],
)
async def test_bad_collections_are_400(
    sandbox_client: httpx.AsyncClient, body: dict[str, object]
) -> None:
    response = await sandbox_client.post("/sandbox/collections", json=body)
    assert response.status_code == 400
    assert response.json()["errorCode"] == "INVALID_REQUEST"


async def test_inscribe_into_a_collection_with_traits(sandbox_client: httpx.AsyncClient) -> None:
    await sandbox_client.post(
        "/sandbox/collections",
        json={
            "slug": "qa-inscribe",
            "name": "QA",
            "traits": [{"trait_type": "Hat", "values": ["Cap", "Crown"]}],
        },
    )
    key = P2wpkhKey.from_label("scenario-inscribe")
    response = await sandbox_client.post(
        "/sandbox/inscriptions",
        json={
            "address": key.address,
            "collectionSlug": "qa-inscribe",
            "attributes": [{"trait_type": "Hat", "value": "Crown"}],
            "postage": 546,
            "tapTransfer": True,
        },
    )
    assert response.status_code == 201, response.text
    created = response.json()
    assert set(created) == {"inscriptionId", "number", "outpoint"}
    txid = created["outpoint"].split(":")[0]
    assert (await get_json(sandbox_client, f"/esplora/tx/{txid}/status")) == {"confirmed": False}
    await mine_blocks(sandbox_client)  # ord knows it once a block holds its reveal
    inscription = await get_json(sandbox_client, f"/ord/inscription/{created['inscriptionId']}")
    assert (inscription["number"], inscription["output"]) == (
        created["number"],
        created["outpoint"],
    )
    assert inscription["collection"] == "qa-inscribe"
    assert inscription["traits"] == [{"trait_type": "Hat", "value": "Crown"}]
    assert inscription["tap_transfer"] is True
    assert inscription["value"] == 546


async def test_inscribe_into_an_unknown_collection_is_refused(
    sandbox_client: httpx.AsyncClient,
) -> None:
    address = P2wpkhKey.from_label("scenario-unknown").address
    response = await sandbox_client.post(
        "/sandbox/inscriptions", json={"address": address, "collectionSlug": "qa-missing"}
    )
    assert 400 <= response.status_code < 500
    assert set(response.json()) == {"errorCode", "message"}


async def test_transfer_moves_a_sandbox_held_inscription(
    sandbox_client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    collector = sandbox_node.sandbox_address("qa-collector")
    created = (
        await sandbox_client.post("/sandbox/inscriptions", json={"address": collector})
    ).json()
    await mine_blocks(sandbox_client)
    receiver = P2wpkhKey.from_label("scenario-transfer")
    response = await sandbox_client.post(
        "/sandbox/transfer",
        json={"inscriptionId": created["inscriptionId"], "toAddress": receiver.address},
    )
    assert response.status_code == 200, response.text
    txid = response.json()["txid"]
    inscription = await get_json(sandbox_client, f"/ord/inscription/{created['inscriptionId']}")
    assert inscription["address"] == collector  # ord: where the last block left it
    await mine_blocks(sandbox_client)
    inscription = await get_json(sandbox_client, f"/ord/inscription/{created['inscriptionId']}")
    assert inscription["address"] == receiver.address
    assert inscription["output"].split(":")[0] == txid

    # The sandbox does not hold the receiver's key: it cannot move it again.
    again = await sandbox_client.post(
        "/sandbox/transfer",
        json={"inscriptionId": created["inscriptionId"], "toAddress": collector},
    )
    assert again.status_code == 409, again.text  # as docs/error-codes.md says
    assert again.json()["errorCode"] == "NOT_SANDBOX_HELD"
    unknown = await sandbox_client.post(
        "/sandbox/transfer", json={"inscriptionId": "ef" * 32 + "i0", "toAddress": collector}
    )
    assert unknown.status_code == 404


async def test_clock_only_moves_forward(sandbox_client: httpx.AsyncClient) -> None:
    first = (await sandbox_client.post("/sandbox/clock", json={"advanceMs": 0})).json()
    second = (await sandbox_client.post("/sandbox/clock", json={"advanceMs": 60_000})).json()
    assert second["clockOffsetMs"] == first["clockOffsetMs"] + 60_000
    assert second["clockMs"] >= first["clockMs"] + 60_000
    for bad in (-1, True, 1.5, "1000", 400 * 24 * 3600 * 1000):
        response = await sandbox_client.post("/sandbox/clock", json={"advanceMs": bad})
        assert response.status_code == 400, bad
        assert response.json()["message"].startswith("body.advanceMs")
    info = await get_json(sandbox_client, "/sandbox/info")
    assert info["clockMs"] >= second["clockMs"]
    assert info["clockOffsetMs"] == second["clockOffsetMs"]
