"""Rune names by ord's rules (cases from ord's own tests of `Rune` and `SpacedRune`,
crates/ordinals/src/rune.rs and spaced_rune.rs), and names compared whatever their spacers."""

from __future__ import annotations

import pytest

from app.core.rune_names import (
    MAX_RUNE_VALUE,
    RuneNameError,
    SpacedRune,
    parse_spaced_rune,
    parse_typed_rune,
    rune_letters,
    rune_value,
    same_rune,
)


@pytest.mark.parametrize(
    ("text", "letters", "spacers"),
    [
        ("A.B", "AB", 0b1),
        ("A.B.C", "ABC", 0b11),
        ("A•B", "AB", 0b1),
        ("A•B•C", "ABC", 0b11),
        ("A•BC", "ABC", 0b1),
        ("DOG•GO•TO•THE•MOON", "DOGGOTOTHEMOON", 0b1001010100),  # after G, O, O, E
        ("UNCOMMONGOODS", "UNCOMMONGOODS", 0),
    ],
)
def test_ord_reads_spaced_names(text: str, letters: str, spacers: int) -> None:
    assert parse_spaced_rune(text) == SpacedRune(letters, spacers)


@pytest.mark.parametrize(
    ("text", "shown"),
    [("A.B", "A•B"), ("A.B.C", "A•B•C"), ("DOG.GO.TO.THE.MOON", "DOG•GO•TO•THE•MOON")],
)
def test_ord_writes_every_spacer_as_a_bullet(text: str, shown: str) -> None:
    assert str(parse_spaced_rune(text)) == shown


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        (".A", "start with a spacer"),
        ("A..B", "two spacers in a row"),
        ("A.", "end with a spacer"),
        ("Ax", "'x' cannot be in a rune name"),
        ("A B", "' ' cannot be in a rune name"),  # ord's parse knows no look-alikes
        ("", "at least one letter"),
        ("BCGDENLQRQWDSLRUGSNLBTMFIJAW", "past the last rune name"),
        ("BCGDENLQRQWDSLRUGSNLBTMFIJAVX", "past the last rune name"),
    ],
)
def test_names_ord_refuses(text: str, rule: str) -> None:
    with pytest.raises(RuneNameError, match=rule):
        parse_spaced_rune(text)


@pytest.mark.parametrize(
    ("letters", "value"),
    [
        ("A", 0),
        ("Z", 25),
        ("AA", 26),
        ("AZ", 51),
        ("BA", 52),
        ("BCGDENLQRQWDSLRUGSNLBTMFIJAT", MAX_RUNE_VALUE - 2),
        ("BCGDENLQRQWDSLRUGSNLBTMFIJAV", MAX_RUNE_VALUE),
    ],
)
def test_rune_values_as_ord_numbers_them(letters: str, value: int) -> None:
    assert rune_value(letters) == value
    assert parse_spaced_rune(letters).letters == letters


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("DOGGOTOTHEMOON", "DOGGOTOTHEMOON"),
        ("dog.go.to.the.moon", "DOG•GO•TO•THE•MOON"),
        ("  Dog·Go·To·The·Moon ", "DOG•GO•TO•THE•MOON"),
        ("DOG GO TO THE MOON", "DOG•GO•TO•THE•MOON"),
        ("DOG∙GO", "DOG•GO"),
    ],
)
def test_typed_names_are_read_kindly(typed: str, read: str) -> None:
    assert str(parse_typed_rune(typed)) == read


@pytest.mark.parametrize("typed", ["", "   ", "DOG-GO", "DOG  GO", "•DOG", "DOG1"])
def test_typed_names_still_follow_ords_rules(typed: str) -> None:
    with pytest.raises(RuneNameError):
        parse_typed_rune(typed)


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("DOG•GO•TO•THE•MOON", "DOGGOTOTHEMOON", True),
        ("DOG•GO•TO•THE•MOON", "DOGGO.TOTHE.MOON", True),
        ("DOG•GO•TO•THE•MOON", "dog go to the moon", True),
        ("DOG•GO", "DOG•GOD", False),
        ("UNCOMMON•GOODS", "UNCOMMONGOOD", False),
    ],
)
def test_names_compare_by_their_letters(a: str, b: str, same: bool) -> None:
    assert same_rune(a, b) is same
    assert (rune_letters(a) == rune_letters(b)) is same
