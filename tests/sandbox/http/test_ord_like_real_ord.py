"""The sandbox's `/ord` answers compared field by field with real ord's JSON for the same kind
of output, inscription and rune.

Source: ordinals/ord at commit 5241ef311e015cff4759a379085c8cc8913e621a (2026-04-03):
- the shapes: `src/api.rs` (`Output`, `Inscription`, `AddressInfo`; `Rune` is
  `templates/rune.rs`'s `RuneHtml`), `src/index/entry.rs` (`RuneEntry`), the ordinals crate's
  `Pile` ({amount, divisibility, symbol});
- the samples: `tests/json_api.rs` `get_output`, `get_inscription` and `get_runes`, written
  out as serde_json serialises those structs (ids, outpoints, scripts and rune names as text);
- the semantics: `src/index.rs` `get_output_info`: `indexed` is "in the index's UTXO table"
  (outputs of blocks, removed when a block spends them), `spent` is "Bitcoin Core's `gettxout`
  with the mempool has none", inscriptions and runes come from the index (empty when the
  output is not in it); `confirmations` from Core.
"""

from __future__ import annotations

from typing import Any

import httpx

from app.sandbox.chain.blocks import block_transactions
from app.sandbox.chain.node import Node
from app.sandbox.chain.rune_etch import RESERVE_PREMINE
from tests.sandbox.scenario import broadcast, faucet_coin, get_json, mine_blocks
from tests.sandbox.txbuild import Coin, P2wpkhKey, spend

TXID = "b" * 64  # stands for the sample's txid

# tests/json_api.rs `get_output` (three inscriptions on one output, ord run with --index-sats
# and without --index-runes, hence `runes: null`).
REAL_OUTPUT: dict[str, Any] = {
    "address": "bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq9e75rs",
    "confirmations": 1,
    "indexed": True,
    "inscriptions": [f"{TXID}i0", f"{TXID}i1", f"{TXID}i2"],
    "outpoint": f"{TXID}:0",
    "runes": None,
    "sat_ranges": [
        [5000000000, 10000000000],
        [10000000000, 15000000000],
        [15000000000, 20000000000],
    ],
    "script_pubkey": "0014" + "00" * 20,  # the sample's address: witness v0, 20 zero bytes
    "spent": False,
    "transaction": TXID,
    "value": 15000000000,
}
# tests/json_api.rs `get_inscription`.
REAL_INSCRIPTION: dict[str, Any] = {
    "address": None,
    "charms": ["coin", "uncommon"],
    "child_count": 0,
    "children": [],
    "content_length": 3,
    "content_type": "text/plain;charset=utf-8",
    "effective_content_type": "text/plain;charset=utf-8",
    "fee": 138,
    "height": 2,
    "id": f"{TXID}i0",
    "metaprotocol": None,
    "next": None,
    "number": 0,
    "parents": [],
    "previous": None,
    "properties": {},
    "rune": None,
    "sat": 5000000000,
    "satpoint": f"{TXID}:0:0",
    "timestamp": 2,
    "value": 10000,
}
# tests/json_api.rs `get_runes` (`RUNE` is 99246114928149462; `etching` the reveal's txid).
REAL_RUNE: dict[str, Any] = {
    "entry": {
        "block": 10,
        "burned": 0,
        "divisibility": 0,
        "etching": TXID,
        "mints": 0,
        "number": 0,
        "premine": 1000,
        "spaced_rune": "AAAAAAAAAAAAA",
        "symbol": "¢",
        "terms": None,
        "timestamp": 10,
        "turbo": False,
    },
    "id": "10:1",
    "mintable": False,
    "parent": f"{TXID}i0",
}
REAL_PILE = {"amount": 1000, "divisibility": 0, "symbol": "¢"}

# Each field's JSON type, from the Rust types of src/api.rs and entry.rs (Option: or None).
OUTPUT_TYPES = {
    "address": (str, None),
    "confirmations": (int,),
    "indexed": (bool,),
    "inscriptions": (list, None),
    "outpoint": (str,),
    "runes": (dict, None),
    "sat_ranges": (list, None),
    "script_pubkey": (str,),
    "spent": (bool,),
    "transaction": (str,),
    "value": (int,),
}
INSCRIPTION_TYPES = {
    "address": (str, None),
    "charms": (list,),
    "child_count": (int,),
    "children": (list,),
    "content_length": (int, None),
    "content_type": (str, None),
    "effective_content_type": (str, None),
    "fee": (int,),
    "height": (int,),
    "id": (str,),
    "metaprotocol": (str, None),
    "next": (str, None),
    "number": (int,),
    "parents": (list,),
    "previous": (str, None),
    "properties": (dict,),
    "rune": (str, None),
    "sat": (int, None),
    "satpoint": (str,),
    "timestamp": (int,),
    "value": (int, None),
}
RUNE_TYPES = {"entry": (dict,), "id": (str,), "mintable": (bool,), "parent": (str, None)}
RUNE_ENTRY_TYPES = {
    "block": (int,),
    "burned": (int,),
    "divisibility": (int,),
    "etching": (str,),
    "mints": (int,),
    "number": (int,),
    "premine": (int,),
    "spaced_rune": (str,),
    "symbol": (str, None),
    "terms": (dict, None),
    "timestamp": (int,),
    "turbo": (bool,),
}
PILE_TYPES = {"amount": (int,), "divisibility": (int,), "symbol": (str, None)}
# Fields the sandbox serves beyond ord's `Inscription` (its own, and the older names).
SANDBOX_INSCRIPTION_EXTRA = {
    "output",
    "offset",
    "genesis_txid",
    "genesis_height",
    "genesis_fee",
    "collection",
    "traits",
    "tap_transfer",
}


def _json_type_ok(value: Any, allowed: tuple[Any, ...]) -> bool:
    if value is None:
        return None in allowed
    if isinstance(value, bool):
        return bool in allowed
    return any(t is not None and t is not bool and isinstance(value, t) for t in allowed)


def assert_same_fields(served: dict[str, Any], real: dict[str, Any], types: dict[str, Any]) -> None:
    """The same field names as real ord's sample, each of the JSON type ord's Rust type gives
    (the sample itself checked against those types, so the table is ord's)."""
    assert set(real) == set(types)
    assert set(served) == set(real), set(served) ^ set(real)
    for field, allowed in types.items():
        assert _json_type_ok(real[field], allowed), f"ord's sample: {field}"
        assert _json_type_ok(served[field], allowed), f"{field}: {served[field]!r}"


async def _inscribed_and_runic(client: httpx.AsyncClient, key: P2wpkhKey) -> tuple[str, str]:
    """A new inscription's output and a new rune's output of `key`, mined (the rune first:
    etching it mines the blocks ord needs before its reveal)."""
    rune = await client.post(
        "/sandbox/runes", json={"address": key.address, "rune": "REAL•ORD•SHAPED", "amount": 1000}
    )
    assert rune.status_code == 201, rune.text
    made = await client.post("/sandbox/inscriptions", json={"address": key.address})
    assert made.status_code == 201, made.text
    await mine_blocks(client)
    return made.json()["outpoint"], rune.json()["outpoint"]


async def test_a_confirmed_output_with_an_inscription_or_runes_as_ord_shows_it(
    sandbox_client: httpx.AsyncClient,
) -> None:
    key = P2wpkhKey.from_label("real-ord-confirmed")
    inscribed, runic = await _inscribed_and_runic(sandbox_client, key)
    output = await get_json(sandbox_client, f"/ord/output/{inscribed}")
    assert_same_fields(output, REAL_OUTPUT, OUTPUT_TYPES)
    txid = inscribed.split(":")[0]
    assert (output["outpoint"], output["transaction"]) == (inscribed, txid)
    assert (output["indexed"], output["spent"], output["confirmations"]) == (True, False, 1)
    assert (output["inscriptions"], output["runes"]) == ([f"{txid}i0"], {})
    assert output["sat_ranges"] is None  # as ord without --index-sats
    assert (
        output["address"] == key.address and output["script_pubkey"] == key.script_pubkey.data.hex()
    )

    output = await get_json(sandbox_client, f"/ord/output/{runic}")
    assert_same_fields(output, REAL_OUTPUT, OUTPUT_TYPES)
    [(name, pile)] = output["runes"].items()
    assert name == "REAL•ORD•SHAPED"
    assert_same_fields(pile, REAL_PILE, PILE_TYPES)
    assert (pile["amount"], pile["divisibility"], pile["symbol"]) == (1000, 0, "¤")


async def test_a_mempool_output_is_not_indexed_and_carries_nothing_yet(
    sandbox_client: httpx.AsyncClient,
) -> None:
    key = P2wpkhKey.from_label("real-ord-mempool")
    made = await sandbox_client.post("/sandbox/inscriptions", json={"address": key.address})
    outpoint = made.json()["outpoint"]
    output = await get_json(sandbox_client, f"/ord/output/{outpoint}")
    assert_same_fields(output, REAL_OUTPUT, OUTPUT_TYPES)
    # get_output_info: not in the UTXO table, found by gettxout (confirmations 0), not spent.
    assert (output["indexed"], output["confirmations"], output["spent"]) == (False, 0, False)
    assert (output["inscriptions"], output["runes"], output["sat_ranges"]) == ([], {}, None)
    assert (output["value"], output["address"]) == (10_000, key.address)
    inscription_id = f"{outpoint.split(':')[0]}i0"
    assert (await sandbox_client.get(f"/ord/inscription/{inscription_id}")).status_code == 404


async def test_an_output_spent_in_the_mempool_keeps_its_contents_until_the_block(
    sandbox_client: httpx.AsyncClient,
) -> None:
    owner, buyer = P2wpkhKey.from_label("real-ord-spent"), P2wpkhKey.from_label("real-ord-to")
    inscribed, runic = await _inscribed_and_runic(sandbox_client, owner)
    funding = await faucet_coin(sandbox_client, owner, 20_000)
    txid, vout = inscribed.split(":")
    r_txid, r_vout = runic.split(":")
    coins = [
        Coin(txid=txid, vout=int(vout), value=10_000, key=owner),
        Coin(txid=r_txid, vout=int(r_vout), value=10_000, key=owner),
        funding,
    ]
    moving = spend(coins, [(buyer.address, 10_000), (buyer.address, 28_000)])
    assert (await broadcast(sandbox_client, moving)).status_code == 200

    inscription_id = f"{txid}i0"
    output = await get_json(sandbox_client, f"/ord/output/{inscribed}")
    assert (output["indexed"], output["spent"]) == (True, True)
    assert output["inscriptions"] == [inscription_id]
    runes = await get_json(sandbox_client, f"/ord/output/{runic}")
    assert (runes["indexed"], runes["spent"], list(runes["runes"])) == (
        True,
        True,
        ["REAL•ORD•SHAPED"],
    )
    fresh = await get_json(sandbox_client, f"/ord/output/{moving.txid}:0")
    assert (fresh["indexed"], fresh["inscriptions"], fresh["runes"]) == (False, [], {})
    where = await get_json(sandbox_client, f"/ord/inscription/{inscription_id}")
    assert_same_fields(
        {k: v for k, v in where.items() if k not in SANDBOX_INSCRIPTION_EXTRA},
        REAL_INSCRIPTION,
        INSCRIPTION_TYPES,
    )
    assert (where["satpoint"], where["address"]) == (f"{inscribed}:0", owner.address)
    holder = await get_json(sandbox_client, f"/ord/address/{owner.address}")
    assert {inscribed, runic} <= set(holder["outputs"])
    assert inscription_id in holder["inscriptions"]

    await mine_blocks(sandbox_client)
    output = await get_json(sandbox_client, f"/ord/output/{inscribed}")
    # A block spent it: ord dropped it from its UTXO table.
    assert (output["indexed"], output["spent"], output["inscriptions"]) == (False, True, [])
    arrived = await get_json(sandbox_client, f"/ord/output/{moving.txid}:0")
    assert (arrived["indexed"], arrived["inscriptions"]) == (True, [inscription_id])
    assert list(arrived["runes"]) == ["REAL•ORD•SHAPED"]  # no runestone: the first output
    where = await get_json(sandbox_client, f"/ord/inscription/{inscription_id}")
    assert (where["satpoint"], where["address"]) == (f"{moving.txid}:0:0", buyer.address)
    holder = await get_json(sandbox_client, f"/ord/address/{owner.address}")
    assert not {inscribed, runic} & set(holder["outputs"])


async def test_a_rune_has_its_etchings_id_and_ords_entry(
    sandbox_client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    key = P2wpkhKey.from_label("real-ord-rune")
    made = await sandbox_client.post(
        "/sandbox/runes", json={"address": key.address, "rune": "ETCHED•RIGHT•HERE", "amount": 1000}
    )
    etching = made.json()["outpoint"].split(":")[0]
    height = await mine_blocks(sandbox_client)
    more = await sandbox_client.post(
        "/sandbox/runes", json={"address": key.address, "rune": "ETCHEDRIGHTHERE", "amount": 500}
    )
    assert more.status_code == 201, more.text
    await mine_blocks(sandbox_client)

    body = await get_json(sandbox_client, "/ord/rune/ETCHED•RIGHT•HERE")
    assert_same_fields(body, REAL_RUNE, RUNE_TYPES)
    assert_same_fields(body["entry"], REAL_RUNE["entry"], RUNE_ENTRY_TYPES)
    # The id is <block>:<index in the block> of its etching (the reveal), read
    # here from the block the kernel validated.
    raw = sandbox_node.read_index(
        lambda c: bytes(
            c.execute("SELECT raw FROM blocks WHERE height = ?", (height,)).fetchone()[0]
        )
    )
    position = [tx.txid for tx in block_transactions(raw)].index(etching)
    assert body["id"] == f"{height}:{position}"
    entry = body["entry"]
    assert (entry["block"], entry["etching"], entry["spaced_rune"]) == (
        height,
        etching,
        "ETCHED•RIGHT•HERE",
    )
    # The premine is the reserve's too; the second amount came from it, by an edict: no mint.
    premine = 1000 + RESERVE_PREMINE
    assert (entry["premine"], entry["mints"], entry["burned"], entry["terms"]) == (
        premine,
        0,
        0,
        None,
    )
    assert (body["mintable"], body["parent"]) == (False, None)
    assert await get_json(sandbox_client, f"/ord/rune/{body['id']}") == body
