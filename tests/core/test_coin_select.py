"""Coin selection for funding: largest confirmed coins first, the fee paid at the asked rate
on the signed size, dust change left to the fee, and a clear shortfall; coin control spends
exactly the coins chosen."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.core.coin_select import (
    DUST_LIMIT,
    Coin,
    CoinSelectionError,
    NotEnoughFunds,
    fee_for,
    select_coins,
    spend_coins,
)

P2WPKH = bytes.fromhex("0014") + bytes(20)
P2SH = bytes.fromhex("a914") + bytes(20) + b"\x87"
P2TR = bytes.fromhex("5120") + bytes(32)
P2PKH = bytes.fromhex("76a914") + bytes(20) + bytes.fromhex("88ac")


def coin(n: int, value: int, confirmed: bool = True) -> Coin:
    return Coin(f"{n:064x}:0", value, confirmed)


def test_largest_confirmed_coins_first() -> None:
    coins = [coin(1, 50_000), coin(2, 900_000, confirmed=False), coin(3, 200_000)]
    picked = select_coins(coins, 100_000, Fraction(2), P2WPKH, [P2TR], P2WPKH)
    assert [c.outpoint for c in picked.coins] == [coin(3, 0).outpoint]
    # A P2WPKH input, a P2TR and a P2WPKH output: 42 + 272 + 172 + 124 weight -> 153 vB.
    assert picked.vsize == 153 and picked.fee == 306
    assert picked.change == 200_000 - 100_000 - 306


def test_dust_change_goes_to_the_fee() -> None:
    value = 100_000 + fee_for(42 + 272 + 172 + 124, Fraction(1)) + DUST_LIMIT - 1
    picked = select_coins([coin(1, value)], 100_000, Fraction(1), P2WPKH, [P2TR], P2WPKH)
    assert picked.change == 0 and picked.fee == value - 100_000
    assert picked.vsize == 122  # no change output


def test_not_enough_says_how_much_is_needed() -> None:
    with pytest.raises(NotEnoughFunds) as caught:
        select_coins([coin(1, 10_000), coin(2, 5_000)], 20_000, Fraction(3), P2WPKH, [P2TR], P2WPKH)
    assert caught.value.available == 15_000
    assert caught.value.needed > 20_000


@pytest.mark.parametrize(("amount", "rate"), [(0, Fraction(1)), (1_000, Fraction(0))])
def test_malformed_requests(amount: int, rate: Fraction) -> None:
    with pytest.raises(CoinSelectionError):
        select_coins([coin(1, 50_000)], amount, rate, P2WPKH, [P2TR], P2WPKH)


def test_legacy_inputs_are_not_spendable_here() -> None:
    with pytest.raises(CoinSelectionError, match="p2pkh"):
        select_coins([coin(1, 50_000)], 1_000, Fraction(1), P2PKH, [P2TR], P2PKH)


@given(
    values=st.lists(st.integers(1, 3_000_000), min_size=1, max_size=12),
    amount=st.integers(1_000, 2_000_000),
    rate=st.fractions(Fraction(1), Fraction(300)),
    spend=st.sampled_from([P2WPKH, P2SH, P2TR]),
)
def test_every_selection_balances_and_pays_the_rate(
    values: list[int], amount: int, rate: Fraction, spend: bytes
) -> None:
    coins = [coin(i, v, confirmed=i % 3 != 0) for i, v in enumerate(values)]
    try:
        picked = select_coins(coins, amount, rate, spend, [P2TR], spend)
    except NotEnoughFunds as exc:
        assert exc.available == sum(values)
        return
    assert picked.total_in == amount + picked.fee + picked.change
    assert picked.fee >= rate * picked.vsize
    assert picked.change == 0 or picked.change >= DUST_LIMIT
    assert len({c.outpoint for c in picked.coins}) == len(picked.coins)


def test_coin_control_spends_every_chosen_coin() -> None:
    coins = [coin(1, 50_000), coin(2, 900_000, confirmed=False), coin(3, 200_000)]
    picked = spend_coins(coins, 100_000, Fraction(2), P2WPKH, [P2TR], P2WPKH)
    assert {c.outpoint for c in picked.coins} == {c.outpoint for c in coins}
    assert picked.total_in == 100_000 + picked.fee + picked.change
    # Three P2WPKH inputs instead of one: 2 x 68 vB more than the single-coin selection.
    assert picked.vsize == 153 + 2 * 68 and picked.fee == 2 * picked.vsize
    assert spend_coins(
        [coin(1, 50_000)] * 2, 10_000, Fraction(1), P2WPKH, [P2TR], P2WPKH
    ).coins == (coin(1, 50_000),)  # a coin chosen twice is spent once


def test_coin_control_says_when_the_chosen_coins_fall_short() -> None:
    with pytest.raises(NotEnoughFunds) as caught:
        spend_coins([coin(1, 10_000)], 10_000, Fraction(1), P2WPKH, [P2TR], P2WPKH)
    assert caught.value.available == 10_000 and caught.value.needed == 10_000 + 122
    with pytest.raises(CoinSelectionError):
        spend_coins([], 10_000, Fraction(1), P2WPKH, [P2TR], P2WPKH)


@given(
    values=st.lists(st.integers(1, 3_000_000), min_size=1, max_size=12),
    amount=st.integers(1_000, 2_000_000),
    rate=st.fractions(Fraction(1), Fraction(300)),
)
def test_coin_control_balances_and_pays_the_rate(
    values: list[int], amount: int, rate: Fraction
) -> None:
    coins = [coin(i, v) for i, v in enumerate(values)]
    try:
        picked = spend_coins(coins, amount, rate, P2WPKH, [P2TR], P2WPKH)
    except NotEnoughFunds as exc:
        assert exc.available == sum(values) and exc.needed > amount
        return
    assert len(picked.coins) == len(coins)
    assert picked.total_in == amount + picked.fee + picked.change
    assert picked.fee >= rate * picked.vsize
    assert picked.change == 0 or picked.change >= DUST_LIMIT
