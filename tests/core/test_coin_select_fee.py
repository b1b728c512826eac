"""Coins that pay only a fee: the item's input and output balance each other (ending a
listing), so the coins cover the fee of the whole transaction and the rest is change."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from app.core.coin_select import (
    DUST_LIMIT,
    INPUT_WEIGHT,
    TX_OVERHEAD_WEIGHT,
    Coin,
    CoinSelectionError,
    NotEnoughFunds,
    output_weight,
    select_fee_coins,
)
from app.core.psbt_view import ScriptType

P2WPKH = b"\x00\x14" + b"\x11" * 20
P2TR = b"\x51\x20" + b"\x22" * 32
# A taproot item in, the same out.
ITEM_WEIGHT = INPUT_WEIGHT[ScriptType.P2TR] + output_weight(P2TR)


def test_one_coin_pays_the_fee_of_the_whole_transaction_and_keeps_the_change() -> None:
    coins = [Coin("aa" * 32 + ":0", 5_000, True), Coin("bb" * 32 + ":1", 50_000, True)]
    chosen = select_fee_coins(coins, Fraction(2), P2WPKH, ITEM_WEIGHT, P2WPKH)
    weight = (
        TX_OVERHEAD_WEIGHT + ITEM_WEIGHT + INPUT_WEIGHT[ScriptType.P2WPKH] + output_weight(P2WPKH)
    )
    assert [c.value for c in chosen.coins] == [50_000]
    assert chosen.amount == 0
    assert chosen.vsize == math.ceil(weight / 4)
    assert chosen.fee == 2 * chosen.vsize
    assert chosen.change == 50_000 - chosen.fee


def test_change_below_dust_goes_to_the_fee() -> None:
    coins = [Coin("aa" * 32 + ":0", 600, True)]
    chosen = select_fee_coins(coins, Fraction(1), P2WPKH, ITEM_WEIGHT, P2WPKH)
    assert chosen.change == 0 and chosen.fee == 600
    assert 600 - chosen.fee < DUST_LIMIT


def test_too_little_says_how_much_is_needed() -> None:
    with pytest.raises(NotEnoughFunds) as caught:
        select_fee_coins([Coin("aa" * 32 + ":0", 100, True)], Fraction(5), P2WPKH, 0, P2WPKH)
    assert caught.value.available == 100 and caught.value.needed > 100


def test_a_fee_rate_must_be_positive() -> None:
    with pytest.raises(CoinSelectionError):
        select_fee_coins([Coin("aa" * 32 + ":0", 10_000, True)], Fraction(0), P2WPKH, 0, P2WPKH)
