"""The signed bid message of spec 5.1: golden texts, UTF-16 ordering, JSON properties, and a
cross-check against JavaScript's own JSON.stringify and string comparison (when node is here).
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.core.bid_message import attributes_json, bid_message, colon_line, sorted_traits
from app.core.bid_request import Trait

from .builders import make_request

COLON = (
    "bc1qpaymentaddressxxxxxxxxxxxxxxxxxxxxxxxx"
    ":02abababababababababababababababababababababababababababababababab"
    ":bc1pordinalsaddressxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
    ":10000:1:1700001800000:bitcoin-puppets:1700000000000"
)


def test_without_traits_the_message_is_the_colon_line() -> None:
    req = make_request()
    assert colon_line(req) == COLON
    assert bid_message(req) == COLON
    assert bid_message(make_request(attributes=(), attribute=None)) == COLON


def test_colon_line_uses_the_body_values_in_spec_order() -> None:
    req = make_request(
        price=2_000, quantity=3, bid_expiry=1_700_000_900_000, collection_slug="sub10k"
    )
    assert colon_line(req).split(":")[3:] == [
        "2000",
        "3",
        "1700000900000",
        "sub10k",
        "1700000000000",
    ]


def test_single_attribute_is_a_list_of_one() -> None:
    req = make_request(attribute=Trait("Background", "Blue"))
    assert bid_message(req) == (
        COLON + '\nType: ordinals\nAttributes: [{"trait_type":"Background","value":"Blue"}]'
    )


def test_golden_message_with_escaping_and_non_ascii() -> None:
    # Expected text produced by node's JSON.stringify over the traits sorted with JS `<`.
    req = make_request(
        quantity=2,
        attributes=(
            Trait("漢字", "値"),
            Trait("Ünïcødé", "naïve"),
            Trait('Say "hi"', "back\\slash"),
            Trait("Line", "a\nb\tc\x01\x7f"),
            Trait("emoji", "\uffff"),
            Trait("emoji", "😀"),
            Trait("emoji", "\ue000"),
            Trait("background", "a"),
            Trait("Background", "Blue\u2028"),
            Trait("Background", "Blue"),
        ),
    )
    expected_json = (
        '[{"trait_type":"Background","value":"Blue"},'
        '{"trait_type":"Background","value":"Blue\u2028"},'
        '{"trait_type":"Line","value":"a\\nb\\tc\\u0001\x7f"},'
        '{"trait_type":"Say \\"hi\\"","value":"back\\\\slash"},'
        '{"trait_type":"background","value":"a"},'
        '{"trait_type":"emoji","value":"😀"},'
        '{"trait_type":"emoji","value":"\ue000"},'
        '{"trait_type":"emoji","value":"\uffff"},'
        '{"trait_type":"Ünïcødé","value":"naïve"},'
        '{"trait_type":"漢字","value":"値"}]'
    )
    colon = COLON.replace(":10000:1:", ":10000:2:")
    assert bid_message(req) == f"{colon}\nType: ordinals\nAttributes: {expected_json}"


def test_emoji_sorts_before_private_use_by_utf16_unlike_python() -> None:
    values = ["\uffff", "😀", "\ue000", "z"]
    ordered = [t.value for t in sorted_traits(Trait("t", v) for v in values)]
    assert ordered == ["z", "😀", "\ue000", "\uffff"]
    assert sorted(values) == ["z", "\ue000", "\uffff", "😀"]  # code points: the wrong order


def test_sorts_by_trait_type_before_value() -> None:
    out = sorted_traits([Trait("b", "a"), Trait("a", "z"), Trait("a", "b")])
    assert out == [Trait("a", "b"), Trait("a", "z"), Trait("b", "a")]


def test_duplicates_are_written_as_sent_side_by_side() -> None:
    text = attributes_json([Trait("a", "1"), Trait("b", "2"), Trait("a", "1")])
    assert text == (
        '[{"trait_type":"a","value":"1"},{"trait_type":"a","value":"1"},'
        '{"trait_type":"b","value":"2"}]'
    )


def _utf16_units(text: str) -> list[int]:
    """Reference: code units computed by hand from the surrogate-pair formula."""
    units: list[int] = []
    for ch in text:
        cp = ord(ch)
        if cp > 0xFFFF:
            cp -= 0x10000
            units += [0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF)]
        else:
            units.append(cp)
    return units


# Characters near the places where code-point and UTF-16 order disagree, plus JSON's specials.
BMP = ["a", "B", "é", "漢", '"', "\\", "\n", "\x00", "\x1f", "\ud7ff", "\ue000", "\uffff"]
ASTRAL = ["😀", "\U00010000", "\U0010ffff", "𝄞"]  # surrogate pairs in UTF-16
TRICKY = st.sampled_from([*BMP, *ASTRAL])
TEXT = st.text(alphabet=TRICKY, max_size=4) | st.text(
    alphabet=st.characters(codec="utf-8"),
    max_size=6,  # utf-8: no lone surrogates
)
TRAITS = st.lists(st.builds(Trait, TEXT, TEXT), max_size=8)


@given(TRAITS, st.randoms(use_true_random=False))
def test_order_of_input_does_not_change_the_message(
    traits: list[Trait], rnd: random.Random
) -> None:
    shuffled = list(traits)
    rnd.shuffle(shuffled)
    a = bid_message(make_request(attributes=tuple(traits)))
    b = bid_message(make_request(attributes=tuple(shuffled)))
    assert a == b


@given(TRAITS)
def test_attributes_json_round_trips_to_the_utf16_sorted_list(traits: list[Trait]) -> None:
    parsed = json.loads(attributes_json(traits))
    reference = sorted(traits, key=lambda t: (_utf16_units(t.trait_type), _utf16_units(t.value)))
    assert parsed == [{"trait_type": t.trait_type, "value": t.value} for t in reference]
    assert all(list(item) == ["trait_type", "value"] for item in parsed)


@given(TRAITS)
def test_no_spaces_outside_strings_and_non_ascii_as_is(traits: list[Trait]) -> None:
    text = attributes_json(traits)
    skeleton = attributes_json([Trait("x" * len(t.trait_type), "x" * len(t.value)) for t in traits])
    assert " " not in skeleton and "\n" not in text
    for t in traits:
        for ch in t.trait_type + t.value:
            if ord(ch) >= 0x80:
                assert ch in text


@given(TRAITS.filter(bool))
def test_message_is_three_lines_exactly_when_there_are_traits(traits: list[Trait]) -> None:
    req = make_request(attributes=tuple(traits))
    first, second, third = bid_message(req).split("\n")
    assert (first, second) == (colon_line(req), "Type: ordinals")
    assert third == "Attributes: " + attributes_json(traits)


NODE = shutil.which("node")
NODE_REFERENCE = Path(__file__).with_name("js_reference_attributes.js")


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_matches_javascript_json_stringify_and_string_order() -> None:
    rnd = random.Random(5_1)  # fixed seed: the same 300 cases on every run
    letters = ["a", "b", "A", "é", "Ü", "漢", "😀", "𝄞", "\ue000", "\uffff", "\ud7ff"]
    specials = ['"', "\\", "\n", "\t", "\x00", "\x08", "\x0c", "\x1f", "\x7f", "\u2028", "/", " "]
    alphabet = [*letters, *specials]

    def text() -> str:
        return "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 4)))

    cases = [[[text(), text()] for _ in range(rnd.randint(0, 6))] for _ in range(300)]
    assert NODE is not None
    run = subprocess.run(
        [NODE, str(NODE_REFERENCE)],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
        timeout=60,
    )
    expected = json.loads(run.stdout)
    ours = [attributes_json(Trait(t, v) for t, v in case) for case in cases]
    assert ours == expected
