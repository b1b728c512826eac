"""Coin selection for paying from a single-key address (funding the bidding wallet; the fee of
moving an item back to end its listing).

Pure: the caller says which coins are cardinal (ord answered "no inscription, no runes" for
each); a coin that carries anything, or whose contents are unknown, is never a candidate.

`select_coins` takes the largest coins first (confirmed before unconfirmed) until the amount and
the fee are covered; `spend_coins` spends exactly the coins the user chose (coin control);
`select_fee_coins` pays only a fee (the rest of the transaction balances itself); change
below the dust limit is left to the fee rather than creating an output nobody can spend
economically. Sizes are BIP-141 weights of the signed inputs, so the fee rate the
transaction pays is at least the rate asked for.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from app.core.errors import CoreError
from app.core.psbt_view import ScriptType, script_type

# Weight of a signed input by the script type it spends: outpoint, sequence, scriptSig (x4),
# plus the witness (x1). P2WPKH: 72-byte signature + 33-byte key; P2TR key path: 64 bytes.
INPUT_WEIGHT = {
    ScriptType.P2WPKH: 41 * 4 + 108,
    ScriptType.P2SH: 64 * 4 + 108,  # P2SH-P2WPKH (the only P2SH this wallet holds keys for)
    ScriptType.P2TR: 41 * 4 + 66,
}
# Version, locktime, input and output counts (x4) plus the segwit marker and flag.
TX_OVERHEAD_WEIGHT = 10 * 4 + 2
# Bitcoin Core's dust limit for the largest standard output types; smaller change goes to fee.
DUST_LIMIT = 546


class CoinSelectionError(CoreError, ValueError):
    """The coins cannot pay the amount and the fee, or the request itself is malformed."""


class NotEnoughFunds(CoinSelectionError):
    def __init__(self, needed: int, available: int) -> None:
        self.needed = needed
        self.available = available
        super().__init__(f"needs {needed:,} sats but only {available:,} are spendable")


@dataclass(frozen=True)
class Coin:
    outpoint: str
    value: int
    confirmed: bool


@dataclass(frozen=True)
class Selection:
    coins: tuple[Coin, ...]
    amount: int
    fee: int
    change: int  # 0: no change output
    vsize: int

    @property
    def total_in(self) -> int:
        return sum(c.value for c in self.coins)


def output_weight(script_pubkey: bytes) -> int:
    return (8 + 1 + len(script_pubkey)) * 4


def input_weight(script_pubkey: bytes) -> int:
    kind = script_type(script_pubkey)
    if kind not in INPUT_WEIGHT:
        raise CoinSelectionError(f"cannot spend a {kind} output from this wallet")
    return INPUT_WEIGHT[kind]


def fee_for(weight: int, rate: Fraction) -> int:
    return math.ceil(rate * math.ceil(Fraction(weight, 4)))


def select_coins(
    coins: Iterable[Coin],
    amount: int,
    fee_rate: Fraction,
    spend_script: bytes,
    output_scripts: Sequence[bytes],
    change_script: bytes,
) -> Selection:
    """Coins (all of the script `spend_script`) paying `amount` to the outputs, plus change."""
    per_input, base, with_change = _weights(
        amount, fee_rate, spend_script, output_scripts, change_script
    )
    return _largest_first(coins, amount, fee_rate, per_input, base, with_change)


def select_fee_coins(
    coins: Iterable[Coin],
    fee_rate: Fraction,
    spend_script: bytes,
    fixed_weight: int,
    change_script: bytes,
) -> Selection:
    """Coins (all of `spend_script`) paying only the fee of a transaction whose other inputs
    and outputs balance each other and weigh `fixed_weight` (e.g. an item moved whole from
    one of our addresses to another), plus change; `amount` is 0."""
    if fee_rate <= 0:
        raise CoinSelectionError("the fee rate must be positive")
    per_input = input_weight(spend_script)
    base = TX_OVERHEAD_WEIGHT + fixed_weight
    return _largest_first(coins, 0, fee_rate, per_input, base, base + output_weight(change_script))


def _largest_first(
    coins: Iterable[Coin],
    amount: int,
    fee_rate: Fraction,
    per_input: int,
    base: int,
    with_change: int,
) -> Selection:
    ordered = sorted(coins, key=lambda c: (not c.confirmed, -c.value, c.outpoint))
    chosen: list[Coin] = []
    for coin in ordered:
        if coin.value <= 0:
            continue
        chosen.append(coin)
        selection = _settle(chosen, amount, fee_rate, per_input, base, with_change)
        if selection is not None:
            return selection
    needed = amount + fee_for(base + per_input * max(1, len(chosen)), fee_rate)
    raise NotEnoughFunds(needed, sum(c.value for c in chosen))


def spend_coins(
    coins: Iterable[Coin],
    amount: int,
    fee_rate: Fraction,
    spend_script: bytes,
    output_scripts: Sequence[bytes],
    change_script: bytes,
) -> Selection:
    """Every one of `coins` (the user chose them: coin control) paying `amount` to the
    outputs, plus change; `NotEnoughFunds` when together they cannot pay it and the fee."""
    per_input, base, with_change = _weights(
        amount, fee_rate, spend_script, output_scripts, change_script
    )
    chosen = sorted(dict.fromkeys(coins), key=lambda c: (not c.confirmed, -c.value, c.outpoint))
    if not chosen or any(c.value <= 0 for c in chosen):
        raise CoinSelectionError("the chosen coins must be coins with a value")
    selection = _settle(chosen, amount, fee_rate, per_input, base, with_change)
    if selection is None:
        needed = amount + fee_for(base + per_input * len(chosen), fee_rate)
        raise NotEnoughFunds(needed, sum(c.value for c in chosen))
    return selection


def _weights(
    amount: int,
    fee_rate: Fraction,
    spend_script: bytes,
    output_scripts: Sequence[bytes],
    change_script: bytes,
) -> tuple[int, int, int]:
    """Weight of one signed input, of the transaction without change, and with change."""
    if amount <= 0:
        raise CoinSelectionError("the amount must be positive")
    if fee_rate <= 0:
        raise CoinSelectionError("the fee rate must be positive")
    per_input = input_weight(spend_script)
    base = TX_OVERHEAD_WEIGHT + sum(output_weight(s) for s in output_scripts)
    return per_input, base, base + output_weight(change_script)


def _settle(
    chosen: Sequence[Coin],
    amount: int,
    fee_rate: Fraction,
    per_input: int,
    base: int,
    with_change: int,
) -> Selection | None:
    """`chosen` paying `amount`: with change when it is above dust, else the rest as fee;
    None when they cannot pay the amount and the fee."""
    total = sum(c.value for c in chosen)
    weight_in = per_input * len(chosen)
    fee_change = fee_for(with_change + weight_in, fee_rate)
    if total - amount - fee_change >= DUST_LIMIT:
        vsize = math.ceil(Fraction(with_change + weight_in, 4))
        change = total - amount - fee_change
        return Selection(tuple(chosen), amount, fee_change, change, vsize)
    fee_plain = fee_for(base + weight_in, fee_rate)
    if total - amount >= fee_plain:
        vsize = math.ceil(Fraction(base + weight_in, 4))
        return Selection(tuple(chosen), amount, total - amount, 0, vsize)
    return None
