"""The maker fee the bid pools assume, and where that amount comes from.

The spec's pool rule (section 1): the open bids of one pool plus the maker fee must fit within
the wallet balance. The fee on one bid is `app.core.pools.MakerFee`:
`ceil(price x basis_points / 10,000) + flat_sats`. The spec does not say how much it is; the
amount is the service's business. The amount assumed, first found first:

1. the profile's own setting (`AppProfile.maker_fee`, set in Settings): `PROFILE`;
2. what the service publishes (a sandbox's `GET /sandbox/info`; the public service publishes
   none): `SERVICE`;
3. `DEFAULT_MAKER_FEE`, 1,000 sats per bid, what third parties report the public service
   charges (notes/satflow-api.md): `DEFAULT`.

Every pool figure the window shows says which one it assumed (`AssumedMakerFee`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from app.core.pools import MakerFee

DEFAULT_MAKER_FEE: Final = MakerFee(basis_points=0, flat_sats=1_000)
# Bounds of a profile's setting: a fee beyond 1 BTC per bid or 100% of the price is a typo.
MAX_MAKER_FEE_SATS: Final = 100_000_000
MAX_MAKER_FEE_BPS: Final = 10_000


class MakerFeeSource(StrEnum):
    PROFILE = "profile"  # the profile's setting
    SERVICE = "service"  # published by the service
    DEFAULT = "default"  # neither: what third parties report for the public service


@dataclass(frozen=True)
class AssumedMakerFee:
    """The maker fee a pool figure counts, and where the amount came from."""

    fee: MakerFee
    source: MakerFeeSource


# What is assumed knowing nothing of the profile or the service.
NOTHING_KNOWN: Final = AssumedMakerFee(DEFAULT_MAKER_FEE, MakerFeeSource.DEFAULT)


def service_default(published: MakerFee | None) -> AssumedMakerFee:
    """What a profile without a setting of its own assumes: the service's fee, else ours."""
    if published is not None:
        return AssumedMakerFee(published, MakerFeeSource.SERVICE)
    return NOTHING_KNOWN


def assumed_maker_fee(setting: MakerFee | None, published: MakerFee | None) -> AssumedMakerFee:
    """The profile's `setting` when it has one, else `service_default(published)`."""
    if setting is not None:
        return AssumedMakerFee(setting, MakerFeeSource.PROFILE)
    return service_default(published)


def maker_fee_problem(fee: MakerFee) -> str | None:
    """Why `fee` cannot be a profile's setting (None: it can)."""
    if not 0 <= fee.flat_sats <= MAX_MAKER_FEE_SATS:
        return f"the maker fee per bid must be 0 to {MAX_MAKER_FEE_SATS:,} sats"
    if not 0 <= fee.basis_points <= MAX_MAKER_FEE_BPS:
        return f"the maker fee's share of the price must be 0 to {MAX_MAKER_FEE_BPS:,} bps"
    return None
