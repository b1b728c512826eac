"""Policies, clocks and requests for the strategy signer's tests."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

from app.core.bid_request import CollectionBidRequest, Trait
from app.core.pools import MakerFee
from app.core.strategy_policy import AllowedPool, StrategyPolicy
from app.services.bids import UNSIGNED, BidderIdentity, BidSpec, bid_request
from app.services.strategy_policies import identity_of
from app.wallet.keys import WalletKeys

START_MS = 1_800_000_000_000
MINUTE_MS = 60_000
HOUR_MS = 60 * MINUTE_MS
FEE = MakerFee(basis_points=0, flat_sats=1_000)
GOLD = Trait("background", "gold")


class ManualClock:
    def __init__(self, now_ms: int = START_MS) -> None:
        self.now = now_ms

    def now_ms(self) -> int:
        return self.now

    def advance(self, ms: int) -> None:
        self.now += ms


def policy_for(keys: WalletKeys, policy_id: str = "pol-1", **changes: Any) -> StrategyPolicy:
    policy = StrategyPolicy(
        policy_id=policy_id,
        bidder=identity_of(keys),
        pools=(
            AllowedPool.collection("puppets", 50_000),
            AllowedPool.trait("pals", GOLD, 30_000),
            AllowedPool.rune("DOG•GO•TO•THE•MOON", Fraction(1, 2)),
        ),
        max_exposure=200_000,
        maker_fee=FEE,
        valid_from_ms=START_MS - HOUR_MS,
        valid_until_ms=START_MS + 6 * HOUR_MS,
        max_open_bids=10,
    )
    return dataclasses.replace(policy, **changes)


def unsigned_bid(
    keys: WalletKeys, clock: ManualClock, spec: BidSpec | None = None, **changes: Any
) -> CollectionBidRequest:
    """A request of `keys` as `bids.bid_request` builds it, not signed yet."""
    spec = spec or BidSpec.collection("puppets", 40_000, 1, clock.now_ms() + HOUR_MS)
    who = BidderIdentity(
        keys.payment.address, keys.payment.public.public_key.hex(), keys.ordinals.address
    )
    request = bid_request(spec, who, clock.now_ms(), UNSIGNED)
    return dataclasses.replace(request, **changes)
