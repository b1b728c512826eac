"""Rules of ord's rune indexer and views the sandbox must follow too, found by reviewing it
line by line against ordinals/ord at commit 5241ef311e015cff4759a379085c8cc8913e621a (each
test names the code it follows). Real transactions (test keys, checked by the kernel),
read back through the `/ord` views as real ord answers them.
"""

from __future__ import annotations

from dataclasses import replace

import httpx

from app.core.inscription_envelope import Inscription, reveal_leaf_script
from app.core.rune_names import (
    SpacedRune,
    minimum_at_height,
    reserved_rune,
    rune_commitment,
    rune_name,
    rune_value,
)
from app.sandbox.chain.addresses import address_for_script
from app.sandbox.chain.node import Node
from app.sandbox.chain.spend import Utxo
from app.wallet.scripts import taproot_output
from tests.sandbox.chain.helpers import KeyPair
from tests.sandbox.chain.rune_txs import (
    FEE,
    OWNER,
    POSTAGE,
    Commit,
    coin,
    commit,
    commit_to,
    edict,
    etch,
    etching,
    fresh_name,
    reveal,
    runes_on,
    spend,
    stone,
    terms,
)
from tests.sandbox.chain.test_rune_updater import _entry, _place
from tests.sandbox.scenario import get_json


def test_an_edict_may_name_the_etched_rune_by_its_own_id(sandbox_node: Node) -> None:
    """rune_updater.rs `index_runes`: the premine is credited to the etched rune's id
    `<block>:<tx>` (0:0 in an edict stands for it), so an edict naming that id itself
    allocates from the premine."""
    letters = fresh_name("SELFNAMED")
    made = commit_to(sandbox_node, letters)
    height = sandbox_node.tip_height + 1  # the reveal is the next block's only transaction
    runestone = stone([edict(f"{height}:1", 300, 2)], etch=etching(letters, 1_000))
    txid = reveal(sandbox_node, made, runestone)
    sandbox_node.mine(1)
    assert _place(sandbox_node, txid)[:2] == (height, 1)
    assert runes_on(sandbox_node, txid, 2) == {letters: 300}
    assert runes_on(sandbox_node, txid, 1) == {letters: 700}


def test_an_unnamed_etching_keeps_its_spacers_in_its_reserved_name(sandbox_node: Node) -> None:
    """rune_updater.rs `create_rune_entry`: `spaced_rune: SpacedRune { rune, spacers }` with the
    reserved rune of where the etching is mined and the etching's spacers, for an etching
    decided in the mempool and mined too."""
    made = commit(sandbox_node, b"")
    txid = reveal(sandbox_node, made, stone(etch=etching(None, 5, spacers=0b101)))
    sandbox_node.mine(1)
    height, position, _ = _place(sandbox_node, txid)
    spaced = str(SpacedRune(rune_name(reserved_rune(height, position)), 0b101))
    assert _entry(sandbox_node, f"{height}:{position}")["spaced_rune"] == spaced
    assert runes_on(sandbox_node, txid, 1) == {spaced: 5}


def _two_runes_on_one_output(node: Node) -> tuple[str, str, str]:
    """A rune named from Z etched first, one named from A second (divisibility 2), both moved
    to one output: (its txid, the Z rune, the A rune)."""
    late = fresh_name("ZORDER")
    early = fresh_name("AORDER")
    z_txid = etch(node, stone(etch=etching(late, 7)), late)
    a_txid = etch(node, stone(etch=etching(early, 12_345, divisibility=2)), early)
    merged = spend(node, [coin(node, z_txid, 1), coin(node, a_txid, 1)], None, outputs=1)
    node.mine(1)
    return merged, late, early


def test_an_outputs_runes_are_listed_by_rune_as_ord_sorts_them(sandbox_node: Node) -> None:
    """src/index.rs `get_rune_balances_for_output`: a `BTreeMap<SpacedRune, Pile>`, so the
    runes of `/output`'s JSON come in the order of the runes (their numbers: A before Z), not
    the order they were etched in."""
    merged, late, early = _two_runes_on_one_output(sandbox_node)
    out = sandbox_node.ord_served("output", f"{merged}:0")
    assert out is not None
    assert list(out["runes"]) == [early, late]
    assert out["runes"][early] == {"amount": 12_345, "divisibility": 2, "symbol": None}


def test_an_addresss_rune_balances_are_decimals_in_the_runes_order(sandbox_node: Node) -> None:
    """src/index.rs `get_aggregated_rune_balances_for_outputs`: each balance is a `Decimal`
    of the rune's divisibility (12345 of a rune of divisibility 2 is "123.45"), listed in a
    `BTreeMap<SpacedRune, _>`'s order; in ord's view (the confirmed chain) and the market's
    (the current state) alike."""
    _, late, early = _two_runes_on_one_output(sandbox_node)
    confirmed = sandbox_node.ord_served("address", OWNER.address)
    assert confirmed is not None
    for view in (confirmed, sandbox_node.ord_address(OWNER.address)):
        balances = view["runes_balances"]
        names = [name for name, _, _ in balances]
        assert names.index(early) < names.index(late)
        assert [early, "123.45", None] in balances and [late, "7", None] in balances


async def test_a_rune_answers_mintable_by_its_terms_and_by_its_number(
    sandbox_node: Node, sandbox_client: httpx.AsyncClient
) -> None:
    """server.rs `rune`: `mintable` is `entry.mintable(height + 1).is_ok()` (open until the
    cap is reached), and a rune is found by its number too (`query::Rune::Number`)."""
    letters = fresh_name("MINTABLE")
    etch(sandbox_node, stone(etch=etching(letters, 0, terms=terms(100, 1))), letters)
    body = await get_json(sandbox_client, f"/ord/rune/{letters}")
    assert (body["mintable"], body["parent"]) == (True, None)
    by_number = await get_json(sandbox_client, f"/ord/rune/{body['entry']['number']}")
    assert by_number == body
    spend(sandbox_node, [], stone(mint=body["id"]))
    sandbox_node.mine(1)
    assert (await get_json(sandbox_client, f"/ord/rune/{body['id']}"))["mintable"] is False
    unknown = await sandbox_client.get("/ord/rune/999999")
    assert unknown.status_code == 404


async def test_a_rune_etched_with_an_inscription_has_it_as_parent(
    sandbox_node: Node, sandbox_client: httpx.AsyncClient
) -> None:
    """index.rs `rune`: `parent` is `<etching>i0` when that inscription exists, and
    `api::Inscription`'s `rune` names the rune it etched (`sequence_number_to_rune_id`): ord's
    wallet etches so, the commitment in the envelope's rune field."""
    letters = fresh_name("PARENTED")
    xonly = OWNER.key.get_public_key().xonly()
    envelope = Inscription(body=b"a rune's parent", content_type=b"text/plain;charset=utf-8")
    leaf = reveal_leaf_script(xonly, [replace(envelope, rune=rune_commitment(letters))])
    tree = taproot_output(xonly, [leaf])
    address = address_for_script(tree.script_pubkey)
    assert address is not None
    value = 2 * POSTAGE + FEE
    funded, vout = sandbox_node.faucet(address, value)
    sandbox_node.mine(5)
    made = Commit(Utxo(funded, vout, value, tree.script_pubkey), tree)
    txid = reveal(sandbox_node, made, stone(etch=etching(letters, 9)))
    sandbox_node.mine(1)
    body = await get_json(sandbox_client, f"/ord/rune/{letters}")
    assert body["parent"] == f"{txid}i0"
    inscription = await get_json(sandbox_client, f"/ord/inscription/{txid}i0")
    assert inscription["rune"] == letters


def _ords_outpoint_order(outpoint: str) -> tuple[bytes, int]:
    txid, vout = outpoint.split(":")
    return bytes.fromhex(txid)[::-1], int(vout)


def test_an_addresss_outputs_are_sorted_as_ords_outpoints(sandbox_node: Node) -> None:
    """server.rs `address_info`: `outputs.sort()` in `OutPoint`'s order, the txid's bytes as
    stored (the reverse of its hex) then the vout, not the hex's order."""
    key = KeyPair.make("ord-rules-outpoint-order")
    outpoints: list[str] = []
    while sorted(outpoints) == sorted(outpoints, key=_ords_outpoint_order):
        assert len(outpoints) < 40, "faucet txids never ordered differently"
        txid, vout = sandbox_node.faucet(key.address, 5_000)
        outpoints.append(f"{txid}:{vout}")
    sandbox_node.mine(1)
    for view in (
        sandbox_node.ord_served("address", key.address),
        sandbox_node.ord_address(key.address),
    ):
        assert view is not None
        assert view["outputs"] == sorted(outpoints, key=_ords_outpoint_order)


async def test_runes_are_listed_fifty_a_page(
    sandbox_node: Node, sandbox_client: httpx.AsyncClient
) -> None:
    """server.rs `runes_paginated`: `index.runes_paginated(50, page_index)`, the newest first;
    unnamed etchings (no commitment needed) fill the pages."""
    listed = len(sandbox_node.ord_runes_page(0, 1_000_000)[0])
    for _ in range(max(0, 51 - listed)):
        spend(sandbox_node, [], stone(etch=etching(None, 1)))
    sandbox_node.mine(1)
    total = len(sandbox_node.ord_runes_page(0, 1_000_000)[0])
    first = await get_json(sandbox_client, "/ord/runes")
    assert (len(first["entries"]), first["more"], first["next"]) == (50, True, 1)
    second = await get_json(sandbox_client, "/ord/runes/1")
    assert (len(second["entries"]), second["prev"]) == (min(total - 50, 50), 0)


def test_the_sandbox_etches_a_name_ords_wallet_would(sandbox_node: Node) -> None:
    """batch_command.rs `check_etching`: ord's wallet checks a name against
    `Rune::minimum_at_height(current + COMMIT_CONFIRMATIONS)`, the reveal's block, where ord's
    index judges it, not the commit's (names unlock as blocks pass)."""
    reveal_height = sandbox_node.tip_height + 6
    letters = rune_name(minimum_at_height(reveal_height))
    assert rune_value(letters) < minimum_at_height(sandbox_node.tip_height + 1)
    key = KeyPair.make("ord-rules-wallet-minimum")
    outpoint = sandbox_node.create_runes(key.address, letters, 5)["outpoint"]
    sandbox_node.mine(1)
    found = sandbox_node.ord_rune(letters)
    assert found is not None and found[1]["block"] == reveal_height
    txid, vout = outpoint.split(":")
    assert runes_on(sandbox_node, txid, int(vout)) == {letters: 5}
