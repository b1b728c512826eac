"""ord's own envelope test cases, re-run against app.core.inscription_envelope.

Source: github.com/ordinals/ord at commit 5241ef311e015cff4759a379085c8cc8913e621a,
`src/inscriptions/envelope.rs` (mod tests), `src/inscriptions/inscription.rs` (mod tests) and the
`envelope()` helper of `src/test.rs`. Each test names the ord test it transcribes.
"""

from __future__ import annotations

import pytest

from app.core.inscription_envelope import (
    OP_1NEGATE,
    OP_CHECKSIG,
    OP_ENDIF,
    OP_IF,
    PROTOCOL_ID,
    TAG_CONTENT_ENCODING,
    TAG_CONTENT_TYPE,
    TAG_METADATA,
    TAG_NOP,
    TAG_POINTER,
    TAG_PROPERTIES,
    TAG_UNBOUND,
    Envelope,
    Inscription,
    envelope_script,
    envelopes_from_witnesses,
    inscription_id_from_value,
    inscription_id_value,
    instruction_count,
    pointer_field,
    push,
)

OP_FALSE = 0x00
TEXT = b"text/plain;charset=utf-8"


def envelope(*payload: bytes) -> tuple[bytes, ...]:
    """src/test.rs `envelope`: OP_FALSE OP_IF <pushes> OP_ENDIF as a script-path witness."""
    script = bytes([OP_FALSE, OP_IF]) + b"".join(push(p) for p in payload) + bytes([OP_ENDIF])
    return (script, b"")


def inscription(content_type: bytes, body: bytes) -> Inscription:
    return Inscription(content_type=content_type, body=body)


def to_witness(ins: Inscription) -> tuple[bytes, ...]:
    return (envelope_script(ins), b"")


def parse(*witnesses: tuple[bytes, ...]) -> list[Envelope]:
    return envelopes_from_witnesses(list(witnesses))


def ops(*parts: int | bytes) -> bytes:
    """A script from opcodes (int) and data pushes (bytes)."""
    return b"".join(bytes([p]) if isinstance(p, int) else push(p) for p in parts)


def test_empty_and_key_path_spends() -> None:  # empty, ignore_key_path_spends(_with_annex)
    bare = ops(OP_FALSE, OP_IF, PROTOCOL_ID, OP_ENDIF)
    assert parse(()) == []
    assert parse((bare,)) == []
    assert parse((bare, b"\x50")) == []


def test_parse_from_tapscript() -> None:
    assert parse((ops(OP_FALSE, OP_IF, PROTOCOL_ID, OP_ENDIF), b"")) == [Envelope(0, 0)]


def test_annex_is_skipped() -> None:  # lib.rs unversioned_leaf_script_from_witness
    script = ops(OP_FALSE, OP_IF, PROTOCOL_ID, OP_ENDIF)
    assert parse((script, b"", b"\x50\x01")) == [Envelope(0, 0)]


def test_ignore_unparsable_scripts() -> None:
    script = ops(OP_FALSE, OP_IF, PROTOCOL_ID, OP_ENDIF) + b"\x01"
    assert parse((script, b"")) == []


def test_no_inscription() -> None:
    assert parse((b"", b"")) == []


def test_duplicate_field() -> None:
    nop = bytes([TAG_NOP])
    assert parse(envelope(PROTOCOL_ID, nop, b"", nop, b"")) == [
        Envelope(0, 0, Inscription(duplicate_field=True))
    ]


def test_with_content_type() -> None:
    assert parse(envelope(PROTOCOL_ID, bytes([TAG_CONTENT_TYPE]), TEXT, b"", b"ord")) == [
        Envelope(0, 0, inscription(TEXT, b"ord"))
    ]


def test_with_content_encoding() -> None:
    got = parse(
        envelope(PROTOCOL_ID, b"\x01", TEXT, bytes([TAG_CONTENT_ENCODING]), b"br", b"", b"ord")
    )
    assert got == [
        Envelope(0, 0, Inscription(content_type=TEXT, body=b"ord", content_encoding=b"br"))
    ]


def test_with_unknown_odd_tag() -> None:  # with_unknown_tag, unknown_odd_fields_are_ignored
    assert parse(envelope(PROTOCOL_ID, b"\x01", TEXT, bytes([TAG_NOP]), b"bar", b"", b"ord")) == [
        Envelope(0, 0, inscription(TEXT, b"ord"))
    ]
    assert parse(envelope(PROTOCOL_ID, bytes([TAG_NOP]), b"\x00")) == [Envelope(0, 0)]


def test_no_body_and_no_content_type() -> None:  # no_body, no_content_type
    assert parse(envelope(PROTOCOL_ID, b"\x01", TEXT)) == [
        Envelope(0, 0, Inscription(content_type=TEXT))
    ]
    assert parse(envelope(b"ord", b"", b"foo")) == [Envelope(0, 0, Inscription(body=b"foo"))]


def test_body_pushes() -> None:  # valid_body_in_multiple/zero/multiple_empty_pushes
    assert parse(envelope(PROTOCOL_ID, b"\x01", TEXT, b"", b"foo", b"bar")) == [
        Envelope(0, 0, inscription(TEXT, b"foobar"))
    ]
    assert parse(envelope(PROTOCOL_ID, b"\x01", TEXT, b"")) == [
        Envelope(0, 0, inscription(TEXT, b""))
    ]
    assert parse(envelope(PROTOCOL_ID, b"\x01", TEXT, *([b""] * 6))) == [
        Envelope(0, 0, inscription(TEXT, b""))
    ]


def test_trailing_and_preceding_opcodes_ignored() -> None:  # valid_ignore_trailing/preceding
    core = (OP_FALSE, OP_IF, PROTOCOL_ID, b"\x01", TEXT, b"", b"ord", OP_ENDIF)
    expected = [Envelope(0, 0, inscription(TEXT, b"ord"))]
    assert parse((ops(*core, OP_CHECKSIG), b"")) == expected
    assert parse((ops(OP_CHECKSIG, *core), b"")) == expected


def test_multiple_inscriptions_in_a_single_witness() -> None:
    one = (OP_FALSE, OP_IF, PROTOCOL_ID, b"\x01", TEXT, b"", b"foo", OP_ENDIF)
    two = (OP_FALSE, OP_IF, PROTOCOL_ID, b"\x01", TEXT, b"", b"bar", OP_ENDIF)
    assert parse((ops(*one, *two), b"")) == [
        Envelope(0, 0, inscription(TEXT, b"foo")),
        Envelope(0, 1, inscription(TEXT, b"bar")),
    ]


def test_invalid_utf8_does_not_render_inscription_invalid() -> None:
    assert parse(envelope(PROTOCOL_ID, b"\x01", TEXT, b"", b"\x80")) == [
        Envelope(0, 0, inscription(TEXT, b"\x80"))
    ]


def test_incomplete_envelopes() -> None:  # no_endif, no_op_false, empty_envelope, wrong_protocol
    assert parse((ops(OP_FALSE, OP_IF, PROTOCOL_ID), b"")) == []
    assert parse((ops(OP_IF, PROTOCOL_ID, OP_ENDIF), b"")) == []
    assert parse(envelope()) == []
    assert parse(envelope(b"foo")) == []


def test_extract_from_second_input() -> None:  # body of 1040 bytes: two 520-byte pushes
    ins = inscription(b"foo", b"\x01" * 1040)
    assert parse((), to_witness(ins)) == [Envelope(1, 0, ins)]


def test_extract_from_second_envelope() -> None:
    foo, bar = inscription(b"foo", b"\x01" * 100), inscription(b"bar", b"\x01" * 100)
    script = envelope_script(foo) + envelope_script(bar)
    assert parse((script, b"")) == [Envelope(0, 0, foo), Envelope(0, 1, bar)]


def test_envelopes_across_inputs() -> None:  # numbering restarts per input (offset), input kept
    a, b = inscription(b"a", b"1"), inscription(b"b", b"2")
    got = parse(to_witness(a), (b"",), (envelope_script(a) + envelope_script(b), b""))
    assert got == [Envelope(0, 0, a), Envelope(2, 0, a), Envelope(2, 1, b)]


def test_chunked_data_and_round_trips() -> (
    None
):  # chunked_data_is_parsable, round_trip_with_no_fields, inscribe_png
    for ins in (
        inscription(b"foo", b"\x01" * 1040),
        Inscription(),
        inscription(b"image/png", b"\x01" * 100),
    ):
        assert parse(to_witness(ins)) == [Envelope(0, 0, ins)]


def test_unknown_even_fields_make_the_inscription_unbound() -> None:
    # unknown_even_fields, tag_66_makes_inscriptions_unbound
    assert parse(envelope(PROTOCOL_ID, bytes([22]), b"\x00")) == [
        Envelope(0, 0, Inscription(unrecognized_even_field=True))
    ]
    assert parse(envelope(PROTOCOL_ID, bytes([TAG_UNBOUND]), b"\x01")) == [
        Envelope(0, 0, Inscription(unrecognized_even_field=True))
    ]


def test_pointer_fields() -> None:
    # pointer_field_is_recognized, duplicate_pointer_field_makes_inscription_unbound
    assert parse(envelope(PROTOCOL_ID, b"\x02", b"\x01")) == [
        Envelope(0, 0, Inscription(pointer=b"\x01"))
    ]
    assert parse(envelope(PROTOCOL_ID, b"\x02", b"\x01", b"\x02", b"\x00")) == [
        Envelope(
            0, 0,
            Inscription(pointer=b"\x01", duplicate_field=True, unrecognized_even_field=True),
        )
    ]  # fmt: skip


def test_incomplete_field() -> None:
    assert parse(envelope(PROTOCOL_ID, bytes([99]))) == [
        Envelope(0, 0, Inscription(incomplete_field=True))
    ]


@pytest.mark.parametrize("tag", [TAG_METADATA, TAG_PROPERTIES])
def test_chunked_fields(
    tag: int,
) -> None:  # metadata_/properties_are_parsed_correctly(_from_chunks)
    key = "metadata" if tag == TAG_METADATA else "properties"
    assert parse(envelope(PROTOCOL_ID, bytes([tag]), b"")) == [
        Envelope(0, 0, Inscription(**{key: b""}))
    ]
    assert parse(envelope(PROTOCOL_ID, bytes([tag]), b"\x00", bytes([tag]), b"\x01")) == [
        Envelope(0, 0, Inscription(duplicate_field=True, **{key: b"\x00\x01"}))
    ]


@pytest.mark.parametrize(
    ("opcode", "value"), [(OP_1NEGATE, 0x81)] + [(0x50 + n, n) for n in range(1, 17)]
)
def test_pushnum_opcodes_are_parsed_correctly(opcode: int, value: int) -> None:
    script = ops(OP_FALSE, OP_IF, PROTOCOL_ID, OP_FALSE, opcode, OP_ENDIF)
    assert parse((script, b"")) == [Envelope(0, 0, Inscription(body=bytes([value])), pushnum=True)]


def test_stuttering() -> None:
    tail = (OP_FALSE, OP_IF, PROTOCOL_ID, OP_ENDIF)
    stuttered = [Envelope(0, 0, stutter=True)]
    assert parse((ops(OP_FALSE, *tail), b"")) == stuttered
    assert parse((ops(OP_FALSE, OP_IF, *tail), b"")) == stuttered
    assert parse((ops(OP_FALSE, OP_IF, OP_FALSE, OP_IF, *tail), b"")) == stuttered
    op_and = 0x84
    assert parse((ops(OP_FALSE, OP_FALSE, op_and, *tail), b"")) == [Envelope(0, 0)]


# -- inscription.rs ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "count"), [(0, 7), (1, 8), (520, 8), (521, 9), (1040, 9), (1041, 10)]
)
def test_reveal_script_chunks_body(size: int, count: int) -> None:
    assert instruction_count(envelope_script(inscription(b"foo", bytes(size)))) == count


@pytest.mark.parametrize("key", ["metadata", "properties"])
@pytest.mark.parametrize(("size", "count"), [(None, 4), (0, 4), (1, 6), (520, 6), (521, 8)])
def test_reveal_script_chunks_metadata_and_properties(
    key: str, size: int | None, count: int
) -> None:
    value = None if size is None else bytes(size)
    assert instruction_count(envelope_script(Inscription(**{key: value}))) == count


def test_split_metadata_reads_back_whole() -> None:  # 1100 bytes in three pushes, read as one
    ins = Inscription(metadata=bytes(range(256)) * 4 + bytes(76))
    [got] = parse(to_witness(ins))
    assert got.payload.metadata == ins.metadata and got.payload.duplicate_field


def test_parents() -> None:  # inscription_parent_* and inscription_with_parent_field_*
    ff = b"\xff" * 32
    assert Inscription(parents=(b"",)).parent_ids() == []
    assert Inscription(parents=(b"\x01" * 37,)).parent_ids() == []
    assert Inscription(parents=(b"\x01" * 35 + b"\x00",)).parent_ids() != []
    assert Inscription(parents=(b"\x01" * 34 + b"\x00",)).parent_ids() == []
    assert Inscription(parents=(bytes(range(32)),)).parent_ids() == [
        "1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100i0"
    ]
    assert Inscription(parents=(b"\x01" * 32,)).parent_ids() == ["01" * 32 + "i0"]
    assert Inscription(parents=(ff + b"\x01",)).parent_ids() == ["ff" * 32 + "i1"]
    assert Inscription(parents=(ff + b"\x01\x02",)).parent_ids() == ["ff" * 32 + "i513"]
    assert Inscription(parents=(ff + b"\x01\x02\x03",)).parent_ids() == ["ff" * 32 + "i197121"]
    assert Inscription(
        parents=(ff + b"\x01\x02\x03\x04", ff + b"\x00\x02\x03\x04")
    ).parent_ids() == [
        "ff" * 32 + "i67305985",
        "ff" * 32 + "i67305984",
    ]


def test_parent_field_round_trip_and_in_envelope() -> None:
    parent = "1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100i300"
    value = inscription_id_value(parent)
    assert inscription_id_from_value(value) == parent and len(value) == 34
    ins = Inscription(
        content_type=b"text/plain",
        parents=(value, inscription_id_value("ab" * 32 + "i0")),
        body=b"x",
    )
    [got] = parse(to_witness(ins))
    assert got.payload.parent_ids() == [parent, "ab" * 32 + "i0"]
    # ord counts duplicates before taking fields, so two parents are a duplicate field too
    # (a curse, vindicated after the jubilee), though both parents are kept (take_array).
    assert got.payload.duplicate_field


def test_pointer_decode_and_encode() -> None:  # pointer_decode, pointer_encode
    assert Inscription().pointer_value() is None
    assert Inscription(pointer=b"\x00").pointer_value() == 0
    assert (
        Inscription(pointer=bytes([1, 2, 3, 4, 5, 6, 7, 8])).pointer_value() == 0x0807060504030201
    )
    assert Inscription(pointer=bytes([1, 2, 3, 4, 5, 6])).pointer_value() == 0x0000060504030201
    assert (
        Inscription(pointer=bytes([1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 0])).pointer_value()
        == 0x0807060504030201
    )
    assert (
        Inscription(pointer=bytes([1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 1])).pointer_value() is None
    )
    assert Inscription(pointer=bytes([1, 2, 3, 4, 5, 6, 7, 8, 1])).pointer_value() is None
    assert to_witness(Inscription()) == envelope(b"ord")
    assert to_witness(Inscription(pointer=b"\x01\x02\x03")) == envelope(
        b"ord", b"\x02", b"\x01\x02\x03"
    )
    assert pointer_field(0x030201) == b"\x01\x02\x03" and pointer_field(0) == b""


def test_tag_numbers() -> None:  # tag.rs
    assert (TAG_POINTER, TAG_CONTENT_TYPE, TAG_METADATA, TAG_UNBOUND, TAG_NOP) == (2, 1, 5, 66, 255)
