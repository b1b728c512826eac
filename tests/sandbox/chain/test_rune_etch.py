"""Runes made by real runestone transactions (rune_etch.py): an etching revealed from a commit
at ord's 6 confirmations (ordinals/ord src/index/updater/rune_updater.rs `tx_commits_to_rune`:
confirmations = the etching's height - the commit's + 1), transfers by edict from the
sandbox's reserve, a mint of open terms, and names below ord's minimum refused. Each
transaction is read back with ord's own decoder (app.core.runestone.decipher) and was accepted
by the kernel (`Node.broadcast`, then mined)."""

from __future__ import annotations

import secrets
import string

import httpx
import pytest

from app.core.rune_names import parse_spaced_rune
from app.core.runestone import Edict, RuneId, Runestone, Terms, decipher
from app.sandbox.chain import rune_etch
from app.sandbox.chain.errors import InvalidRequest
from app.sandbox.chain.node import Node
from tests.sandbox.chain.helpers import KeyPair

OWNER = KeyPair.make("rune-etch-owner", "p2tr")
OTHER = KeyPair.make("rune-etch-other", "p2wpkh")


def _name(prefix: str) -> str:
    """A fresh name of at least 13 letters (above ord's regtest minimum at low heights)."""
    return prefix + "•" + "".join(secrets.choice(string.ascii_uppercase) for _ in range(8))


def _runestone(node: Node, txid: str) -> Runestone:
    tx = node.tx_json(txid)
    assert tx is not None
    artifact = decipher([bytes.fromhex(o["scriptpubkey"]) for o in tx["vout"]])
    assert isinstance(artifact, Runestone)
    return artifact


def _height(node: Node, txid: str) -> int:
    status = node.tx_status(txid)
    assert status is not None and status["confirmed"]
    return int(status["block_height"])


def _runes_on(node: Node, outpoint: str) -> dict[str, int]:
    output = node.ord_output(outpoint)
    assert output is not None
    return {name: int(rune["amount"]) for name, rune in output["runes"].items()}


def _reserve_units(node: Node, spaced: str) -> int:
    reserve = node.sandbox_address(rune_etch.RESERVE_LABEL)
    balances = node.ord_address(reserve)["runes_balances"]
    return sum(int(amount) for name, amount, _ in balances if name == spaced)


def test_a_new_rune_is_etched_at_exactly_six_confirmations_of_its_commit(
    sandbox_node: Node,
) -> None:
    spaced = _name("ETCHED•AT•SIX")
    before = sandbox_node.tip_height
    outpoint = sandbox_node.create_runes(OWNER.address, spaced, 1_234)["outpoint"]
    assert sandbox_node.tip_height == before + 5  # the commit's block and four more
    reveal = outpoint[:64]
    assert sandbox_node.ord_rune(spaced) is None  # the etching waits in the mempool
    stone = _runestone(sandbox_node, reveal)
    assert stone.etching is not None
    letters = spaced.replace("•", "")
    assert (stone.etching.rune, stone.etching.spacers) == (
        letters,
        parse_spaced_rune(spaced).spacers,
    )
    assert (stone.etching.symbol, stone.etching.divisibility) == ("¤", 0)
    assert stone.etching.premine == 1_234 + rune_etch.RESERVE_PREMINE
    assert stone.edicts == (Edict(RuneId(0, 0), 1_234, 0),) and stone.pointer == 1

    sandbox_node.mine(1)
    commit = sandbox_node.tx_json(reveal)["vin"][0]["txid"]  # type: ignore[index]
    assert _height(sandbox_node, reveal) - _height(sandbox_node, commit) + 1 == 6
    found = sandbox_node.ord_rune(spaced)
    assert found is not None
    rune_id, entry = found
    assert rune_id.startswith(f"{_height(sandbox_node, reveal)}:")
    assert entry["spaced_rune"] == spaced and entry["etching"] == reveal
    assert entry["premine"] == 1_234 + rune_etch.RESERVE_PREMINE
    assert _runes_on(sandbox_node, outpoint) == {spaced: 1_234}
    assert _reserve_units(sandbox_node, spaced) == rune_etch.RESERVE_PREMINE


def test_a_reveal_one_block_early_etches_nothing(sandbox_node: Node) -> None:
    """The same commit and reveal with the reveal mined at 5 confirmations: ord ignores the
    etching (its runes are not created), which is why the sandbox waits for the sixth."""
    spaced = _name("ONE•BLOCK•EARLY")
    etching = rune_etch.rune_etching(parse_spaced_rune(spaced), premine=50)
    commit = rune_etch.commit_etching(sandbox_node, etching, [(OWNER.script_pubkey, 10_000)])
    sandbox_node.mine(4)  # the commit's block and three more
    reveal = rune_etch.reveal_etching(sandbox_node, commit)
    sandbox_node.mine(1)
    assert _height(sandbox_node, reveal) - _height(sandbox_node, commit.txid) + 1 == 5
    assert sandbox_node.ord_rune(spaced) is None
    assert _runes_on(sandbox_node, f"{reveal}:0") == {}


def test_an_etched_rune_is_sent_from_the_reserve_by_an_edict(sandbox_node: Node) -> None:
    spaced = _name("SENT•BY•EDICT")
    sandbox_node.create_runes(OWNER.address, spaced, 10)
    sandbox_node.mine(1)
    rune_id = sandbox_node.ord_rune(spaced)[0]  # type: ignore[index]
    before = sandbox_node.tip_height
    first = sandbox_node.create_runes(OTHER.address, spaced, 300)["outpoint"]
    second = sandbox_node.create_runes(OWNER.address, spaced, 45)["outpoint"]  # chained
    assert sandbox_node.tip_height == before  # an etched rune costs no block
    for outpoint, amount in ((first, 300), (second, 45)):
        stone = _runestone(sandbox_node, outpoint[:64])
        assert stone.edicts == (Edict(RuneId.parse(rune_id), amount, 0),)
        assert stone.pointer == 1 and stone.etching is None and stone.mint is None
    sandbox_node.mine(1)
    assert _runes_on(sandbox_node, first) == {spaced: 300}
    assert _runes_on(sandbox_node, second) == {spaced: 45}
    assert _runes_on(sandbox_node, f"{second[:64]}:1") == {spaced: rune_etch.RESERVE_PREMINE - 345}
    assert _reserve_units(sandbox_node, spaced) == rune_etch.RESERVE_PREMINE - 345


def test_a_rune_whose_etching_waits_in_the_mempool_is_mined_then_sent(sandbox_node: Node) -> None:
    spaced = _name("STILL•WAITING")
    sandbox_node.create_runes(OWNER.address, spaced, 1)
    before = sandbox_node.tip_height
    outpoint = sandbox_node.create_runes(OTHER.address, spaced, 2)["outpoint"]
    assert sandbox_node.tip_height == before + 1  # the etching's block, then the transfer
    sandbox_node.mine(1)
    assert _runes_on(sandbox_node, outpoint) == {spaced: 2}


def test_a_rune_etched_with_open_terms_is_minted(sandbox_node: Node) -> None:
    spaced = _name("OPEN•TO•MINT")
    terms = Terms(amount=100, cap=2, height=(None, None), offset=(None, None))
    etching = rune_etch.rune_etching(parse_spaced_rune(spaced), premine=0, terms=terms)
    rune_etch.etch_rune(sandbox_node, etching, [(OWNER.script_pubkey, 10_000)])
    sandbox_node.mine(1)
    found = sandbox_node.ord_rune(spaced)
    assert found is not None and found[1]["terms"] is not None
    rune_id = RuneId.parse(found[0])
    mint = rune_etch.mint_runes(sandbox_node, sandbox_node._wallet, rune_id, OTHER.script_pubkey)
    stone = _runestone(sandbox_node, mint)
    assert stone.mint == rune_id and stone.edicts == () and stone.etching is None
    sandbox_node.mine(1)
    assert _runes_on(sandbox_node, f"{mint}:0") == {spaced: 100}
    assert sandbox_node.ord_rune(spaced)[1]["mints"] == 1  # type: ignore[index]


@pytest.mark.parametrize("name", ["SHORT•NAME", "TWELVELETTER", "A"])
def test_names_below_ords_minimum_are_refused_before_anything_is_paid(
    sandbox_node: Node, name: str
) -> None:
    tip, mempool = sandbox_node.tip_height, sandbox_node.info()["mempoolSize"]
    with pytest.raises(InvalidRequest) as caught:
        sandbox_node.create_runes(OWNER.address, name, 5)
    assert caught.value.code == "RUNE_NAME_LOCKED"
    assert f"block {tip + 6}" in caught.value.message  # the reveal's, as ord's wallet checks
    assert "ord's minimum name there is Z" in caught.value.message  # 12 letters, from ZZ...
    assert (sandbox_node.tip_height, sandbox_node.info()["mempoolSize"]) == (tip, mempool)


async def test_post_sandbox_runes_refuses_a_locked_name(
    sandbox_client: httpx.AsyncClient,
) -> None:
    response = await sandbox_client.post(
        "/sandbox/runes", json={"address": OWNER.address, "rune": "TOO•SHORT", "amount": 1}
    )
    assert response.status_code == 400
    body = response.json()
    assert body["errorCode"] == "RUNE_NAME_LOCKED" and "minimum name" in body["message"]
