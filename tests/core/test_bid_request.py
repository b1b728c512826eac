"""Parsing the wire body strictly, writing it back, and the request's derived counts."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.core.bid_request import (
    IGNORED_FIELDS,
    BidKind,
    BidRequestParseError,
    CollectionBidRequest,
    Trait,
)
from app.core.bid_validation import validate_bid_request
from app.core.errors import ErrorCode

from .builders import BASE_REQUEST, NOW_MS, make_request, traits

E = ErrorCode
TRAIT = E.COLLECTION_BID_TRAIT_INVALID


def body(**changes: Any) -> dict[str, Any]:
    data = BASE_REQUEST.to_json()
    for key, value in changes.items():
        if value is ...:
            data.pop(key)
        else:
            data[key] = value
    return data


def parse_errors(data: object) -> list[tuple[ErrorCode, str]]:
    with pytest.raises(BidRequestParseError) as caught:
        CollectionBidRequest.from_json(data)
    return [(v.code, v.field) for v in caught.value.violations]


def test_wire_body_uses_the_spec_names_in_camel_case() -> None:
    req = make_request(attributes=(Trait("Background", "Blue"),))
    assert req.to_json() == {
        "price": 10_000,
        "collectionSlug": "bitcoin-puppets",
        "bidderAddress": req.bidder_address,
        "bidderAddressPublicKey": req.bidder_address_public_key,
        "bidderTokenReceiveAddress": req.bidder_token_receive_address,
        "quantity": 1,
        "metaType": "ordinals",
        "bidExpiry": req.bid_expiry,
        "timestamp": NOW_MS,
        "signedBiddingMessage": req.signed_bidding_message,
        "attributes": [{"trait_type": "Background", "value": "Blue"}],
    }


@pytest.mark.parametrize(
    "req",
    [
        BASE_REQUEST,
        make_request(attributes=traits(3)),
        make_request(attribute=Trait("Eyes", "Laser")),
        make_request(meta_type="runes", collection_slug="DOG•GO•TO•THE•MOON", quantity=5_000),
    ],
    ids=["ordinals", "attributes", "attribute", "rune"],
)
def test_round_trips_through_json_text(req: CollectionBidRequest) -> None:
    text = json.dumps(req.to_json())
    assert CollectionBidRequest.from_json(json.loads(text)) == req


def test_null_optional_fields_count_as_absent_and_meta_type_defaults_to_ordinals() -> None:
    parsed = CollectionBidRequest.from_json(body(metaType=None, attributes=None, attribute=None))
    assert parsed == BASE_REQUEST
    assert CollectionBidRequest.from_json(body(metaType=...)).meta_type == "ordinals"


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"quantity": True}, [(E.INVALID_FIELD, "quantity")]),
        ({"quantity": False}, [(E.INVALID_FIELD, "quantity")]),
        ({"price": "10000"}, [(E.INVALID_FIELD, "price")]),
        ({"price": 10000.0}, [(E.INVALID_FIELD, "price")]),
        ({"bidExpiry": None}, [(E.INVALID_FIELD, "bidExpiry")]),
        ({"timestamp": [NOW_MS]}, [(E.INVALID_FIELD, "timestamp")]),
        ({"bidderAddress": 12}, [(E.INVALID_FIELD, "bidderAddress")]),
        ({"collectionSlug": {"slug": "x"}}, [(E.INVALID_FIELD, "collectionSlug")]),
        ({"metaType": 1}, [(E.INVALID_FIELD, "metaType")]),
        ({"signedBiddingMessage": ...}, [(E.MISSING_FIELD, "signedBiddingMessage")]),
        ({"price": ..., "quantity": ...}, [(E.MISSING_FIELD, "price"), (E.MISSING_FIELD, "quantity")]),  # noqa: E501
        ({"attribtues": []}, [(E.UNKNOWN_FIELD, "attribtues")]),
        ({"attributes": {"trait_type": "a", "value": "b"}}, [(E.INVALID_FIELD, "attributes")]),
        ({"attributes": ["Blue"]}, [(TRAIT, "attributes[0]")]),
        ({"attributes": [{"trait_type": "a"}]}, [(TRAIT, "attributes[0]")]),
        ({"attributes": [{"trait_type": "a", "value": "b", "x": 9}]}, [(TRAIT, "attributes[0]")]),
        ({"attributes": [{"trait_type": "a", "value": 5}]}, [(TRAIT, "attributes[0]")]),
        ({"attribute": {"trait_type": None, "value": "b"}}, [(TRAIT, "attribute")]),
        ({"attribute": []}, [(TRAIT, "attribute")]),
    ],
)  # fmt: skip
def test_wrong_json_becomes_structured_errors(
    changes: dict[str, Any], expected: list[tuple[ErrorCode, str]]
) -> None:
    assert parse_errors(body(**changes)) == expected


def test_every_problem_of_a_body_is_reported_together() -> None:
    data = body(price=True, quantity="2", bidderAddress=None, extra=1, attributes=[1, {}])
    assert parse_errors(data) == [
        (E.UNKNOWN_FIELD, "extra"),
        (E.INVALID_FIELD, "price"),
        (E.INVALID_FIELD, "quantity"),
        (E.INVALID_FIELD, "bidderAddress"),
        (E.COLLECTION_BID_TRAIT_INVALID, "attributes[0]"),
        (E.COLLECTION_BID_TRAIT_INVALID, "attributes[1]"),
    ]


def test_bool_message_names_the_json_type_and_the_fix() -> None:
    with pytest.raises(BidRequestParseError) as caught:
        CollectionBidRequest.from_json(body(quantity=True))
    (v,) = caught.value.violations
    assert v.message == "quantity must be an integer, but a boolean was sent: send an integer."


@pytest.mark.parametrize("data", [None, [], "body", 3])
def test_non_object_body(data: object) -> None:
    assert parse_errors(data) == [(E.INVALID_FIELD, "")]


def test_every_parse_message_says_how_to_fix() -> None:
    data = body(
        price=None, quantity=..., extra=1, attributes=[1, {}, {"trait_type": 1, "value": 2}]
    )
    with pytest.raises(BidRequestParseError) as caught:
        CollectionBidRequest.from_json(data)
    for v in caught.value.violations:
        assert ": " in v.message and v.message.endswith("."), v.message
    with pytest.raises(BidRequestParseError) as caught:
        CollectionBidRequest.from_json([])
    assert caught.value.violations[0].message.startswith("The request body must be a JSON object")


def test_parse_error_text_lists_codes_but_not_the_signature() -> None:
    with pytest.raises(BidRequestParseError) as caught:
        CollectionBidRequest.from_json(body(price="x"))
    assert "INVALID_FIELD(price)" in str(caught.value)
    assert BASE_REQUEST.signed_bidding_message not in str(caught.value)


@pytest.mark.parametrize(
    ("changes", "kind", "count", "units"),
    [
        ({}, BidKind.ORDINALS, 1, 1),
        ({"quantity": 7}, BidKind.ORDINALS, 7, 1),
        ({"quantity": 3, "attributes": traits(4)}, BidKind.TRAIT, 12, 4),
        ({"quantity": 3, "attribute": Trait("a", "b")}, BidKind.TRAIT, 3, 1),
        ({"quantity": 2, "attributes": (), "attribute": Trait("a", "b")}, BidKind.TRAIT, 2, 1),
        ({"meta_type": "runes", "collection_slug": "RUNE", "quantity": 5_000}, BidKind.RUNE, 1, 1),
        ({"collection_slug": "sub1k", "quantity": 4}, BidKind.RANGE, 4, 1),
        ({"collection_slug": "sub10k"}, BidKind.RANGE, 1, 1),
        ({"collection_slug": "sub100k"}, BidKind.RANGE, 1, 1),
    ],
)
def test_kind_bid_count_and_rate_units(
    changes: dict[str, Any], kind: BidKind, count: int, units: int
) -> None:
    req = make_request(**changes)
    assert (req.kind, req.bid_count(), req.rate_units()) == (kind, count, units)


def test_traits_prefer_attributes_over_the_single_attribute() -> None:
    req = make_request(attributes=traits(2), attribute=Trait("x", "y"))
    assert req.traits() == list(traits(2))
    assert make_request(attribute=Trait("x", "y")).traits() == [Trait("x", "y")]
    assert BASE_REQUEST.traits() == []


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)
FIELD_VALUES = st.fixed_dictionaries(
    {},
    optional={
        name: JSON for name in [*BASE_REQUEST.to_json(), "attributes", "attribute", "unknown"]
    },
)


@given(st.one_of(JSON, FIELD_VALUES, FIELD_VALUES.map(lambda d: {**body(), **d})))
def test_any_json_parses_or_fails_with_violations_and_validation_never_raises(
    data: object,
) -> None:
    try:
        req = CollectionBidRequest.from_json(data)
    except BidRequestParseError as error:
        assert error.violations
        return
    for violation in validate_bid_request(req, NOW_MS):
        assert violation.message


@pytest.mark.parametrize("extra", sorted(IGNORED_FIELDS))
def test_public_service_optional_fields_are_accepted_and_ignored(extra: str) -> None:
    body = {**BASE_REQUEST.to_json(), extra: "x"}
    assert CollectionBidRequest.from_json(body) == BASE_REQUEST
