"""The fee rate a collection, trait or rune bid is filled at: `feeRate` of `POST /bid/place`.

The public service documents it as optional: one of the names `fastestFee` (its default),
`halfHourFee`, `hourFee`, `minimumFee` (its fee estimates when the bid fills) or a number of
sat/vB of at least 1 (notes/satflow-api.md, "POST /bid/place"). The spec does not name it.

`BidFeeRate` holds one valid choice; `BidFeeRate.from_wire` reads the JSON value and raises
`InvalidBidFeeRate` with a sentence saying what is accepted.

Upper bound: `MAX_BID_FEE_RATE` = 10,000 sat/vB, the bound of the app's other fee pickers and
of the sandbox. The busiest mainnet blocks have paid about a tenth of it; above it a number is
a typo (sats typed as sat/vB), and at that rate a fill of some 250 vB would already spend
2.5 million sats of network fee.

`feeRate` is NOT part of the signed bid message (spec 5.1, `app.core.bid_message`): whoever
carries the request can change or drop it (or send the signed message first with another
rate), and a service may ignore it. It asks for a fee rate; it guarantees none. What the
bidding wallet commits (price plus maker fee, the pools) does not depend on it, so a changed
rate can delay a fill's confirmation (the bidder cannot bump a transaction the service signs)
or cost the seller, not take more from the bidder (docs/error-codes.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from app.core.errors import CoreError

MIN_BID_FEE_RATE: Final = 1
MAX_BID_FEE_RATE: Final = 10_000


class FeeRateName(StrEnum):
    """The service's named rates, each its fee estimate for a confirmation target."""

    FASTEST = "fastestFee"
    HALF_HOUR = "halfHourFee"
    HOUR = "hourFee"
    MINIMUM = "minimumFee"

    @property
    def target_blocks(self) -> int:
        """The confirmation target the name stands for (mempool.space's meaning)."""
        return _TARGET_BLOCKS[self]


_TARGET_BLOCKS: Final = {
    FeeRateName.FASTEST: 1,
    FeeRateName.HALF_HOUR: 3,
    FeeRateName.HOUR: 6,
    FeeRateName.MINIMUM: 1008,
}
DEFAULT_FEE_RATE_NAME: Final = FeeRateName.FASTEST  # what the service applies without feeRate


class InvalidBidFeeRate(CoreError, ValueError):
    """A feeRate that is neither one of the names nor a number of sat/vB in range."""


def _accepted() -> str:
    names = ", ".join(n.value for n in FeeRateName)
    return (
        f"feeRate must be one of {names}, or a number of sat/vB from {MIN_BID_FEE_RATE} "
        f"to {MAX_BID_FEE_RATE:,}"
    )


@dataclass(frozen=True)
class BidFeeRate:
    """One fee rate choice: a name (`name`) or sat/vB (`sat_vb`), never both."""

    name: FeeRateName | None = None
    sat_vb: float | None = None

    def __post_init__(self) -> None:
        if (self.name is None) == (self.sat_vb is None):
            raise InvalidBidFeeRate(f"{_accepted()}: give exactly one of a name or a rate")
        rate = self.sat_vb
        if rate is None:
            return
        if (
            isinstance(rate, bool)
            or not isinstance(rate, int | float)
            or not math.isfinite(rate)
            or not MIN_BID_FEE_RATE <= rate <= MAX_BID_FEE_RATE
        ):
            raise InvalidBidFeeRate(f"{_accepted()}, but {rate!r} was given")

    @classmethod
    def named(cls, name: FeeRateName) -> BidFeeRate:
        return cls(name=name)

    @classmethod
    def custom(cls, sat_vb: float) -> BidFeeRate:
        return cls(sat_vb=sat_vb)

    @classmethod
    def from_wire(cls, value: object) -> BidFeeRate:
        """The JSON value of `feeRate`: a name (exact spelling) or a number (not a boolean)."""
        if isinstance(value, str):
            try:
                return cls.named(FeeRateName(value))
            except ValueError:
                raise InvalidBidFeeRate(f"{_accepted()}, but {value!r} was sent") from None
        if isinstance(value, int | float) and not isinstance(value, bool):
            return cls.custom(value)
        raise InvalidBidFeeRate(f"{_accepted()}, but {type(value).__name__} was sent")

    @property
    def is_default(self) -> bool:
        """The service's own default (sending it or not asks for the same)."""
        return self.name is DEFAULT_FEE_RATE_NAME

    def to_wire(self) -> str | int | float:
        """The JSON value: the name, or the rate (a whole rate as an integer)."""
        if self.name is not None:
            return self.name.value
        assert self.sat_vb is not None  # __post_init__
        return int(self.sat_vb) if float(self.sat_vb).is_integer() else self.sat_vb

    def __str__(self) -> str:
        return str(self.to_wire()) if self.name is not None else f"{self.to_wire()} sat/vB"


DEFAULT_BID_FEE_RATE: Final = BidFeeRate.named(DEFAULT_FEE_RATE_NAME)
