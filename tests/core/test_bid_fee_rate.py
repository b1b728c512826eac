"""feeRate of a collection bid: the service's names or sat/vB in range, on the wire as
documented, read strictly, and never part of the signed message."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.core.bid_fee_rate import (
    DEFAULT_BID_FEE_RATE,
    MAX_BID_FEE_RATE,
    BidFeeRate,
    FeeRateName,
    InvalidBidFeeRate,
)
from app.core.bid_message import bid_message
from app.core.bid_request import BidRequestParseError, CollectionBidRequest, Trait
from app.core.errors import ErrorCode

from .builders import BASE_REQUEST, make_request


@pytest.mark.parametrize(
    ("wire", "expected"),
    [
        ("fastestFee", BidFeeRate.named(FeeRateName.FASTEST)),
        ("halfHourFee", BidFeeRate.named(FeeRateName.HALF_HOUR)),
        ("hourFee", BidFeeRate.named(FeeRateName.HOUR)),
        ("minimumFee", BidFeeRate.named(FeeRateName.MINIMUM)),
        (1, BidFeeRate.custom(1)),
        (12.5, BidFeeRate.custom(12.5)),
        (MAX_BID_FEE_RATE, BidFeeRate.custom(MAX_BID_FEE_RATE)),
    ],
)
def test_accepted_values_read_and_written_back_as_sent(
    wire: str | float, expected: BidFeeRate
) -> None:
    assert BidFeeRate.from_wire(wire) == expected
    assert BidFeeRate.from_wire(wire).to_wire() == wire


@pytest.mark.parametrize(
    "bad",
    ["economyFee", "FastestFee", "", "12", 0, 0.99, -3, 10_000.5, float("nan"), float("inf"),
     True, None, [], {}],
)  # fmt: skip
def test_anything_else_is_refused_saying_what_is_accepted(bad: object) -> None:
    with pytest.raises(InvalidBidFeeRate) as caught:
        BidFeeRate.from_wire(bad)
    text = str(caught.value)
    assert "fastestFee, halfHourFee, hourFee, minimumFee" in text
    assert "from 1 to 10,000" in text


def test_a_choice_is_a_name_or_a_rate_never_both_nor_neither() -> None:
    with pytest.raises(InvalidBidFeeRate):
        BidFeeRate()
    with pytest.raises(InvalidBidFeeRate):
        BidFeeRate(FeeRateName.HOUR, 5)


def test_whole_rates_go_as_integers_and_the_default_is_the_services() -> None:
    assert BidFeeRate.custom(5.0).to_wire() == 5 and isinstance(
        BidFeeRate.custom(5.0).to_wire(), int
    )
    assert DEFAULT_BID_FEE_RATE.is_default and DEFAULT_BID_FEE_RATE.to_wire() == "fastestFee"
    assert not BidFeeRate.custom(5).is_default
    assert [n.target_blocks for n in FeeRateName] == [1, 3, 6, 1008]
    assert str(BidFeeRate.custom(7.5)) == "7.5 sat/vB" and str(DEFAULT_BID_FEE_RATE) == "fastestFee"


def test_the_request_sends_fee_rate_only_when_set_and_reads_it_back() -> None:
    assert "feeRate" not in BASE_REQUEST.to_json()
    chosen = replace(BASE_REQUEST, fee_rate=BidFeeRate.named(FeeRateName.HOUR))
    assert chosen.to_json()["feeRate"] == "hourFee"
    assert CollectionBidRequest.from_json(chosen.to_json()) == chosen
    numeric = replace(BASE_REQUEST, fee_rate=BidFeeRate.custom(3))
    assert CollectionBidRequest.from_json(numeric.to_json()) == numeric
    assert CollectionBidRequest.from_json({**BASE_REQUEST.to_json(), "feeRate": None}) == (
        BASE_REQUEST
    )


def test_a_bad_fee_rate_in_a_body_is_one_invalid_field_violation() -> None:
    with pytest.raises(BidRequestParseError) as caught:
        CollectionBidRequest.from_json({**BASE_REQUEST.to_json(), "feeRate": "soon"})
    [violation] = caught.value.violations
    assert (violation.code, violation.field) == (ErrorCode.INVALID_FIELD, "feeRate")
    assert "'soon' was sent" in violation.message


@pytest.mark.parametrize("traits", [(), (Trait("Hat", "Red"),)])
def test_the_fee_rate_is_not_signed(traits: tuple[Trait, ...]) -> None:
    req = make_request(attributes=traits)
    with_rate = replace(req, fee_rate=BidFeeRate.custom(40))
    assert bid_message(with_rate) == bid_message(req)
