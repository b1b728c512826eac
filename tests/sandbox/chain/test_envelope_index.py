"""Where the envelopes of a transaction put their inscriptions, by ord's rules
(`InscriptionUpdater::index_inscriptions`, src/index/updater/inscription_updater.rs of
github.com/ordinals/ord at 5241ef311e015cff4759a379085c8cc8913e621a)."""

from __future__ import annotations

import sqlite3

from app.core import cbor
from app.core.inscription_envelope import (
    OP_ENDIF,
    OP_IF,
    PROTOCOL_ID,
    Inscription,
    envelope_script,
    inscription_id_value,
    pointer_field,
    push,
)
from app.sandbox.chain.envelope_index import metadata_for_traits, metadata_traits, new_inscriptions
from app.sandbox.chain.rawtx import ParsedTx, TxIn, TxOut
from app.sandbox.chain.store import PRIMARY_SCHEMA

TXID = "ab" * 32
PARENT = "cd" * 32 + "i0"


def witness(*inscriptions: Inscription) -> tuple[bytes, ...]:
    return (b"".join(envelope_script(i) for i in inscriptions), b"")


def tx(witnesses: list[tuple[bytes, ...]], outputs: list[int]) -> ParsedTx:
    inputs = tuple(TxIn("11" * 32, n, b"", 0, w) for n, w in enumerate(witnesses))
    return ParsedTx(
        raw=b"",
        txid=TXID,
        wtxid=TXID,
        version=2,
        locktime=0,
        inputs=inputs,
        outputs=tuple(TxOut(v, b"\x51\x20" + bytes(32)) for v in outputs),
        base_size=0,
    )


def places(t: ParsedTx, values: list[int], spent: set[str] | None = None) -> list[tuple]:
    return [
        (n.inscription_id, n.vout, n.offset, n.fee_offset, n.parents)
        for n in new_inscriptions(t, values, spent or set())
    ]


def test_first_sat_of_the_input_that_carries_the_envelope() -> None:
    plain = Inscription(body=b"a")
    t = tx([(b"",), witness(plain, plain)], [5_000, 5_000])
    # input 0 holds 4,000 sats: input 1's first sat is sat 4,000, in output 0
    assert places(t, [4_000, 6_000]) == [
        (f"{TXID}i0", 0, 4_000, None, ()),
        (f"{TXID}i1", 0, 4_000, None, ()),
    ]


def test_numbering_runs_across_inputs() -> None:
    t = tx([witness(Inscription()), witness(Inscription(), Inscription())], [10_000, 10_000])
    got = places(t, [10_000, 10_000])
    assert [g[0] for g in got] == [f"{TXID}i0", f"{TXID}i1", f"{TXID}i2"]
    assert [(g[1], g[2]) for g in got] == [(0, 0), (1, 0), (1, 0)]


def test_pointer_below_the_outputs_total_wins_else_ignored() -> None:
    def at(pointer: int) -> list[tuple]:
        ins = Inscription(pointer=pointer_field(pointer))
        return places(tx([witness(ins)], [3_000, 3_000]), [7_000])

    assert at(4_500) == [(f"{TXID}i0", 1, 1_500, None, ())]
    assert at(5_999) == [(f"{TXID}i0", 1, 2_999, None, ())]
    assert at(6_000) == [(f"{TXID}i0", 0, 0, None, ())]
    # a pointer field with a non-zero byte past the eighth is no pointer (ord's `pointer()`)
    odd = Inscription(pointer=bytes([1, 0, 0, 0, 0, 0, 0, 0, 1]))
    assert places(tx([witness(odd)], [3_000, 3_000]), [7_000])[0][1:3] == (0, 0)


def test_a_sat_past_the_outputs_is_in_the_fee() -> None:
    t = tx([(b"",), witness(Inscription(body=b"x"))], [1_000])
    assert places(t, [2_000, 500]) == [(f"{TXID}i0", None, None, 1_000, ())]


def test_unbound_by_unrecognised_even_tag_or_an_empty_input() -> None:
    even = bytes([0x00, OP_IF]) + push(PROTOCOL_ID) + push(b"\x16") + push(b"\x00")
    t = tx([(even + bytes([OP_ENDIF]), b"")], [1_000])
    assert places(t, [1_000]) == [(f"{TXID}i0", None, None, None, ())]
    t = tx([(b"",), witness(Inscription())], [1_000])
    assert places(t, [1_000, 0]) == [(f"{TXID}i0", None, None, None, ())]


def test_a_parent_counts_only_when_the_transaction_spends_it() -> None:
    child = Inscription(parents=(inscription_id_value(PARENT), inscription_id_value(PARENT)))
    t = tx([witness(child)], [1_000])
    assert places(t, [1_000])[0][4] == ()
    assert places(t, [1_000], {PARENT})[0][4] == (PARENT,)  # repeated once, kept once


def test_no_envelopes_no_inscriptions() -> None:
    assert places(tx([(b"\x01" * 64,)], [1_000]), [1_000]) == []


def test_traits_come_from_metadata_only_when_it_reads() -> None:
    conn = sqlite3.connect(":memory:")
    conn.executescript(PRIMARY_SCHEMA)
    conn.execute(
        "INSERT INTO collections (slug, name, traits, created_ms) VALUES ('c', 'C', ?, 0)",
        ('[{"trait_type": "Hat", "values": ["Cap"]}]',),
    )
    good = metadata_for_traits([{"trait_type": "Hat", "value": "Cap"}])
    assert metadata_traits(conn, "c", good) == [{"trait_type": "Hat", "value": "Cap"}]
    assert metadata_traits(conn, None, good) == []  # no collection, no traits
    assert metadata_traits(conn, "c", b"\x44") == []  # not CBOR: as ord, no metadata
    assert metadata_traits(conn, "c", cbor.encode({"attributes": {"Hat": "Wig"}})) == []
    assert metadata_traits(conn, "c", cbor.encode({"Hat": "Cap"})) == []
    assert metadata_traits(conn, "c", cbor.encode({"attributes": {"Hat": "Cap"}})) == [
        {"trait_type": "Hat", "value": "Cap"}
    ]
