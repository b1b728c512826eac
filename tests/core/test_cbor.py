"""app.core.cbor against RFC 8949 Appendix A ("Examples of Encoded CBOR Data Items",
https://www.rfc-editor.org/rfc/rfc8949#appendix-A), the examples within the supported subset,
and ord's `metadata_function_decodes_metadata` (src/inscriptions/inscription.rs, ordinals/ord
5241ef311e015cff4759a379085c8cc8913e621a)."""

from __future__ import annotations

import pytest

from app.core.cbor import CborError, CborValue, decode, encode

RFC_8949_APPENDIX_A: list[tuple[CborValue, str]] = [
    (0, "00"),
    (1, "01"),
    (10, "0a"),
    (23, "17"),
    (24, "1818"),
    (25, "1819"),
    (100, "1864"),
    (1000, "1903e8"),
    (1000000, "1a000f4240"),
    (1000000000000, "1b000000e8d4a51000"),
    (18446744073709551615, "1bffffffffffffffff"),
    (-18446744073709551616, "3bffffffffffffffff"),
    (-1, "20"),
    (-10, "29"),
    (-100, "3863"),
    (-1000, "3903e7"),
    (False, "f4"),
    (True, "f5"),
    (None, "f6"),
    (b"", "40"),
    (bytes([1, 2, 3, 4]), "4401020304"),
    ("", "60"),
    ("a", "6161"),
    ("IETF", "6449455446"),
    ('"\\', "62225c"),
    ("\u00fc", "62c3bc"),
    ("\u6c34", "63e6b0b4"),
    ("\U00010151", "64f0908591"),
    ([], "80"),
    ([1, 2, 3], "83010203"),
    ([1, [2, 3], [4, 5]], "8301820203820405"),
    (list(range(1, 26)), "98190102030405060708090a0b0c0d0e0f101112131415161718181819"),
    ({}, "a0"),
    ({1: 2, 3: 4}, "a201020304"),
    ({"a": 1, "b": [2, 3]}, "a26161016162820203"),
    (["a", {"b": "c"}], "826161a161626163"),
    (
        {"a": "A", "b": "B", "c": "C", "d": "D", "e": "E"},
        "a56161614161626142616361436164614461656145",
    ),
]


@pytest.mark.parametrize(("value", "encoded"), RFC_8949_APPENDIX_A)
def test_rfc_8949_examples_round_trip(value: CborValue, encoded: str) -> None:
    assert encode(value) == bytes.fromhex(encoded)
    assert decode(bytes.fromhex(encoded)) == value


@pytest.mark.parametrize(
    "encoded",
    [
        "f93e00",  # 1.5 (a float)
        "5f42010243030405ff",  # an indefinite-length byte string
        "c11a514b67b0",  # tag 1 (epoch time)
        "44",  # ord's metadata_function_returns_none_if_metadata_fails_to_parse
        "0000",  # trailing bytes
        "62c3",  # a text string cut short
        "61ff",  # text that is not UTF-8
        "a18101f6",  # an array as a map key
    ],
)
def test_what_is_not_one_supported_value_is_refused(encoded: str) -> None:
    with pytest.raises(CborError):
        decode(bytes.fromhex(encoded))


def test_ord_metadata_decodes() -> None:  # metadata_function_decodes_metadata
    assert decode(bytes([0x44, 0, 1, 2, 3])) == bytes([0, 1, 2, 3])


def test_depth_is_bounded() -> None:
    with pytest.raises(CborError):
        decode(b"\x81" * 100 + b"\x00")
