"""The scenario's inscriptions (`Node.create_inscription(s)`) are made by commit and reveal with
ord's envelope: what the reveal's witness carries, where each item lands, what the catalog
reads back from it (curated collection, traits from the metadata, TAP transfers from the
body), and what is refused before anything is paid."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.core import cbor
from app.core.inscription_envelope import Envelope, envelopes_from_witnesses
from app.sandbox.chain import tap
from app.sandbox.chain.errors import InvalidRequest
from app.sandbox.chain.inscribe_items import NewItem
from app.sandbox.chain.node import Node
from app.sandbox.chain.rawtx import ParsedTx, parse_hex_tx
from tests.sandbox.chain.helpers import KeyPair

OWNER = KeyPair.make("items-owner", "p2tr")
OTHER = KeyPair.make("items-other", "p2wpkh")


def _reveal(node: Node, txid: str) -> tuple[ParsedTx, list[Envelope]]:
    raw = node.tx_hex(txid)
    assert raw is not None
    tx = parse_hex_tx(raw)
    return tx, envelopes_from_witnesses([i.witness for i in tx.inputs])


def test_an_item_is_revealed_from_a_commit_with_its_envelope(sandbox_node: Node) -> None:
    created = sandbox_node.create_inscription(
        OWNER.address, "pixel-punks", {"Eyes": "Laser", "Hat": "Cap"}, postage=12_345
    )
    reveal_txid = created["outpoint"].split(":")[0]
    assert created["inscriptionId"] == f"{reveal_txid}i0"
    assert created["outpoint"] == f"{reveal_txid}:0"
    tx, [envelope] = _reveal(sandbox_node, reveal_txid)
    [commit_input] = tx.inputs
    assert sandbox_node.tx_status(commit_input.prev_txid) == {"confirmed": False}
    assert (tx.outputs[0].script_pubkey, tx.outputs[0].value) == (OWNER.script_pubkey, 12_345)
    payload = envelope.payload
    assert payload.content_type == b"text/plain;charset=utf-8"
    assert payload.body == b"pixel-punks\nEyes: Laser\nHat: Cap"
    assert payload.metadata is not None
    assert cbor.decode(payload.metadata) == {
        "attributes": [
            {"trait_type": "Eyes", "value": "Laser"},
            {"trait_type": "Hat", "value": "Cap"},
        ]
    }
    info = sandbox_node.ord_inscription(created["inscriptionId"])
    assert info is not None
    assert (info["satpoint"], info["value"], info["number"]) == (
        f"{reveal_txid}:0:0",
        12_345,
        created["number"],
    )
    assert info["collection"] == "pixel-punks" and info["tap_transfer"] is False
    assert info["traits"] == [
        {"trait_type": "Eyes", "value": "Laser"},
        {"trait_type": "Hat", "value": "Cap"},
    ]


def test_a_given_content_type_and_body_are_the_envelopes(sandbox_node: Node) -> None:
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"><text>item</text></svg>'
    created = sandbox_node.create_inscription(OWNER.address, content_type="image/svg+xml", body=svg)
    _, [envelope] = _reveal(sandbox_node, created["outpoint"].split(":")[0])
    assert (envelope.payload.content_type, envelope.payload.body) == (b"image/svg+xml", svg)
    assert envelope.payload.metadata is None
    info = sandbox_node.ord_inscription(created["inscriptionId"])
    assert info is not None and info["content_type"] == "image/svg+xml"
    assert info["collection"] is None and info["traits"] == []


def test_a_batch_is_one_reveal_with_each_item_on_its_own_output(sandbox_node: Node) -> None:
    items = [
        NewItem(OWNER.address, 10_000, "ordinal-cats", {"Fur": "黒"}),
        NewItem(OTHER.address, 546),
        NewItem(OWNER.address, 20_000, tap_transfer=True),
    ]
    created = sandbox_node.create_inscriptions(items)
    reveal_txid = created[0]["outpoint"].split(":")[0]
    assert [c["inscriptionId"] for c in created] == [f"{reveal_txid}i{n}" for n in range(3)]
    assert [c["outpoint"] for c in created] == [f"{reveal_txid}:{n}" for n in range(3)]
    numbers = [c["number"] for c in created]
    assert numbers == list(range(numbers[0], numbers[0] + 3))
    tx, envelopes = _reveal(sandbox_node, reveal_txid)
    assert [o.value for o in tx.outputs] == [10_000, 546, 20_000]
    # ord's batch: each envelope's pointer is the first sat of its output
    assert [e.payload.pointer_value() for e in envelopes] == [None, 10_000, 10_546]
    held = [(OWNER.address, 10_000), (OTHER.address, 546), (OWNER.address, 20_000)]
    for made, (address, value) in zip(created, held, strict=True):
        info = sandbox_node.ord_inscription(made["inscriptionId"])
        assert info is not None
        assert (info["address"], info["value"], info["offset"]) == (address, value, 0)
    cat = sandbox_node.ord_inscription(created[0]["inscriptionId"])
    assert cat is not None and cat["traits"] == [{"trait_type": "Fur", "value": "黒"}]
    tap_info = sandbox_node.ord_inscription(created[2]["inscriptionId"])
    assert tap_info is not None and tap_info["tap_transfer"] is True


def test_a_tap_transfer_is_tap_json_and_told_from_its_body(sandbox_node: Node) -> None:
    created = sandbox_node.create_inscription(OWNER.address, tap_transfer=True)
    _, [envelope] = _reveal(sandbox_node, created["outpoint"].split(":")[0])
    assert json.loads(envelope.payload.body or b"") == {
        "p": "tap",
        "op": "token-transfer",
        "tick": "tap",
        "amt": "100",
    }
    # The flag is the index's reading of the body: the same JSON given as a body is one too.
    same = sandbox_node.create_inscription(OWNER.address, body=tap.token_transfer_body())
    other = sandbox_node.create_inscription(
        OWNER.address, body=b'{"p":"tap","op":"token-mint","tick":"tap","amt":"100"}'
    )
    flags = [
        sandbox_node.ord_inscription(c["inscriptionId"])["tap_transfer"]  # type: ignore[index]
        for c in (created, same, other)
    ]
    assert flags == [True, True, False]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b'{"p":"tap","op":"token-transfer","tick":"tap","amt":"100"}', True),
        (b'{"p":"TAP","op":"Token-Transfer"}', True),  # compared in any case
        (b' {"op":"token-transfer","p":"tap"} ', True),
        (b'{"p":"brc-20","op":"transfer","tick":"ordi","amt":"1"}', False),
        (b'{"p":"tap","op":"token-send"}', False),
        (b'{"p":["tap"],"op":"token-transfer"}', False),  # not a string
        (b'["tap","token-transfer"]', False),
        (b"tap token-transfer", False),
        (b"\xff\xfe", False),
        (b"[" * 100_000, False),  # nesting deeper than Python's stack
        (None, False),
    ],
)
def test_tap_token_transfer_bodies(body: bytes | None, expected: bool) -> None:
    assert tap.is_token_transfer(body) is expected


@pytest.mark.parametrize(
    ("item", "code"),
    [
        (NewItem(OWNER.address, 100), "AMOUNT_BELOW_DUST"),
        (NewItem(OWNER.address, tap_transfer=True, body=b"{}"), None),
        (NewItem(OWNER.address, content_type=""), None),
        (NewItem(OWNER.address, content_type="text/plain\n"), None),
        (NewItem(OWNER.address, body=b"x" * 100_001), None),
        (NewItem("not an address"), "INVALID_ADDRESS"),
    ],
)
def test_a_refused_batch_pays_nothing(sandbox_node: Node, item: NewItem, code: str | None) -> None:
    before = sandbox_node.info()["mempoolSize"]
    with pytest.raises(InvalidRequest) as caught:
        sandbox_node.create_inscriptions([NewItem(OWNER.address), item])
    if code is not None:
        assert caught.value.code == code
    assert sandbox_node.info()["mempoolSize"] == before


def test_a_first_start_interrupted_before_the_demos_batch_makes_it_on_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(self: Node, items: list[NewItem]) -> None:
        raise KeyboardInterrupt  # the collections are made, not their items

    with monkeypatch.context() as patch:
        patch.setattr(Node, "create_inscriptions", interrupted)
        with pytest.raises(KeyboardInterrupt):
            Node.open(tmp_path)
    node = Node.open(tmp_path)
    try:
        counts = {c["slug"]: c["inscriptionCount"] for c in node.collections()}
        assert counts == {"pixel-punks": 4, "ordinal-cats": 3, "satoshi-glyphs": 2}
        # The demo's ten are one reveal: i0 to i9, the TAP transfer last.
        reveal_txids = node.read_index(
            lambda conn: {str(r[0]) for r in conn.execute("SELECT genesis_txid FROM inscriptions")}
        )
        assert len(reveal_txids) == 1
        [txid] = reveal_txids
        tap_transfer = node.ord_inscription(f"{txid}i9")
        assert tap_transfer is not None and tap_transfer["tap_transfer"] is True
    finally:
        node.close()
