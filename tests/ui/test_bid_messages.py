"""The Bid form says each rule of `app.core.bid_validation` in the user's words, by its code:
never the API's sentence ("quantity must be at least 1; 0 was sent: send 1 or more"), whose
codes and wording stay as they are for the service's error bodies."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.core.bid_request import CollectionBidRequest, Trait
from app.core.bid_validation import validate_bid_request
from app.ui import strings
from app.ui.tabs.bid_messages import user_message

NOW = 1_800_000_000_000
BASE = CollectionBidRequest(
    bidder_address="bcrt1qexample",
    bidder_address_public_key="02" + "11" * 32,
    bidder_token_receive_address="bcrt1pexample",
    price=20_000,
    quantity=2,
    bid_expiry=NOW + 3_600_000,
    collection_slug="pixel-pals",
    timestamp=NOW,
    signed_bidding_message="c2ln",
    meta_type="ordinals",
)


@pytest.mark.parametrize(
    ("change", "runes", "said"),
    [
        ({"price": 500}, False, ["Offer at least 1,000 sats per item."]),
        ({"price": 1_500}, False, ["Steps of 1,000 sats: use 1,000 or 2,000 sats."]),
        ({"price": 125_500}, False, ["Steps of 1,000 sats: use 125,000 or 126,000 sats."]),
        ({"quantity": 0}, False, [strings.BID_RULE_QUANTITY_MIN]),
        (
            {"quantity": 0, "meta_type": "runes", "collection_slug": "DOG•GO", "price": 20_000},
            True,
            [strings.BID_RULE_UNITS_MIN],
        ),
        (
            {"meta_type": "runes", "collection_slug": "DOG•GO", "price": 5_000},
            True,
            ["Offer at least 10,000 sats for all the units together."],
        ),
        ({"bid_expiry": NOW + 60_000}, False, [strings.BID_EXPIRY_PAST]),
        (
            {"quantity": 21, "attributes": tuple(Trait("t", str(n)) for n in range(50))},
            False,
            ["That makes 1,050 bids; one request places 1,000 at most."],
        ),
        (
            {"collection_slug": "bad:slug"},
            False,
            ["A collection slug never contains “:”: check it."],
        ),
        (
            {"attributes": (Trait("Hat", "Red"), Trait("Hat", "Red"))},
            False,
            [strings.BID_RULE_TRAIT_TWICE],
        ),
    ],
)
def test_each_rule_in_the_users_words(
    change: dict[str, object], runes: bool, said: list[str]
) -> None:
    request = replace(BASE, **change)  # type: ignore[arg-type]
    violations = validate_bid_request(request, NOW)
    assert violations, "the request should break a rule"
    shown = [t for v in violations if (t := user_message(v, runes, request.collection_slug))]
    assert shown == said
    for violation, text in zip(violations, shown, strict=False):
        assert "was sent" not in text and violation.message != text  # the API's words stay there
