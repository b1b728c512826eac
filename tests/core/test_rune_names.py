"""Rune names by ord's rules (cases from ord's own tests of `Rune` and `SpacedRune`,
crates/ordinals/src/rune.rs and spaced_rune.rs), and names compared whatever their spacers."""

from __future__ import annotations

import pytest

from app.core.rune_names import (
    MAX_RUNE_LETTERS,
    MAX_RUNE_VALUE,
    RESERVED_RUNE_VALUE,
    SUBSIDY_HALVING_INTERVAL,
    RuneNameError,
    SpacedRune,
    minimum_at_height,
    parse_spaced_rune,
    parse_typed_rune,
    rune_commitment,
    rune_letters,
    rune_name,
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


# --- ord's own test vectors ------------------------------------------------------------------
# Ported from ordinals/ord at commit 5241ef311e015cff4759a379085c8cc8913e621a:
# crates/ordinals/src/spaced_rune.rs (tests `display`, `from_str`, `serde`) and
# crates/ordinals/src/rune.rs (tests `round_trip`, `from_str_error`, `steps`, `reserved`).
# ord's errors map to our rules: LeadingSpacer, DoubleSpacer, TrailingSpacer, Character(c)
# and Rune(Range) (spaced_rune.rs `Error`, rune.rs `Error`).
ORD_ERRORS = {
    "LeadingSpacer": "cannot start with a spacer",
    "DoubleSpacer": "cannot have two spacers in a row",
    "TrailingSpacer": "cannot end with a spacer",
    "Range": "past the last rune name",
}


@pytest.mark.parametrize(
    ("text", "shown"),
    [("A.B", "A•B"), ("A.B.C", "A•B•C")],
)
def test_ord_spaced_rune_rs_display(text: str, shown: str) -> None:
    """spaced_rune.rs `display`: `"A.B".parse::<SpacedRune>().unwrap().to_string() == "A•B"`."""
    assert str(parse_spaced_rune(text)) == shown


def test_ord_spaced_rune_rs_display_drops_a_spacer_after_the_last_letter() -> None:
    """spaced_rune.rs `display`: `SpacedRune { rune: Rune(0), spacers: 1 }` shows as "A"."""
    assert str(SpacedRune("A", 0b1)) == "A"


@pytest.mark.parametrize(
    ("text", "letters", "spacers"),
    [
        ("A.B", "AB", 0b1),
        ("A.B.C", "ABC", 0b11),
        ("A•B", "AB", 0b1),
        ("A•B•C", "ABC", 0b11),
        ("A•BC", "ABC", 0b1),
    ],
)
def test_ord_spaced_rune_rs_from_str(text: str, letters: str, spacers: int) -> None:
    """spaced_rune.rs `from_str`: `case(s, rune, spacers)`."""
    assert parse_spaced_rune(text) == SpacedRune(letters, spacers)


@pytest.mark.parametrize(
    ("text", "ord_error"),
    [(".A", "LeadingSpacer"), ("A..B", "DoubleSpacer"), ("A.", "TrailingSpacer")],
)
def test_ord_spaced_rune_rs_from_str_errors(text: str, ord_error: str) -> None:
    """spaced_rune.rs `from_str`: `".A".parse::<SpacedRune>().unwrap_err() == LeadingSpacer`..."""
    with pytest.raises(RuneNameError, match=ORD_ERRORS[ord_error]):
        parse_spaced_rune(text)


def test_ord_spaced_rune_rs_from_str_invalid_character() -> None:
    """spaced_rune.rs `from_str`: `"Ax"` is `Error::Character('x')`."""
    with pytest.raises(RuneNameError, match="'x' cannot be in a rune name"):
        parse_spaced_rune("Ax")


def test_ord_spaced_rune_rs_serde() -> None:
    """spaced_rune.rs `serde`: `SpacedRune { rune: Rune(26), spacers: 1 }` is `"A•A"`."""
    assert rune_value("AA") == 26
    assert str(SpacedRune("AA", 0b1)) == "A•A"
    assert parse_spaced_rune("A•A") == SpacedRune("AA", 0b1)


U128_MAX = 2**128 - 1
ORD_ROUND_TRIP = [
    *((n, chr(ord("A") + n)) for n in range(26)),  # case(0, "A") ... case(25, "Z")
    (26, "AA"),
    (27, "AB"),
    (51, "AZ"),
    (52, "BA"),
    (U128_MAX - 2, "BCGDENLQRQWDSLRUGSNLBTMFIJAT"),
    (U128_MAX - 1, "BCGDENLQRQWDSLRUGSNLBTMFIJAU"),
    (U128_MAX, "BCGDENLQRQWDSLRUGSNLBTMFIJAV"),
]


@pytest.mark.parametrize(("n", "name"), ORD_ROUND_TRIP)
def test_ord_rune_rs_round_trip(n: int, name: str) -> None:
    """rune.rs `round_trip`: `s.parse::<Rune>().unwrap() == Rune(n)` (the app keeps names as
    letters, never as numbers, so ord's other half, `Rune(n).to_string()`, has no
    counterpart here; a name reads back as itself)."""
    assert rune_value(name) == n
    assert parse_spaced_rune(name) == SpacedRune(name, 0)
    assert str(parse_spaced_rune(name)) == name


@pytest.mark.parametrize("text", ["BCGDENLQRQWDSLRUGSNLBTMFIJAW", "BCGDENLQRQWDSLRUGSNLBTMFIJAVX"])
def test_ord_rune_rs_from_str_error_range(text: str) -> None:
    """rune.rs `from_str_error`: both are `Error::Range`."""
    with pytest.raises(RuneNameError, match=ORD_ERRORS["Range"]):
        parse_spaced_rune(text)


def test_ord_rune_rs_from_str_error_character() -> None:
    """rune.rs `from_str_error`: `"x"` is `Error::Character('x')`."""
    with pytest.raises(RuneNameError, match="'x' cannot be in a rune name"):
        parse_spaced_rune("x")


# rune.rs `Rune::STEPS`: the value of "A" repeated i + 1 times.
ORD_STEPS = [
    0,
    26,
    702,
    18278,
    475254,
    12356630,
    321272406,
    8353082582,
    217180147158,
    5646683826134,
    146813779479510,
    3817158266467286,
    99246114928149462,
    2580398988131886038,
    67090373691429037014,
    1744349715977154962390,
    45353092615406029022166,
    1179180408000556754576342,
    30658690608014475618984918,
    797125955808376366093607894,
    20725274851017785518433805270,
    538857146126462423479278937046,
    14010285799288023010461252363222,
    364267430781488598271992561443798,
    9470953200318703555071806597538774,
    246244783208286292431866971536008150,
    6402364363415443603228541259936211926,
    166461473448801533683942072758341510102,
]


def test_ord_rune_rs_steps() -> None:
    """rune.rs `steps`: "A" * (i + 1) parses to `Rune(STEPS[i])` until it no longer parses,
    which is right after the last step: 28 letters is the longest name, 29 is out of range."""
    for i, step in enumerate(ORD_STEPS):
        assert rune_value("A" * (i + 1)) == step
        assert parse_spaced_rune("A" * (i + 1)).letters == "A" * (i + 1)
    assert len(ORD_STEPS) == MAX_RUNE_LETTERS
    with pytest.raises(RuneNameError, match=ORD_ERRORS["Range"]):
        parse_spaced_rune("A" * (len(ORD_STEPS) + 1))


def test_ord_rune_rs_reserved() -> None:
    """rune.rs `reserved`: `Rune::RESERVED` is the value of 27 "A"s."""
    assert rune_value("A" * 27) == 6402364363415443603228541259936211926 == RESERVED_RUNE_VALUE


@pytest.mark.parametrize(("n", "name"), ORD_ROUND_TRIP)
def test_ord_rune_rs_display(n: int, name: str) -> None:
    """rune.rs `round_trip`'s other half: `Rune(n).to_string() == s`."""
    assert rune_name(n) == name


TESTNET_FIRST_RUNE_HEIGHT = SUBSIDY_HALVING_INTERVAL * 12


@pytest.mark.parametrize(
    ("height", "first_rune_height", "minimum"),
    [
        (0, TESTNET_FIRST_RUNE_HEIGHT, "AAAAAAAAAAAAA"),
        (SUBSIDY_HALVING_INTERVAL * 12 - 1, TESTNET_FIRST_RUNE_HEIGHT, "AAAAAAAAAAAAA"),
        (SUBSIDY_HALVING_INTERVAL * 12, TESTNET_FIRST_RUNE_HEIGHT, "ZZYZXBRKWXVA"),
        (SUBSIDY_HALVING_INTERVAL * 12 + 1, TESTNET_FIRST_RUNE_HEIGHT, "ZZXZUDIVTVQA"),
        (0, 0, "ZZYZXBRKWXVA"),  # Network::Regtest (and Signet)
        (1, 0, "ZZXZUDIVTVQA"),
    ],
)
def test_ord_rune_rs_minimum_at_height(height: int, first_rune_height: int, minimum: str) -> None:
    """rune.rs `minimum_at_height`, every case (testnet's first rune height is 12 halvings)."""
    assert rune_name(minimum_at_height(height, first_rune_height)) == minimum


def test_every_name_is_etchable_once_the_unlock_interval_ends() -> None:
    """From the end of the first halving interval, ord's minimum is rune 0 ("A")."""
    assert minimum_at_height(SUBSIDY_HALVING_INTERVAL - 1) == 0
    assert minimum_at_height(SUBSIDY_HALVING_INTERVAL - 2) > 0


@pytest.mark.parametrize(
    ("n", "commitment"),
    [
        (0, b""),
        (1, bytes([1])),
        (255, bytes([255])),
        (256, bytes([0, 1])),
        (65535, bytes([255, 255])),
        (65536, bytes([0, 0, 1])),
        (U128_MAX, bytes([255] * 16)),
    ],
)
def test_ord_rune_rs_commitment(n: int, commitment: bytes) -> None:
    """rune.rs `commitment`: the number's little-endian bytes without trailing zeros."""
    assert rune_commitment(rune_name(n)) == commitment
