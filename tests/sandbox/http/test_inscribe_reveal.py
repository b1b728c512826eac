"""`POST /sandbox/inscribe`: inscriptions made by commit and reveal, derived from the reveal's
witness by ord's rules and read back through `/ord/inscription` and `/ord/output`.

Each test mines the reveal before reading it back, so it holds whether `/ord` shows mempool
state or only confirmed state (as real ord does).
"""

from __future__ import annotations

import httpx
import pytest

from app.core import cbor
from app.core.inscription_envelope import envelopes_from_witnesses
from app.sandbox.chain.consensus import block_subsidy
from app.sandbox.chain.node import Node
from tests.sandbox.scenario import get_json, mine_blocks
from tests.sandbox.txbuild import P2wpkhKey

HTML = "text/html;charset=utf-8"


async def inscribe(client: httpx.AsyncClient, **body: object) -> dict[str, str]:
    response = await client.post("/sandbox/inscribe", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, str] = response.json()
    assert created["inscriptionId"] == f"{created['revealTxid']}i0"
    return created


async def test_commit_reveal_carries_the_envelope_and_ord_reads_it_back(
    sandbox_client: httpx.AsyncClient,
) -> None:
    owner = P2wpkhKey.from_label("reveal-owner")
    created = await inscribe(
        sandbox_client,
        outputs=[{"address": owner.address, "value": 10_000}],
        contentType=HTML,
        body="<p>" + "x" * 1200 + "</p>",  # a body over 520 bytes: pushed in chunks
    )
    await mine_blocks(sandbox_client)
    reveal = await get_json(sandbox_client, f"/esplora/tx/{created['revealTxid']}")
    commit = await get_json(sandbox_client, f"/esplora/tx/{created['commitTxid']}")
    assert reveal["vin"][0]["txid"] == created["commitTxid"]
    spent_commit_output = commit["vout"][reveal["vin"][0]["vout"]]
    assert spent_commit_output["scriptpubkey_type"] == "v1_p2tr"
    [envelope] = envelopes_from_witnesses(
        [tuple(bytes.fromhex(w) for w in vin.get("witness", [])) for vin in reveal["vin"]]
    )
    assert envelope.payload.content_type == HTML.encode()
    assert envelope.payload.body == ("<p>" + "x" * 1200 + "</p>").encode()

    inscription_id = created["inscriptionId"]
    info = await get_json(sandbox_client, f"/ord/inscription/{inscription_id}")
    outpoint = f"{created['revealTxid']}:0"
    assert (info["id"], info["address"], info["satpoint"]) == (
        inscription_id,
        owner.address,
        f"{outpoint}:0",
    )
    assert (info["value"], info["content_type"]) == (10_000, HTML)
    output = await get_json(sandbox_client, f"/ord/output/{outpoint}")
    assert output["inscriptions"] == [inscription_id]
    assert output["address"] == owner.address


async def test_pointer_moves_the_inscription_to_the_sat_it_names(
    sandbox_client: httpx.AsyncClient,
) -> None:
    first, second = P2wpkhKey.from_label("pointer-a"), P2wpkhKey.from_label("pointer-b")
    outputs = [
        {"address": first.address, "value": 10_000},
        {"address": second.address, "value": 10_000},
    ]
    pointed = await inscribe(sandbox_client, outputs=outputs, body="pointed", pointer=10_005)
    # A pointer at or past the outputs' total is ignored: the first sat of the input again.
    ignored = await inscribe(
        sandbox_client, outputs=outputs, bodyHex="00ff", pointer=20_000, contentType=None
    )
    await mine_blocks(sandbox_client)

    info = await get_json(sandbox_client, f"/ord/inscription/{pointed['inscriptionId']}")
    assert info["satpoint"] == f"{pointed['revealTxid']}:1:5"
    assert info["address"] == second.address
    for vout, expected in ((0, []), (1, [pointed["inscriptionId"]])):
        output = await get_json(sandbox_client, f"/ord/output/{pointed['revealTxid']}:{vout}")
        assert output["inscriptions"] == expected
    info = await get_json(sandbox_client, f"/ord/inscription/{ignored['inscriptionId']}")
    assert info["satpoint"] == f"{ignored['revealTxid']}:0:0"
    assert info["content_type"] is None  # the envelope has none, as ord shows it


async def test_inscription_landing_in_fees_goes_to_the_coinbase(
    sandbox_client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    created = await inscribe(sandbox_client, outputs=[], body="for the miner")
    height = await mine_blocks(sandbox_client)
    status = await get_json(sandbox_client, f"/esplora/tx/{created['revealTxid']}/status")
    assert status["block_height"] == height

    def fees_before_reveal(conn: object) -> tuple[str, int]:
        import sqlite3

        assert isinstance(conn, sqlite3.Connection)
        coinbase = conn.execute(
            "SELECT txid FROM txs WHERE height = ? AND block_pos = 0", (height,)
        ).fetchone()[0]
        position = conn.execute(
            "SELECT block_pos FROM txs WHERE txid = ?", (created["revealTxid"],)
        ).fetchone()[0]
        fees = conn.execute(
            "SELECT COALESCE(SUM(fee), 0) FROM txs WHERE height = ? AND block_pos BETWEEN 1 AND ?",
            (height, position - 1),
        ).fetchone()[0]
        return str(coinbase), int(fees)

    coinbase, fees = sandbox_node.read_index(fees_before_reveal)
    info = await get_json(sandbox_client, f"/ord/inscription/{created['inscriptionId']}")
    # ord: the fee's first sat follows the subsidy and the fees of the transactions before it.
    assert info["satpoint"] == f"{coinbase}:0:{block_subsidy(height) + fees}"
    output = await get_json(sandbox_client, f"/ord/output/{coinbase}:0")
    assert created["inscriptionId"] in output["inscriptions"]


async def test_child_spends_its_parent_and_joins_its_collection(
    sandbox_client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    holder = sandbox_node.sandbox_address("reveal-parent-holder", "p2tr")
    response = await sandbox_client.post(
        "/sandbox/collections",
        json={
            "slug": "reveal-kids",
            "name": "Reveal kids",
            "traits": [{"trait_type": "Hat", "values": ["Crown", "Cap"]}],
        },
    )
    assert response.status_code == 201, response.text
    response = await sandbox_client.post(
        "/sandbox/inscriptions",
        json={"address": holder, "postage": 10_000, "collectionSlug": "reveal-kids"},
    )
    assert response.status_code == 201, response.text
    parent = response.json()["inscriptionId"]
    child_owner = P2wpkhKey.from_label("reveal-child-owner")
    created = await inscribe(
        sandbox_client,
        outputs=[{"address": child_owner.address, "value": 10_000}],
        body="child",
        parent=parent,
        attributes=[{"trait_type": "Hat", "value": "Cap"}],
    )
    await mine_blocks(sandbox_client)
    reveal = await get_json(sandbox_client, f"/esplora/tx/{created['revealTxid']}")
    [envelope] = envelopes_from_witnesses(
        [tuple(bytes.fromhex(w) for w in vin.get("witness", [])) for vin in reveal["vin"]]
    )
    assert envelope.payload.parent_ids() == [parent]
    assert cbor.decode(envelope.payload.metadata or b"") == {
        "attributes": [{"trait_type": "Hat", "value": "Cap"}]
    }

    child = await get_json(sandbox_client, f"/ord/inscription/{created['inscriptionId']}")
    assert child["satpoint"] == f"{created['revealTxid']}:1:0"
    assert child["collection"] == "reveal-kids"
    assert child["traits"] == [{"trait_type": "Hat", "value": "Cap"}]
    # a trait the collection does not have is refused before anything is inscribed
    response = await sandbox_client.post(
        "/sandbox/inscribe",
        json={
            "outputs": [{"address": child_owner.address, "value": 10_000}],
            "parent": parent,
            "attributes": [{"trait_type": "Hat", "value": "Wig"}],
        },
    )
    assert (response.status_code, response.json()["errorCode"]) == (400, "UNKNOWN_TRAIT_VALUE")
    moved = await get_json(sandbox_client, f"/ord/inscription/{parent}")
    assert (moved["satpoint"], moved["address"]) == (f"{created['revealTxid']}:0:0", holder)


async def test_a_parent_the_sandbox_cannot_spend_is_refused(
    sandbox_client: httpx.AsyncClient,
) -> None:
    outsider = P2wpkhKey.from_label("reveal-outsider")
    response = await sandbox_client.post(
        "/sandbox/inscriptions", json={"address": outsider.address, "postage": 10_000}
    )
    parent = response.json()["inscriptionId"]
    response = await sandbox_client.post(
        "/sandbox/inscribe",
        json={"outputs": [{"address": outsider.address, "value": 10_000}], "parent": parent},
    )
    assert response.status_code == 409, response.text
    assert response.json()["errorCode"] == "NOT_SANDBOX_HELD"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"outputs": [], "body": "a", "bodyHex": "61"}, "not both"),
        ({"outputs": [], "bodyHex": "6"}, "two per byte"),
        ({"outputs": [], "pointer": -1}, "pointer"),
        ({"body": "no outputs field"}, "outputs"),
        ({"outputs": [], "attributes": [{"trait_type": "Hat", "value": "Cap"}]}, "parent"),
    ],
)
async def test_bad_requests_say_what_is_wrong(
    sandbox_client: httpx.AsyncClient, body: dict[str, object], words: str
) -> None:
    response = await sandbox_client.post("/sandbox/inscribe", json=body)
    assert response.status_code == 400, response.text
    assert words in response.json()["message"]
