"""Builders for the core tests: one valid request, changed field by field in each test."""

from __future__ import annotations

import dataclasses
from typing import Any

from app.core.bid_request import CollectionBidRequest, Trait

NOW_MS = 1_700_000_000_000
MINUTE_MS = 60_000

BASE_REQUEST = CollectionBidRequest(
    price=10_000,
    collection_slug="bitcoin-puppets",
    bidder_address="bc1qpaymentaddressxxxxxxxxxxxxxxxxxxxxxxxx",
    bidder_address_public_key="02" + "ab" * 32,
    bidder_token_receive_address="bc1pordinalsaddressxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    quantity=1,
    meta_type="ordinals",
    bid_expiry=NOW_MS + 30 * MINUTE_MS,
    timestamp=NOW_MS,
    signed_bidding_message="AkcwRAIgsignaturebase64==",
)


def make_request(**changes: Any) -> CollectionBidRequest:
    return dataclasses.replace(BASE_REQUEST, **changes)


def traits(n: int, prefix: str = "t") -> tuple[Trait, ...]:
    return tuple(Trait(f"{prefix}{i}", f"v{i}") for i in range(n))
