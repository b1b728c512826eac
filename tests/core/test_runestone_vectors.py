"""pyord (app/core/runestone.py) against ord's own runestone test vectors.

Source: github.com/ordinals/ord, crates/ordinals/src/runestone.rs, `mod tests`, at commit
5241ef311e015cff4759a379085c8cc8913e621a (2026-04-03). Each case below names the ord test it
comes from; the integers, scripts and expected artifacts are ord's. Tag and flag numbers are
ord's (crates/ordinals/src/runestone/tag.rs, flag.rs); varints are ord's LEB128 (varint.rs).
ord's `decipher(&[..])` helper puts the payload in one push of a transaction's only output.
"""

from __future__ import annotations

import pytest

from app.core.runestone import (
    Cenotaph,
    Edict,
    Etching,
    Flaw,
    RuneId,
    Runestone,
    Terms,
    decipher,
)
from tests.support.runestones import (
    AMOUNT,
    BODY,
    CAP,
    DIVISIBILITY,
    ETCHING,
    FLAG_CENOTAPH,
    FLAGS,
    HEIGHT_END,
    HEIGHT_START,
    MINT,
    NOP,
    OFFSET_END,
    OFFSET_START,
    OP_13,
    OP_RETURN,
    POINTER,
    PREMINE,
    RUNE,
    SPACERS,
    SYMBOL,
    TAG_CENOTAPH,
    TERMS,
    TURBO,
    push,
    stone_script,
    varint,
)

U32_MAX, U64_MAX, U128_MAX = 2**32 - 1, 2**64 - 1, 2**128 - 1
MAX_RUNE_NAME = "BCGDENLQRQWDSLRUGSNLBTMFIJAV"  # Rune(u128::MAX)


def decipher_integers(integers: list[int]) -> Runestone | Cenotaph | None:
    """ord's test helper `decipher`: one output holding the payload in one push."""
    return decipher([stone_script(integers)])


def edict(block: int, tx: int, amount: int, output: int) -> Edict:
    return Edict(RuneId(block, tx), amount, output)


def etching(**fields: object) -> Etching:
    base: dict[str, object] = {
        "rune": None,
        "divisibility": None,
        "premine": None,
        "spacers": None,
        "symbol": None,
        "terms": None,
        "turbo": False,
    }
    base.update(fields)
    return Etching(**base)  # type: ignore[arg-type]


def terms(**fields: object) -> Terms:
    base: dict[str, object] = {
        "amount": None,
        "cap": None,
        "height": (None, None),
        "offset": (None, None),
    }
    base.update(fields)
    return Terms(**base)  # type: ignore[arg-type]


def stone(
    edicts: tuple[Edict, ...] = (),
    etching: Etching | None = None,
    mint: RuneId | None = None,
    pointer: int | None = None,
) -> Runestone:
    return Runestone(edicts, etching, mint, pointer)


def cenotaph(flaw: Flaw, etching: str | None = None, mint: RuneId | None = None) -> Cenotaph:
    return Cenotaph(flaw, etching, mint)


ONE_EDICT = (edict(1, 1, 2, 0),)  # ord's `rune_id(1)`, amount 2, output 0

# (ord's test name, integers, expected) for ord's `decipher(&[..])` cases.
INTEGER_CASES = [
    ("deciphering_non_empty_runestone_is_successful", [BODY, 1, 1, 2, 0], stone(ONE_EDICT)),
    ("decipher_etching", [FLAGS, ETCHING, BODY, 1, 1, 2, 0], stone(ONE_EDICT, etching())),
    (
        "decipher_etching_with_rune",
        [FLAGS, ETCHING, RUNE, 4, BODY, 1, 1, 2, 0],
        stone(ONE_EDICT, etching(rune="E")),
    ),
    (
        "terms_flag_without_etching_flag_produces_cenotaph",
        [FLAGS, TERMS, BODY, 0, 0, 0, 0],
        cenotaph(Flaw.UNRECOGNIZED_FLAG),
    ),
    (
        "decipher_etching_with_term",
        [FLAGS, ETCHING | TERMS, OFFSET_END, 4, BODY, 1, 1, 2, 0],
        stone(ONE_EDICT, etching(terms=terms(offset=(None, 4)))),
    ),
    (
        "decipher_etching_with_amount",
        [FLAGS, ETCHING | TERMS, AMOUNT, 4, BODY, 1, 1, 2, 0],
        stone(ONE_EDICT, etching(terms=terms(amount=4))),
    ),
    (
        "duplicate_even_tags_produce_cenotaph",
        [FLAGS, ETCHING, RUNE, 4, RUNE, 5, BODY, 1, 1, 2, 0],
        cenotaph(Flaw.UNRECOGNIZED_EVEN_TAG, etching="E"),
    ),
    (
        "duplicate_odd_tags_are_ignored",
        [FLAGS, ETCHING, DIVISIBILITY, 4, DIVISIBILITY, 5, BODY, 1, 1, 2, 0],
        stone(ONE_EDICT, etching(divisibility=4)),
    ),
    ("unrecognized_odd_tag_is_ignored", [NOP, 100, BODY, 1, 1, 2, 0], stone(ONE_EDICT)),
    (
        "runestone_with_unrecognized_even_tag_is_cenotaph",
        [TAG_CENOTAPH, 0, BODY, 1, 1, 2, 0],
        cenotaph(Flaw.UNRECOGNIZED_EVEN_TAG),
    ),
    (
        "runestone_with_unrecognized_flag_is_cenotaph",
        [FLAGS, FLAG_CENOTAPH, BODY, 1, 1, 2, 0],
        cenotaph(Flaw.UNRECOGNIZED_FLAG),
    ),
    (
        "runestone_with_edict_id_with_zero_block_and_nonzero_tx_is_cenotaph",
        [BODY, 0, 1, 2, 0],
        cenotaph(Flaw.EDICT_RUNE_ID),
    ),
    (
        "runestone_with_overflowing_edict_id_delta_is_cenotaph (1)",
        [BODY, 1, 0, 0, 0, U64_MAX, 0, 0, 0],
        cenotaph(Flaw.EDICT_RUNE_ID),
    ),
    (
        "runestone_with_overflowing_edict_id_delta_is_cenotaph (2)",
        [BODY, 1, 1, 0, 0, 0, U64_MAX, 0, 0],
        cenotaph(Flaw.EDICT_RUNE_ID),
    ),
    ("runestone_with_output_over_max_is_cenotaph", [BODY, 1, 1, 2, 2], cenotaph(Flaw.EDICT_OUTPUT)),
    ("tag_with_no_value_is_cenotaph", [FLAGS, 1, FLAGS], cenotaph(Flaw.TRUNCATED_FIELD)),
    (
        "decipher_etching_with_divisibility",
        [FLAGS, ETCHING, RUNE, 4, DIVISIBILITY, 5, BODY, 1, 1, 2, 0],
        stone(ONE_EDICT, etching(rune="E", divisibility=5)),
    ),
    (
        "divisibility_above_max_is_ignored",
        [FLAGS, ETCHING, RUNE, 4, DIVISIBILITY, 39, BODY, 1, 1, 2, 0],
        stone(ONE_EDICT, etching(rune="E")),
    ),
    (
        "symbol_above_max_is_ignored",
        [FLAGS, ETCHING, SYMBOL, 0x10FFFF + 1, BODY, 1, 1, 2, 0],
        stone(ONE_EDICT, etching()),
    ),
    (
        "decipher_etching_with_symbol",
        [FLAGS, ETCHING, RUNE, 4, SYMBOL, ord("a"), BODY, 1, 1, 2, 0],
        stone(ONE_EDICT, etching(rune="E", symbol="a")),
    ),
    (
        "decipher_etching_with_all_etching_tags",
        [
            *[FLAGS, ETCHING | TERMS | TURBO, RUNE, 4, DIVISIBILITY, 1, SPACERS, 5],
            *[SYMBOL, ord("a"), OFFSET_END, 2, AMOUNT, 3, PREMINE, 8, CAP, 9, POINTER, 0],
            *[MINT, 1, MINT, 1, BODY, 1, 1, 2, 0],
        ],
        stone(
            ONE_EDICT,
            etching(
                divisibility=1,
                premine=8,
                rune="E",
                spacers=5,
                symbol="a",
                terms=terms(cap=9, offset=(None, 2), amount=3),
                turbo=True,
            ),
            mint=RuneId(1, 1),
            pointer=0,
        ),
    ),
    (
        "recognized_even_etching_fields_produce_cenotaph_if_etching_flag_is_not_set",
        [RUNE, 4],
        cenotaph(Flaw.UNRECOGNIZED_EVEN_TAG),
    ),
    (
        "decipher_etching_with_divisibility_and_symbol",
        [FLAGS, ETCHING, RUNE, 4, DIVISIBILITY, 1, SYMBOL, ord("a"), BODY, 1, 1, 2, 0],
        stone(ONE_EDICT, etching(rune="E", divisibility=1, symbol="a")),
    ),
    (
        "tag_values_are_not_parsed_as_tags",
        [FLAGS, ETCHING, DIVISIBILITY, BODY, BODY, 1, 1, 2, 0],
        stone(ONE_EDICT, etching(divisibility=0)),
    ),
    (
        "runestone_may_contain_multiple_edicts",
        [BODY, 1, 1, 2, 0, 0, 3, 5, 0],
        stone((edict(1, 1, 2, 0), edict(1, 4, 5, 0))),
    ),
    (
        "runestones_with_invalid_rune_id_blocks_are_cenotaph",
        [BODY, 1, 1, 2, 0, U128_MAX, 1, 0, 0],
        cenotaph(Flaw.EDICT_RUNE_ID),
    ),
    (
        "runestones_with_invalid_rune_id_txs_are_cenotaph",
        [BODY, 1, 1, 2, 0, 1, U128_MAX, 0, 0],
        cenotaph(Flaw.EDICT_RUNE_ID),
    ),
    (
        "etching_with_term_greater_than_maximum_is_still_an_etching",
        [FLAGS, ETCHING, OFFSET_END, U64_MAX + 1],
        cenotaph(Flaw.UNRECOGNIZED_EVEN_TAG),
    ),
    (
        "edict_output_greater_than_32_max_produces_cenotaph",
        [BODY, 1, 1, 1, U32_MAX + 1],
        cenotaph(Flaw.EDICT_OUTPUT),
    ),
    ("partial_mint_produces_cenotaph", [MINT, 1], cenotaph(Flaw.UNRECOGNIZED_EVEN_TAG)),
    ("invalid_mint_produces_cenotaph", [MINT, 0, MINT, 1], cenotaph(Flaw.UNRECOGNIZED_EVEN_TAG)),
    (
        "invalid_deadline_produces_cenotaph",
        [OFFSET_END, U128_MAX],
        cenotaph(Flaw.UNRECOGNIZED_EVEN_TAG),
    ),
    (
        "invalid_default_output_produces_cenotaph (1)",
        [POINTER, 1],
        cenotaph(Flaw.UNRECOGNIZED_EVEN_TAG),
    ),
    (
        "invalid_default_output_produces_cenotaph (2)",
        [POINTER, U128_MAX],
        cenotaph(Flaw.UNRECOGNIZED_EVEN_TAG),
    ),
    ("invalid_divisibility_does_not_produce_cenotaph", [DIVISIBILITY, U128_MAX], stone()),
    (
        "min_and_max_runes_are_not_cenotaphs (min)",
        [FLAGS, ETCHING, RUNE, 0],
        stone(etching=etching(rune="A")),
    ),
    (
        "min_and_max_runes_are_not_cenotaphs (max)",
        [FLAGS, ETCHING, RUNE, U128_MAX],
        stone(etching=etching(rune=MAX_RUNE_NAME)),
    ),
    ("invalid_spacers_does_not_produce_cenotaph", [SPACERS, U128_MAX], stone()),
    ("invalid_symbol_does_not_produce_cenotaph", [SYMBOL, U128_MAX], stone()),
    (
        "invalid_term_produces_cenotaph",
        [OFFSET_END, U128_MAX],
        cenotaph(Flaw.UNRECOGNIZED_EVEN_TAG),
    ),
    (
        "invalid_supply_produces_cenotaph (cap 1: fits)",
        [FLAGS, ETCHING | TERMS, CAP, 1, AMOUNT, U128_MAX],
        stone(etching=etching(terms=terms(cap=1, amount=U128_MAX))),
    ),
    (
        "invalid_supply_produces_cenotaph (cap 2)",
        [FLAGS, ETCHING | TERMS, CAP, 2, AMOUNT, U128_MAX],
        cenotaph(Flaw.SUPPLY_OVERFLOW),
    ),
    (
        "invalid_supply_produces_cenotaph (half + 1)",
        [FLAGS, ETCHING | TERMS, CAP, 2, AMOUNT, U128_MAX // 2 + 1],
        cenotaph(Flaw.SUPPLY_OVERFLOW),
    ),
    (
        "invalid_supply_produces_cenotaph (premine)",
        [FLAGS, ETCHING | TERMS, PREMINE, 1, CAP, 1, AMOUNT, U128_MAX],
        cenotaph(Flaw.SUPPLY_OVERFLOW),
    ),
]

# `recognized_fields_without_flag_produces_cenotaph`: each an UnrecognizedEvenTag cenotaph.
RECOGNIZED_WITHOUT_FLAG = [
    [PREMINE, 0],
    [RUNE, 0],
    [CAP, 0],
    [AMOUNT, 0],
    [OFFSET_START, 0],
    [OFFSET_END, 0],
    [HEIGHT_START, 0],
    [HEIGHT_END, 0],
    [FLAGS, ETCHING, CAP, 0],
    [FLAGS, ETCHING, AMOUNT, 0],
    [FLAGS, ETCHING, OFFSET_START, 0],
    [FLAGS, ETCHING, OFFSET_END, 0],
    [FLAGS, ETCHING, HEIGHT_START, 0],
    [FLAGS, ETCHING, HEIGHT_END, 0],
]


@pytest.mark.parametrize(
    ("integers", "expected"),
    [pytest.param(i, e, id=name) for name, i, e in INTEGER_CASES],
)
def test_ord_decipher_vectors(integers: list[int], expected: object) -> None:
    assert decipher_integers(integers) == expected


@pytest.mark.parametrize("integers", RECOGNIZED_WITHOUT_FLAG)
def test_recognized_fields_without_flag_produces_cenotaph(integers: list[int]) -> None:
    assert decipher_integers(integers) == cenotaph(Flaw.UNRECOGNIZED_EVEN_TAG)


def test_trailing_integers_in_body_is_cenotaph() -> None:
    integers = [BODY, 1, 1, 2, 0]
    for i in range(4):
        expected = stone(ONE_EDICT) if i == 0 else cenotaph(Flaw.TRAILING_INTEGERS)
        assert decipher_integers(integers) == expected
        integers.append(0)


EMPTY_STONE = OP_RETURN + OP_13


@pytest.mark.parametrize(
    ("scripts", "expected"),
    [
        pytest.param([b"\x04"], None, id="decipher_returns_none_if_first_opcode_is_malformed"),
        pytest.param([], None, id="deciphering_transaction_with_no_outputs_returns_none"),
        pytest.param([b"\x00"], None, id="deciphering_transaction_with_non_op_return_output"),
        pytest.param([OP_RETURN], None, id="deciphering_transaction_with_bare_op_return"),
        pytest.param([OP_RETURN + push(b"FOOO")], None, id="non_matching_op_return"),
        pytest.param(
            [EMPTY_STONE + b"\x04"],
            cenotaph(Flaw.INVALID_SCRIPT),
            id="invalid_scripts_in_op_returns_with_magic_number_produce_cenotaph",
        ),
        pytest.param(
            [EMPTY_STONE + push(b"\x80")],
            cenotaph(Flaw.VARINT),
            id="invalid_varint_produces_cenotaph",
        ),
        pytest.param(
            [
                EMPTY_STONE
                + b"\x69"
                + push(b"\x00")
                + push(b"\x01")
                + push(b"\x01")
                + push(b"\x02\x00"),
                EMPTY_STONE + push(b"\x00") + push(b"\x01") + push(b"\x02") + push(b"\x03\x00"),
            ],
            cenotaph(Flaw.OPCODE),
            id="outputs_with_non_pushdata_opcodes_are_cenotaph",
        ),
        pytest.param(
            [EMPTY_STONE + b"\x51"], cenotaph(Flaw.OPCODE), id="pushnum_opcodes_in_runestone"
        ),
        pytest.param([EMPTY_STONE], stone(), id="deciphering_empty_runestone_is_successful"),
        pytest.param(
            [OP_RETURN + b"\x09" + OP_13 + b"\x04", stone_script([MINT, 1, MINT, 1])],
            stone(mint=RuneId(1, 1)),
            id="invalid_input_scripts_are_skipped_when_searching_for_runestone",
        ),
        pytest.param(
            [
                EMPTY_STONE
                + b"".join(push(varint(i)) for i in [FLAGS, ETCHING, DIVISIBILITY, 5])
                + b"".join(push(varint(i)) for i in [BODY, 1, 1, 2, 0])
            ],
            stone(ONE_EDICT, etching(divisibility=5)),
            id="payload_pushes_are_concatenated",
        ),
        pytest.param(
            [b"", stone_script([0, 1, 1, 2, 0])],
            stone(ONE_EDICT),
            id="runestone_may_be_in_second_output",
        ),
        pytest.param(
            [OP_RETURN + push(b"FOO"), stone_script([0, 1, 1, 2, 0])],
            stone(ONE_EDICT),
            id="runestone_may_be_after_non_matching_op_return",
        ),
        pytest.param(
            [OP_RETURN + b"\x04"],
            None,
            id="invalid_scripts_in_op_returns_without_magic_number_are_ignored (1)",
        ),
        pytest.param(
            [OP_RETURN + b"\x04", EMPTY_STONE],
            stone(),
            id="invalid_scripts_in_op_returns_without_magic_number_are_ignored (2)",
        ),
    ],
)
def test_ord_transaction_vectors(scripts: list[bytes], expected: object) -> None:
    assert decipher(scripts) == expected


def _pushdata_script(i: int) -> bytes:
    """ord's `all_pushdata_opcodes_are_valid`: opcode i and the bytes ord puts after it."""
    body = bytearray(EMPTY_STONE + bytes([i]))
    if i <= 75:
        body += bytes(1 if j % 2 == 0 else 0 for j in range(i))
        if i % 2 == 1:
            body += b"\x01\x01"
    else:
        body += bytes({76: 1, 77: 2, 78: 4}[i])
    return bytes(body)


@pytest.mark.parametrize("i", range(79))
def test_all_pushdata_opcodes_are_valid(i: int) -> None:
    assert decipher([_pushdata_script(i)]) == stone()


@pytest.mark.parametrize("i", range(79, 256))
def test_all_non_pushdata_opcodes_are_invalid(i: int) -> None:
    assert decipher([EMPTY_STONE + bytes([i])]) == cenotaph(Flaw.OPCODE)


# ord's `encipher` test: the integers ord writes for a runestone, read back as that runestone.
ENCIPHER_CASES = [
    ([], stone()),
    (
        [
            *[FLAGS, ETCHING | TERMS | TURBO, RUNE, 9, DIVISIBILITY, 7, SPACERS, 10],
            *[SYMBOL, ord("@"), PREMINE, 8, AMOUNT, 14, CAP, 11, HEIGHT_START, 12],
            *[HEIGHT_END, 13, OFFSET_START, 15, OFFSET_END, 16, MINT, 17, MINT, 18, POINTER, 0],
            *[BODY, 2, 3, 1, 0, 3, 6, 4, 1],
        ],
        stone(
            (edict(2, 3, 1, 0), edict(5, 6, 4, 1)),
            etching(
                divisibility=7,
                premine=8,
                rune="J",
                spacers=10,
                symbol="@",
                terms=terms(cap=11, height=(12, 13), amount=14, offset=(15, 16)),
                turbo=True,
            ),
            mint=RuneId(17, 18),
            pointer=0,
        ),
    ),
    ([FLAGS, ETCHING, RUNE, 3], stone(etching=etching(rune="D"))),
    ([FLAGS, ETCHING], stone(etching=etching())),
]


@pytest.mark.parametrize(("integers", "expected"), ENCIPHER_CASES)
def test_encipher_vectors_read_back(integers: list[int], expected: Runestone) -> None:
    # ord's case has two outputs' worth of edicts (output 1): give the transaction two outputs.
    assert decipher([stone_script(integers), b"\x51"]) == expected


def test_flaw_reasons_are_ords() -> None:
    """Our words for each flaw are ord's Display (flaw.rs), and pyord numbers them in ord's
    order."""
    import pyord

    assert [f.reason for f in pyord.Flaw.all()] == [cenotaph(flaw).reason for flaw in Flaw]
