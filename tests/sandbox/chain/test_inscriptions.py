"""Inscriptions and runes by ord's rules, moved by real transactions."""

from __future__ import annotations

from typing import Any

import pytest

from app.sandbox.chain.consensus import block_subsidy
from app.sandbox.chain.errors import Conflict, InvalidRequest
from app.sandbox.chain.node import Node
from app.sandbox.chain.spend import Utxo
from tests.sandbox.chain.helpers import KeyPair, fund

OWNER = KeyPair.make("ins-owner", "p2tr")
RECIPIENT = KeyPair.make("ins-recipient", "p2tr")
FUNDER = KeyPair.make("ins-funder", "p2tr")


def _inscribe(node: Node, key: KeyPair = OWNER, **kwargs: Any) -> tuple[str, Utxo]:
    created = node.create_inscription(key.address, **kwargs)
    node.mine(1)
    txid, vout = created["outpoint"].split(":")
    return created["inscriptionId"], Utxo(
        txid, int(vout), kwargs.get("postage", 10_000), key.script_pubkey
    )


def _two_key_spend(utxos: list[Utxo], outputs: list[tuple[bytes, int]]) -> bytes:
    from app.sandbox.chain.spend import build_spend

    keys = {OWNER.script_pubkey: OWNER.key, FUNDER.script_pubkey: FUNDER.key}
    return build_spend(utxos, outputs, keys)


def _location(node: Node, inscription_id: str) -> tuple[str | None, str | None, int | None]:
    info = node.ord_inscription(inscription_id)
    assert info is not None
    return info["address"], info["output"], info["offset"]


def test_created_inscription_is_on_the_first_sat_of_a_real_output(sandbox_node: Node) -> None:
    created = sandbox_node.create_inscription(
        OWNER.address, "pixel-punks", {"Eyes": "🔥 Fire", "Hat": "Crown"}
    )
    ins_id = created["inscriptionId"]
    txid = created["outpoint"].split(":")[0]
    assert ins_id == f"{txid}i0"
    assert sandbox_node.tx_status(txid) == {"confirmed": False}
    info = sandbox_node.ord_inscription(ins_id)
    assert info is not None
    assert (info["address"], info["output"], info["offset"], info["value"]) == (
        OWNER.address,
        f"{txid}:0",
        0,
        10_000,
    )
    assert info["satpoint"] == f"{txid}:0:0" and info["number"] == created["number"]
    assert info["collection"] == "pixel-punks" and info["tap_transfer"] is False
    assert info["traits"] == [
        {"trait_type": "Eyes", "value": "🔥 Fire"},
        {"trait_type": "Hat", "value": "Crown"},
    ]
    output = sandbox_node.ord_output(created["outpoint"])
    assert output is not None and output["inscriptions"] == [ins_id] and output["spent"] is False
    assert ins_id in sandbox_node.ord_address(OWNER.address)["inscriptions"]


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"collection_slug": "nope"}, "UNKNOWN_COLLECTION"),
        ({"collection_slug": "pixel-punks", "attributes": {"Eyes": "Blue"}}, "UNKNOWN_TRAIT_VALUE"),
        ({"collection_slug": "pixel-punks", "attributes": {"Mouth": "Open"}}, "UNKNOWN_TRAIT"),
        ({"attributes": {"Eyes": "Laser"}}, "ATTRIBUTES_WITHOUT_COLLECTION"),
        ({"postage": 0}, "INVALID_AMOUNT"),
        ({"postage": 100}, "AMOUNT_BELOW_DUST"),
    ],
)
def test_inscription_requests_are_validated(
    sandbox_node: Node, kwargs: dict[str, Any], code: str
) -> None:
    with pytest.raises(InvalidRequest) as caught:
        sandbox_node.create_inscription(OWNER.address, **kwargs)
    assert caught.value.code == code


def test_lands_on_output_zero(sandbox_node: Node) -> None:
    ins_id, ins = _inscribe(sandbox_node)
    fee_coin = fund(sandbox_node, FUNDER, 5_000)
    raw = _two_key_spend([ins, fee_coin], [(RECIPIENT.script_pubkey, 10_000),
                                           (FUNDER.script_pubkey, 4_000)])  # fmt: skip
    txid = sandbox_node.broadcast(raw)
    assert _location(sandbox_node, ins_id) == (RECIPIENT.address, f"{txid}:0", 0)
    spent = sandbox_node.ord_output(f"{ins.txid}:{ins.vout}")
    assert spent is not None and spent["spent"] is True and spent["inscriptions"] == []


def test_lands_on_output_one_at_the_fifo_offset(sandbox_node: Node) -> None:
    ins_id, ins = _inscribe(sandbox_node)
    lead = fund(sandbox_node, FUNDER, 20_000)
    # Inputs: 20,000 funder sats, then the inscription: it is sat 20,000 of the inputs.
    raw = _two_key_spend([lead, ins], [(FUNDER.script_pubkey, 15_000),
                                       (RECIPIENT.script_pubkey, 14_000)])  # fmt: skip
    txid = sandbox_node.broadcast(raw)
    assert _location(sandbox_node, ins_id) == (RECIPIENT.address, f"{txid}:1", 5_000)


def test_goes_to_the_fee_then_to_the_coinbase(sandbox_node: Node) -> None:
    ins_id, ins = _inscribe(sandbox_node)
    lead = fund(sandbox_node, FUNDER, 20_000)
    raw = _two_key_spend([lead, ins], [(FUNDER.script_pubkey, 19_000)])  # fee: 1,000 + 10,000
    txid = sandbox_node.broadcast(raw)
    info = sandbox_node.ord_inscription(ins_id)
    assert info is not None and (info["output"], info["address"]) == (None, None)

    height = sandbox_node.mine(1)
    conn = sandbox_node._store.conn
    pos = conn.execute("SELECT block_pos FROM txs WHERE txid = ?", (txid,)).fetchone()[0]
    fees_before = conn.execute(
        "SELECT COALESCE(SUM(fee), 0) FROM txs WHERE height = ? AND block_pos BETWEEN 1 AND ?",
        (height, pos - 1),
    ).fetchone()[0]
    coinbase = conn.execute(
        "SELECT txid FROM txs WHERE height = ? AND coinbase = 1", (height,)
    ).fetchone()[0]
    expected_offset = block_subsidy(height) + fees_before + 1_000
    miner = sandbox_node.sandbox_address("miner", "p2wpkh")
    assert _location(sandbox_node, ins_id) == (miner, f"{coinbase}:0", expected_offset)

    # The sandbox never funds anything with an inscribed coin ...
    assert all(c.txid != coinbase for c in sandbox_node._wallet.spendable(limit=10_000))
    # ... and once the coinbase matures it can move the inscription out of it.
    sandbox_node.mine(100)
    move = sandbox_node.transfer_inscription(ins_id, RECIPIENT.address)
    address, output, offset = _location(sandbox_node, ins_id)
    assert (address, offset) == (RECIPIENT.address, 0)
    assert output is not None and output.startswith(move)


def test_sandbox_moves_an_inscription_it_holds(sandbox_node: Node) -> None:
    collector = sandbox_node.sandbox_address("collector-1")
    ins_id = sandbox_node.ord_address(collector)["inscriptions"][0]
    txid = sandbox_node.transfer_inscription(ins_id, RECIPIENT.address)
    assert _location(sandbox_node, ins_id) == (RECIPIENT.address, f"{txid}:0", 0)
    assert ins_id not in sandbox_node.ord_address(collector)["inscriptions"]
    assert ins_id in sandbox_node.ord_address(RECIPIENT.address)["inscriptions"]
    sandbox_node.mine(1)
    assert sandbox_node.tx_status(txid)["confirmed"] is True


def test_sandbox_moves_an_inscription_at_a_small_offset(sandbox_node: Node) -> None:
    ins_id, ins = _inscribe(sandbox_node)
    collector_spk = bytes.fromhex(
        sandbox_node.ord_output(sandbox_node.create_inscription(
            sandbox_node.sandbox_address("collector-2"))["outpoint"])["script_pubkey"]  # type: ignore[index]
    )  # fmt: skip
    lead = fund(sandbox_node, FUNDER, 20_000)
    raw = _two_key_spend([lead, ins], [(FUNDER.script_pubkey, 19_900), (collector_spk, 9_500)])
    sandbox_node.broadcast(raw)
    assert _location(sandbox_node, ins_id)[2] == 100  # below dust: needs the absorber layout
    txid = sandbox_node.transfer_inscription(ins_id, RECIPIENT.address)
    assert _location(sandbox_node, ins_id) == (RECIPIENT.address, f"{txid}:1", 0)


def test_cannot_move_what_the_sandbox_does_not_hold(sandbox_node: Node) -> None:
    ins_id, _ = _inscribe(sandbox_node)
    with pytest.raises(Conflict) as caught:  # 409, as docs/error-codes.md says
        sandbox_node.transfer_inscription(ins_id, RECIPIENT.address)
    assert caught.value.code == "NOT_SANDBOX_HELD"


def test_tap_transfer_flag(sandbox_node: Node) -> None:
    ins_id, _ = _inscribe(sandbox_node, tap_transfer=True)
    info = sandbox_node.ord_inscription(ins_id)
    assert info is not None and info["tap_transfer"] is True and info["collection"] is None


def test_runes_move_to_the_first_non_op_return_output(sandbox_node: Node) -> None:
    outpoint = sandbox_node.create_runes(OWNER.address, "DOG•GO•TO•THE•MOON", 5_000)["outpoint"]
    sandbox_node.mine(1)
    out = sandbox_node.ord_output(outpoint)
    assert out is not None
    assert out["runes"] == {
        "DOG•GO•TO•THE•MOON": {"amount": 5_000, "divisibility": 0, "symbol": "¤"}
    }
    txid, vout = outpoint.split(":")
    rune_coin = Utxo(txid, int(vout), 10_000, OWNER.script_pubkey)
    raw = _two_key_spend([rune_coin], [(bytes.fromhex("6a0161"), 0),
                                       (RECIPIENT.script_pubkey, 9_000)])  # fmt: skip
    move = sandbox_node.broadcast(raw)
    moved = sandbox_node.ord_output(f"{move}:1")
    assert moved is not None and moved["runes"]["DOG•GO•TO•THE•MOON"]["amount"] == 5_000
    assert sandbox_node.ord_output(outpoint)["runes"] == {}  # type: ignore[index]
    balances = sandbox_node.ord_address(RECIPIENT.address)["runes_balances"]
    assert ["DOG•GO•TO•THE•MOON", "5000", "¤"] in balances


def test_runes_are_burned_without_a_non_op_return_output(sandbox_node: Node) -> None:
    outpoint = sandbox_node.create_runes(OWNER.address, "BURN.ME.ENTIRELY", 7)["outpoint"]
    txid, vout = outpoint.split(":")
    coin = Utxo(txid, int(vout), 10_000, OWNER.script_pubkey)
    burn = sandbox_node.broadcast(_two_key_spend([coin], [(bytes.fromhex("6a04deadbeef"), 0)]))
    assert sandbox_node.ord_output(f"{burn}:0")["runes"] == {}  # type: ignore[index]
    assert ["BURN.ME.ENTIRELY", "7", "¤"] not in sandbox_node.ord_address(OWNER.address)[
        "runes_balances"
    ]


@pytest.mark.parametrize("name", ["dog", "•DOG", "DOG••GO", "A" * 27, "", "DÖG"])
def test_bad_rune_names(sandbox_node: Node, name: str) -> None:
    with pytest.raises(InvalidRequest):
        sandbox_node.create_runes(OWNER.address, name, 1)
