"""What the user sets for a bid strategy in a pool: its kind of price, caps, budget and floor
band (issue 17). The rules that turn these into bids are `app.core.strategy_targets` and
`app.core.strategy_plan`; in the user's words, docs/strategies.md.

Prices are per item for ordinals (collection and trait pools) and per rune unit for runes,
exact: an `int` or a `Fraction`, never a float. Percentages are of 100.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from app.core.errors import CoreError
from app.core.market_snapshot import is_rune_pool
from app.core.pools import PoolKey

Number = Fraction | int
HUNDRED: Final = Fraction(100)


class InvalidStrategy(CoreError, ValueError):
    """A strategy setting out of its range (a percentage, a price, a budget, a ladder share)."""


def _positive(name: str, value: Number) -> None:
    if value <= 0:
        raise InvalidStrategy(f"{name} must be above 0, got {value}")


def _percent(name: str, value: Number, *, low_open: bool, high: int = 100) -> None:
    if value < 0 or (low_open and value == 0) or value > high:
        raise InvalidStrategy(f"{name} must be within (0, {high}] %, got {value}")


@dataclass(frozen=True)
class FixedPrice:
    unit_price: Number  # sats per item; per rune unit for runes

    def __post_init__(self) -> None:
        _positive("the fixed price", self.unit_price)


@dataclass(frozen=True)
class BelowFloor:
    percent_below: Number  # 0 <= x < 100
    max_unit_price: Number  # the cap

    def __post_init__(self) -> None:
        if not 0 <= self.percent_below < 100:
            raise InvalidStrategy(
                f"the percentage below the floor must be in [0, 100), got {self.percent_below}"
            )
        _positive("the cap", self.max_unit_price)


@dataclass(frozen=True)
class AboveTopBid:
    max_unit_price: Number  # the cap
    max_floor_percent: Number  # never above this share of the floor, (0, 100]
    opening_unit_price: Number | None = None  # with no competing bid: this price (None: wait)

    def __post_init__(self) -> None:
        _positive("the cap", self.max_unit_price)
        _percent("the share of the floor", self.max_floor_percent, low_open=True)
        if self.opening_unit_price is not None:
            _positive("the opening price", self.opening_unit_price)


PriceRule = FixedPrice | BelowFloor | AboveTopBid


@dataclass(frozen=True)
class LadderStep:
    rule: PriceRule
    budget_percent: Number  # this step's share of the pool's room, (0, 100]

    def __post_init__(self) -> None:
        _percent("a ladder step's budget share", self.budget_percent, low_open=True)


@dataclass(frozen=True)
class Ladder:
    steps: tuple[LadderStep, ...]

    def __post_init__(self) -> None:
        if not self.steps:
            raise InvalidStrategy("a ladder has at least one step")
        total = sum((Fraction(s.budget_percent) for s in self.steps), Fraction(0))
        if total > HUNDRED:
            raise InvalidStrategy(f"a ladder's budget shares add up to {total} %, over 100 %")


StrategyRule = PriceRule | Ladder


@dataclass(frozen=True)
class FloorBand:
    """The floors the strategy bids within; outside them the pool stops."""

    min_floor: Number | None = None
    max_floor: Number | None = None


@dataclass(frozen=True)
class PoolStrategy:
    pool: PoolKey
    rule: StrategyRule
    budget_sats: int  # fills plus open bids never cost more (maker fee included)
    floor_band: FloorBand | None = None
    rune: bool | None = None  # None: told from the pool's name (`is_rune_pool`)

    def __post_init__(self) -> None:
        if self.budget_sats < 0:
            raise InvalidStrategy(f"a pool's budget must not be negative, got {self.budget_sats}")
        if not self.is_rune:
            for rule, _ in self.price_rules():
                for value in _item_prices(rule):
                    if Fraction(value).denominator != 1:
                        raise InvalidStrategy(
                            f"an item's price is whole sats, got {value} in pool {self.pool}"
                        )

    @property
    def is_rune(self) -> bool:
        return is_rune_pool(self.pool) if self.rune is None else self.rune

    def price_rules(self) -> tuple[tuple[PriceRule, Fraction], ...]:
        """Each price rule with its share of the room (a single rule has all of it)."""
        if isinstance(self.rule, Ladder):
            return tuple((s.rule, Fraction(s.budget_percent)) for s in self.rule.steps)
        return ((self.rule, HUNDRED),)

    def cap(self) -> Fraction:
        """The highest unit price any of its rules may bid, whatever the market."""
        return max(rule_cap(rule) for rule, _ in self.price_rules())


def _item_prices(rule: PriceRule) -> tuple[Number, ...]:
    """The prices a rule names (not its percentages)."""
    if isinstance(rule, FixedPrice):
        return (rule.unit_price,)
    if isinstance(rule, BelowFloor):
        return (rule.max_unit_price,)
    opening = () if rule.opening_unit_price is None else (rule.opening_unit_price,)
    return (rule.max_unit_price, *opening)


def rule_cap(rule: PriceRule) -> Fraction:
    if isinstance(rule, FixedPrice):
        return Fraction(rule.unit_price)
    return Fraction(rule.max_unit_price)
