"""`POST /ord/outputs` and `POST /ord/inscriptions`: ord's batch lookups, answering exactly what
the single lookups answer, in the order asked; an unknown one or a malformed id refuses all."""

from __future__ import annotations

import httpx

from tests.sandbox.http.test_ord import UNKNOWN_TXID, inscribe
from tests.sandbox.scenario import faucet_coin, get_json, mine_blocks
from tests.sandbox.txbuild import P2wpkhKey


async def test_outputs_answer_as_the_single_lookups_in_order(
    sandbox_client: httpx.AsyncClient,
) -> None:
    key = P2wpkhKey.from_label("ord-batch-outputs")
    plain = await faucet_coin(sandbox_client, key, 30_000)
    inscribed = await inscribe(sandbox_client, key)
    await mine_blocks(sandbox_client)
    asked = [inscribed.outpoint, plain.outpoint, inscribed.outpoint]
    response = await sandbox_client.post("/ord/outputs", json=asked)
    assert response.status_code == 200, response.text
    singles = [await get_json(sandbox_client, f"/ord/output/{o}") for o in asked]
    assert response.json() == singles
    assert [o["outpoint"] for o in response.json()] == asked


async def test_inscriptions_answer_as_the_single_lookups_in_order(
    sandbox_client: httpx.AsyncClient,
) -> None:
    key = P2wpkhKey.from_label("ord-batch-inscriptions")
    ids = [f"{(await inscribe(sandbox_client, key)).txid}i0" for _ in range(3)]
    await mine_blocks(sandbox_client)  # ord knows an inscription once its reveal is mined
    asked = [ids[2], ids[0], ids[1]]
    response = await sandbox_client.post("/ord/inscriptions", json=asked)
    assert response.status_code == 200, response.text
    singles = [await get_json(sandbox_client, f"/ord/inscription/{i}") for i in asked]
    assert response.json() == singles


async def test_an_unknown_one_is_a_404_naming_it(sandbox_client: httpx.AsyncClient) -> None:
    key = P2wpkhKey.from_label("ord-batch-unknown")
    coin = await inscribe(sandbox_client, key)
    await mine_blocks(sandbox_client)
    unknown_output = f"{UNKNOWN_TXID}:0"
    response = await sandbox_client.post("/ord/outputs", json=[coin.outpoint, unknown_output])
    assert response.status_code == 404
    assert unknown_output in response.json()["message"]
    unknown_id = f"{UNKNOWN_TXID}i0"
    response = await sandbox_client.post("/ord/inscriptions", json=[f"{coin.txid}i0", unknown_id])
    assert response.status_code == 404
    assert unknown_id in response.json()["message"]


async def test_malformed_or_too_many_are_refused(sandbox_client: httpx.AsyncClient) -> None:
    for path, body in (
        ("/ord/outputs", ["not-an-outpoint"]),
        ("/ord/outputs", {"outpoints": []}),
        ("/ord/inscriptions", [f"{UNKNOWN_TXID}:0"]),
        ("/ord/outputs", [f"{UNKNOWN_TXID}:0"] * 1001),
    ):
        response = await sandbox_client.post(path, json=body)
        assert response.status_code == 400, (path, response.text)
        assert response.json()["errorCode"] == "INVALID_REQUEST"
