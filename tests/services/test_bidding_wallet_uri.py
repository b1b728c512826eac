"""BIP-21 payment links for funding the bidding wallet from another wallet (pure)."""

from __future__ import annotations

import pytest

from app.services.bidding_wallet import bip21_uri, format_btc
from app.services.errors import ServiceError


@pytest.mark.parametrize(
    ("sats", "text"),
    [
        (1, "0.00000001"),
        (150_000, "0.0015"),
        (100_000_000, "1"),
        (2_100_000_000_000_000, "21000000"),
    ],
)
def test_format_btc(sats: int, text: str) -> None:
    assert format_btc(sats) == text


def test_bip21_encodes_label_and_message() -> None:
    uri = bip21_uri("bcrt1qexample", 5_000, label="Ada & Bob", message="50% of it?")
    assert (
        uri
        == "bitcoin:bcrt1qexample?amount=0.00005&label=Ada%20%26%20Bob&message=50%25%20of%20it%3F"
    )
    assert bip21_uri("bcrt1qexample") == "bitcoin:bcrt1qexample"


@pytest.mark.parametrize("amount", [0, -1])
def test_bip21_refuses_non_positive_amounts(amount: int) -> None:
    with pytest.raises(ServiceError, match="positive"):
        bip21_uri("bcrt1qexample", amount)


def test_bip21_refuses_an_address_that_would_break_the_link() -> None:
    with pytest.raises(ServiceError):
        bip21_uri("bcrt1q?amount=9")
