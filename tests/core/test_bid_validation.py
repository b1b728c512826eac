"""Every rule of validate_bid_request, each on both sides of its boundary."""

from __future__ import annotations

from typing import Any

import pytest

from app.core.bid_request import Trait
from app.core.bid_validation import validate_bid_request, validate_single_inscription_price
from app.core.errors import ERROR_CODES, ErrorCode

from .builders import MINUTE_MS, NOW_MS, make_request, traits

E = ErrorCode
RUNE = {"meta_type": "runes", "collection_slug": "DOG•GO•TO•THE•MOON"}

# Short names keep the table one case per line.
MIN = MINUTE_MS
SOON = E.COLLECTION_BID_EXPIRY_TOO_SOON
OLD = E.COLLECTION_BID_TIMESTAMP_TOO_OLD
AHEAD = E.COLLECTION_BID_TIMESTAMP_IN_FUTURE
LOW = E.COLLECTION_BID_PRICE_TOO_LOW
STEP = E.COLLECTION_BID_PRICE_STEP
RUNE_LOW = E.RUNE_BID_PRICE_TOO_LOW
QTY = E.COLLECTION_BID_QUANTITY_INVALID
FIELD = E.INVALID_FIELD
ORDERS = E.COLLECTION_BID_TOO_MANY_ORDERS
ATTRS = E.COLLECTION_BID_TOO_MANY_ATTRIBUTES
META = E.COLLECTION_BID_META_TYPE_INVALID
NO_TRAITS = E.COLLECTION_BID_TRAITS_NOT_ALLOWED
TRAIT = E.COLLECTION_BID_TRAIT_INVALID
DUP = E.COLLECTION_BID_DUPLICATE_TRAIT
CONFLICT = E.COLLECTION_BID_ATTRIBUTE_CONFLICT

# (id, changes to the valid base request, expected codes in order)
CASES: list[tuple[str, dict[str, Any], list[ErrorCode]]] = [
    ("valid ordinals bid", {}, []),
    # bidExpiry: at least 15 minutes after the request.
    ("expiry exactly 15 min", {"bid_expiry": NOW_MS + 15 * MIN}, []),
    ("expiry 15 min - 1 ms", {"bid_expiry": NOW_MS + 15 * MIN - 1}, [SOON]),
    ("expiry in the past", {"bid_expiry": NOW_MS - 1}, [SOON]),
    # timestamp: less than 2 minutes old, at most 30 s ahead.
    ("timestamp 2 min - 1 ms old", {"timestamp": NOW_MS - 2 * MIN + 1}, []),
    ("timestamp exactly 2 min old", {"timestamp": NOW_MS - 2 * MIN}, [OLD]),
    ("timestamp exactly 30 s ahead", {"timestamp": NOW_MS + 30_000}, []),
    ("timestamp 30 s + 1 ms ahead", {"timestamp": NOW_MS + 30_001}, [AHEAD]),
    # Ordinals price: multiple of 1,000, at least 1,000.
    ("price 999", {"price": 999}, [LOW, STEP]),
    ("price 1000", {"price": 1_000}, []),
    ("price 1500", {"price": 1_500}, [STEP]),
    ("price 0", {"price": 0}, [LOW]),
    ("price -1000", {"price": -1_000}, [LOW]),
    ("range price 1500", {"collection_slug": "sub10k", "price": 1_500}, [STEP]),
    ("trait price 999", {"price": 999, "attributes": traits(1)}, [LOW, STEP]),
    # Rune price: the total, at least 10,000, any step.
    ("rune price 9999", {**RUNE, "price": 9_999}, [RUNE_LOW]),
    ("rune price 10000", {**RUNE, "price": 10_000}, []),
    ("rune price 10001 (no step)", {**RUNE, "price": 10_001}, []),
    # Quantity: an integer of at least 1.
    ("quantity 0", {"quantity": 0}, [QTY]),
    ("quantity -3", {"quantity": -3}, [QTY]),
    ("quantity 1", {"quantity": 1}, []),
    ("quantity True", {"quantity": True}, [FIELD]),
    ("quantity 1.0", {"quantity": 1.0}, [FIELD]),
    ("price as text", {"price": "10000"}, [FIELD]),
    ("price 2^53 (unsafe)", {"price": 2**53}, [FIELD]),
    ("price 2^53-1000 (safe)", {"price": 2**53 - 1_992}, []),
    # Bids per request: at most 1,000 (quantity x traits); a rune bid is one bid.
    ("1000 bids", {"quantity": 1_000}, []),
    ("1001 bids", {"quantity": 1_001}, [ORDERS]),
    ("20 x 50 traits = 1000 bids", {"quantity": 20, "attributes": traits(50)}, []),
    ("21 x 48 traits = 1008 bids", {"quantity": 21, "attributes": traits(48)}, [ORDERS]),
    ("1001 x single attribute", {"quantity": 1_001, "attribute": Trait("a", "b")}, [ORDERS]),
    ("rune quantity 1,000,000", {**RUNE, "quantity": 1_000_000}, []),
    # Traits: at most 50.
    ("50 traits", {"attributes": traits(50)}, []),
    ("51 traits", {"attributes": traits(51)}, [ATTRS]),
    # metaType.
    ("metaType runes", {**RUNE}, []),
    ("metaType brc20", {"meta_type": "brc20"}, [META]),
    ("metaType Ordinals (case)", {"meta_type": "Ordinals"}, [META]),
    ("range with runes", {"collection_slug": "sub1k", "meta_type": "runes"}, [META]),
    # No traits on ranges or runes.
    ("range sub100k", {"collection_slug": "sub100k"}, []),
    ("range with traits", {"collection_slug": "sub1k", "attributes": traits(1)}, [NO_TRAITS]),
    ("range with attribute", {"collection_slug": "sub1k", "attribute": Trait("x", "y")}, [NO_TRAITS]),  # noqa: E501
    ("rune with traits", {**RUNE, "attributes": traits(2)}, [NO_TRAITS]),
    # Trait entries: non-empty strings, no lone surrogates, no duplicates, one form.
    ("single attribute", {"attribute": Trait("Background", "Blue")}, []),
    ("empty attributes + attribute", {"attributes": (), "attribute": Trait("a", "b")}, []),
    ("attributes + attribute", {"attributes": traits(1), "attribute": Trait("a", "b")}, [CONFLICT]),
    ("empty trait_type", {"attributes": (Trait("", "v"),)}, [TRAIT]),
    ("empty value", {"attribute": Trait("t", "")}, [TRAIT]),
    ("lone surrogate", {"attributes": (Trait("t", "a\ud800"),)}, [TRAIT]),
    ("whitespace value is text", {"attributes": (Trait("t", " "),)}, []),
    ("control chars in traits", {"attributes": (Trait("t\n", 'a"\\\x01'),)}, []),
    ("duplicate trait", {"attributes": (*traits(2), Trait("t0", "v0"))}, [DUP]),
    ("same type, other value", {"attributes": (Trait("t", "a"), Trait("t", "b"))}, []),
    # Strings of the colon line.
    ("empty slug", {"collection_slug": ""}, [FIELD]),
    ("colon in slug", {"collection_slug": "a:b"}, [FIELD]),
    ("newline in address", {"bidder_address": "bc1q\nType: x"}, [FIELD]),
    ("empty public key", {"bidder_address_public_key": ""}, [FIELD]),
    ("x-only public key", {"bidder_address_public_key": "ab" * 32}, []),
    ("uppercase hex key", {"bidder_address_public_key": "03" + "AB" * 32}, []),
    ("uncompressed key", {"bidder_address_public_key": "04" + "ab" * 64}, [FIELD]),
    ("66 digits, prefix 04", {"bidder_address_public_key": "04" + "ab" * 32}, [FIELD]),
    ("not hex", {"bidder_address_public_key": "02" + "zz" * 32}, [FIELD]),
    ("65 digits", {"bidder_address_public_key": "02" + "a" * 63}, [FIELD]),
    ("colon in key: one violation", {"bidder_address_public_key": "02:"}, [FIELD]),
    ("empty signature", {"signed_bidding_message": ""}, [FIELD]),
]  # fmt: skip


@pytest.mark.parametrize(("changes", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_rule(changes: dict[str, Any], expected: list[ErrorCode]) -> None:
    violations = validate_bid_request(make_request(**changes), NOW_MS)
    assert [v.code for v in violations] == expected


def test_every_violation_says_how_to_fix_with_a_wire_field_and_a_documented_code() -> None:
    for _, changes, _ in CASES:
        for v in validate_bid_request(make_request(**changes), NOW_MS):
            assert v.code in ERROR_CODES
            assert v.message.endswith(".") and ":" in v.message, v.message
            assert "_" not in v.field.split("[")[0].split(".")[0], v.field  # camelCase wire name


def test_every_violation_carries_exactly_the_extra_fields_its_table_row_lists() -> None:
    for _, changes, _ in CASES:
        for v in validate_bid_request(make_request(**changes), NOW_MS):
            listed = ERROR_CODES[v.code].extra_fields
            assert ("field" in listed) == bool(v.field), v.code
            assert [f"details.{k}" for k in v.details] == [x for x in listed if x != "field"]


def test_reports_every_broken_rule_at_once() -> None:
    req = make_request(
        price=1_500,
        quantity=0,
        bid_expiry=NOW_MS,
        timestamp=NOW_MS - 5 * MINUTE_MS,
        collection_slug="",
        attributes=(Trait("", "x"), Trait("", "x")),
    )
    codes = [v.code for v in validate_bid_request(req, NOW_MS)]
    assert codes == [
        E.INVALID_FIELD,
        E.COLLECTION_BID_PRICE_STEP,
        E.COLLECTION_BID_QUANTITY_INVALID,
        E.COLLECTION_BID_EXPIRY_TOO_SOON,
        E.COLLECTION_BID_TIMESTAMP_TOO_OLD,
        E.COLLECTION_BID_TRAIT_INVALID,
        E.COLLECTION_BID_TRAIT_INVALID,
        E.COLLECTION_BID_DUPLICATE_TRAIT,
    ]


def test_too_many_orders_reports_limit_and_requested() -> None:
    req = make_request(quantity=21, attributes=traits(48))
    (v,) = validate_bid_request(req, NOW_MS)
    assert v.code is E.COLLECTION_BID_TOO_MANY_ORDERS
    assert v.details == {"limit": 1_000, "requested": 1_008}
    assert v.to_json() == {
        "errorCode": "COLLECTION_BID_TOO_MANY_ORDERS",
        "message": v.message,
        "field": "quantity",
        "details": {"limit": 1_000, "requested": 1_008},
    }
    assert "1,008" in v.message and "1,000" in v.message


def test_too_many_attributes_reports_limit_and_requested() -> None:
    (v,) = validate_bid_request(make_request(attributes=traits(51)), NOW_MS)
    assert v.details == {"limit": 50, "requested": 51}


def test_price_step_message_offers_the_neighbouring_multiples() -> None:
    (v,) = validate_bid_request(make_request(price=1_500), NOW_MS)
    assert "1,000 sats or 2,000 sats" in v.message
    assert v.details == {"step": 1_000, "requested": 1_500}


def test_clock_violations_carry_the_service_time() -> None:
    (old,) = validate_bid_request(make_request(timestamp=NOW_MS - 2 * MINUTE_MS), NOW_MS)
    assert old.details == {"serverTime": NOW_MS, "requested": NOW_MS - 2 * MINUTE_MS}
    assert "120 s old" in old.message
    early = NOW_MS + 15 * MINUTE_MS - 1
    (expiry,) = validate_bid_request(make_request(bid_expiry=early), NOW_MS)
    assert expiry.details == {"earliest": early + 1, "requested": early}
    assert "899.999 s" in expiry.message


def test_duplicate_names_both_positions() -> None:
    req = make_request(attributes=(Trait("t", "a"), Trait("u", "b"), Trait("t", "a")))
    (v,) = validate_bid_request(req, NOW_MS)
    assert v.field == "attributes[2]"
    assert "attributes[0]" in v.message


def test_the_clock_is_the_checker_s_not_the_request_s() -> None:
    # A request fine at NOW_MS is too old three minutes later, with no change to the request.
    req = make_request(bid_expiry=NOW_MS + 60 * MINUTE_MS)
    assert validate_bid_request(req, NOW_MS) == []
    later = [v.code for v in validate_bid_request(req, NOW_MS + 3 * MINUTE_MS)]
    assert later == [E.COLLECTION_BID_TIMESTAMP_TOO_OLD]


@pytest.mark.parametrize(
    ("price", "ok"), [(9_999, False), (10_000, True), (10_001, True), (True, False)]
)
def test_single_inscription_price(price: int, ok: bool) -> None:
    violations = validate_single_inscription_price(price)
    assert (violations == []) is ok
    if not ok:
        assert violations[0].code is E.SINGLE_INSCRIPTION_BID_PRICE_TOO_LOW
