"""Commit/reveal on the sandbox chain: several envelopes in one reveal, and a reveal a user
builds and signs with their own key, broadcast like any transaction (the indexer reads every
transaction's envelopes, not only the sandbox's)."""

from __future__ import annotations

from embit.script import Script
from embit.transaction import Transaction, TransactionInput, TransactionOutput

from app.core.inscription_envelope import Inscription, pointer_field
from app.sandbox.chain.addresses import address_for_script
from app.sandbox.chain.inscribe import commit_output, inscribe, sign_reveal_input
from app.sandbox.chain.node import Node
from tests.sandbox.chain.helpers import KeyPair

OWNER = KeyPair.make("reveal-chain-owner", "p2tr")
ARTIST = KeyPair.make("reveal-chain-artist", "p2tr")


def _satpoint(node: Node, inscription_id: str) -> str | None:
    info = node.ord_inscription(inscription_id)
    assert info is not None
    satpoint: str | None = info["satpoint"]
    return satpoint


def test_several_envelopes_in_one_reveal_numbered_in_order(sandbox_node: Node) -> None:
    batch = [
        Inscription(content_type=b"text/plain", body=b"first"),
        Inscription(content_type=b"text/plain", body=b"second", pointer=pointer_field(10_000)),
        Inscription(content_type=b"image/png", body=bytes(700), pointer=pointer_field(20_000)),
    ]
    outputs = [(OWNER.script_pubkey, 10_000)] * 3
    revealed = inscribe(sandbox_node, batch, outputs)
    sandbox_node.mine(1)
    txid = revealed.reveal_txid
    assert revealed.inscription_ids == (f"{txid}i0", f"{txid}i1", f"{txid}i2")
    assert [_satpoint(sandbox_node, i) for i in revealed.inscription_ids] == [
        f"{txid}:0:0",
        f"{txid}:1:0",
        f"{txid}:2:0",
    ]
    info = sandbox_node.ord_inscription(revealed.inscription_ids[2])
    assert info is not None and info["content_type"] == "image/png"


def test_a_reveal_signed_by_the_users_own_key_inscribes(sandbox_node: Node) -> None:
    tree = commit_output(ARTIST.key, [Inscription(content_type=b"text/plain", body=b"mine")])
    address = address_for_script(tree.script_pubkey)
    assert address is not None
    commit_txid, commit_vout = sandbox_node.faucet(address, 12_000)
    reveal = Transaction(
        version=2,
        vin=[TransactionInput(bytes.fromhex(commit_txid), commit_vout, sequence=0xFFFFFFFD)],
        vout=[TransactionOutput(11_000, Script(ARTIST.script_pubkey))],
        locktime=0,
    )
    sign_reveal_input(reveal, 0, [(12_000, tree.script_pubkey)], ARTIST.key, tree.leaves[0])
    reveal_txid = sandbox_node.broadcast(bytes(reveal.serialize()))
    sandbox_node.mine(1)
    info = sandbox_node.ord_inscription(f"{reveal_txid}i0")
    assert info is not None
    assert (info["satpoint"], info["address"]) == (f"{reveal_txid}:0:0", ARTIST.address)
    output = sandbox_node.ord_output(f"{reveal_txid}:0")
    assert output is not None and output["inscriptions"] == [f"{reveal_txid}i0"]
