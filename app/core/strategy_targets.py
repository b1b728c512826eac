"""What a bid strategy wants in one pool right now: price levels and quantities (issue 17).

Pure: the pool's strategy (`app.core.strategy_rules`), the market (`MarketSnapshot`), the
room the budgets leave (`PoolRoom`, worked out by `app.core.strategy_plan`) and `now_ms` come
in; a `PoolTarget` goes out. The rules, in the user's words, are in docs/strategies.md; in
short:

- Prices are per item for ordinals (collection and trait pools), on the bid step grid
  (`app.core.limits`), and per rune unit for runes (exact fractions: a rune bid's wire price is
  the total for its units, at least `MIN_RUNE_PRICE_SATS`).
- Kinds: `FixedPrice`; `BelowFloor` (x % below the floor, capped); `AboveTopBid` (one step above
  the top competing bid, capped, never above a share of the floor); `Ladder` (several of those,
  each with a share of the pool's room). A ladder's steps that land on one price are one level.
- Competition is the snapshot's `top_bid`, which never counts our bids (the strategy's or the
  user's by hand), so a strategy never outbids itself. The user's own other bids in the pool
  (`manual_bids`) are a ceiling: the strategy never prices above the highest of them, so it never
  jumps ahead of a bid the user placed by hand (at an equal price the older bid fills first), and
  they take their share of the balance first (the pool rule counts them).
- A rule that needs the market (relative kinds, or a floor band) does not act on a missing or
  stale snapshot: the target is HOLD and says which data is missing. A floor outside the band,
  or a room that pays for no bid, is STOP: the plan cancels the pool's bids.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from app.core import limits
from app.core.market_snapshot import (
    MarketSnapshot,
    floor_minus_percent,
    top_bid_plus_step,
)
from app.core.pools import MakerFee, PoolKey, bid_cost
from app.core.strategy_rules import (
    HUNDRED,
    BelowFloor,
    FixedPrice,
    FloorBand,
    InvalidStrategy,
    Ladder,
    Number,
    PoolStrategy,
    PriceRule,
    rule_cap,
)

TargetStatus = Literal["bid", "hold", "stop"]


@dataclass(frozen=True)
class HeldBid:
    """An open bid of ours: the strategy's, or the user's own in the same pool."""

    bid_id: str
    price: int  # the wire price: per item (ordinals), the total for `quantity` units (runes)
    quantity: int  # 1 per ordinals bid as the service lists them; rune units for a rune bid
    expires_at_ms: int
    placed_at_ms: int

    def unit_price(self, rune: bool) -> Fraction:
        return Fraction(self.price, self.quantity) if rune else Fraction(self.price)

    def bid_count(self, rune: bool) -> int:
        """Bids it is: a rune bid is one bid whatever its units."""
        return 1 if rune else self.quantity

    def cost(self, rune: bool, fee: MakerFee) -> int:
        """What it commits from the balance (the pool rule): each bid's price plus maker fee."""
        return self.bid_count(rune) * bid_cost(self.price, fee)


@dataclass(frozen=True)
class PoolRoom:
    """What the budgets and the balance leave this pool: sats (maker fee included) and bids;
    `bound_by` says, in words, which limit is the tightest."""

    sats: int
    bids: int
    bound_by: str
    # Which limit that is: "pool_budget", "total_budget", "balance" or "max_bids" (a budget
    # spent is told apart from a balance short, e.g. for the window's notices).
    limit: str = ""


@dataclass(frozen=True)
class TargetLevel:
    price: int  # wire price: per item (ordinals); the total for `quantity` units (runes)
    quantity: int  # bids at `price` (ordinals); units of the level's one bid (runes)
    unit_price: Fraction
    max_unit_price: Fraction  # no bid at this level is ever above it (caps and ceilings)
    room_sats: int  # the level's share of the pool's room
    why: str  # how the price was found, in words

    def bid_count(self, rune: bool) -> int:
        return 1 if rune else self.quantity

    def describe(self, rune: bool) -> str:
        """'3 bids at 50,000 sats', or '1,000 units for 12,000 sats', and why that price."""
        if rune:
            return f"one bid of {self.quantity:,} units for {sats(self.price)} ({self.why})"
        plural = "" if self.quantity == 1 else "s"
        return f"{self.quantity:,} bid{plural} at {sats(self.price)} ({self.why})"


@dataclass(frozen=True)
class PoolTarget:
    pool: PoolKey
    status: TargetStatus
    levels: tuple[TargetLevel, ...]  # highest unit price first; empty unless "bid"
    reason: str
    hold_cap: Fraction  # a kept bid is never above it (the rules' caps, the manual ceiling)
    is_rune: bool
    # STOP because the room pays for no bid at the price found (a budget spent, the balance
    # short), not because of the floor band or a price under the minimum
    room_short: bool = False


@dataclass(frozen=True)
class _Priced:
    unit_price: Fraction  # for runes with `strictly_above`: the price to beat, not to bid
    max_unit_price: Fraction
    why: str
    strictly_above: bool = False


def sats(value: Number) -> str:
    """A sat amount in words: '50,000 sats', '0.25 sats' (rune unit prices are fractions)."""
    exact = Fraction(value)
    if exact.denominator == 1:
        return f"{exact.numerator:,} sats"
    return f"{float(exact):,.6g} sats"


def percent(value: Number) -> str:
    """A percentage in words: '10 %', '12.5 %'."""
    exact = Fraction(value)
    return f"{exact.numerator} %" if exact.denominator == 1 else f"{float(exact):.4g} %"


def _exact(market_price: float) -> Fraction:
    """A market price as the decimal it is written as (0.35 is 7/20, not the float's binary)."""
    return Fraction(str(market_price))


def is_stale(snapshot: MarketSnapshot | None, now_ms: int, max_age_ms: int) -> bool:
    return snapshot is None or now_ms - snapshot.fetched_at_ms > max_age_ms


def manual_ceiling(manual_bids: tuple[HeldBid, ...], rune: bool) -> Fraction | None:
    """The highest unit price of the user's own other bids in the pool (None without any)."""
    return max((b.unit_price(rune) for b in manual_bids), default=None)


def _grid(price: Fraction, rune: bool) -> Fraction:
    return price if rune else Fraction(limits.price_step_at_or_below(price))


def _price(
    rule: PriceRule, snap: MarketSnapshot | None, rune: bool, ceiling: Fraction | None
) -> _Priced | str:
    """The rule's unit price and its highest allowed one; a reason string when it has none."""
    cap = rule_cap(rule)
    caps = [(cap, f"the cap of {sats(cap)}")]
    if ceiling is not None:
        caps.append((ceiling, f"your own bid at {sats(ceiling)} in this pool"))
    if isinstance(rule, FixedPrice):
        return _capped(cap, "the fixed price", caps, rune)
    if snap is None:
        return "no market data"
    if isinstance(rule, BelowFloor):
        if snap.floor is None:
            return "no listing, so no floor to bid below"
        if rune:
            exact = _exact(snap.floor) * (HUNDRED - Fraction(rule.percent_below)) / HUNDRED
        else:
            stepped = floor_minus_percent(snap, float(rule.percent_below))
            exact = Fraction(stepped if stepped is not None else 0)
        why = f"{percent(rule.percent_below)} below the floor of {sats(_exact(snap.floor))}"
        return _capped(exact, why, caps, rune)
    if snap.floor is None:
        return "no listing, so no floor to keep the price under"
    share = _exact(snap.floor) * Fraction(rule.max_floor_percent) / HUNDRED
    caps.append(
        (share, f"{percent(rule.max_floor_percent)} of the floor of {sats(_exact(snap.floor))}")
    )
    if snap.top_bid is None:
        if rule.opening_unit_price is None:
            return "no competing bid to follow"
        opening = Fraction(rule.opening_unit_price)
        return _capped(opening, "the opening price (no competing bid)", caps, rune)
    top = sats(_exact(snap.top_bid))
    below = (_exact(snap.top_bid), f"{top} a unit" if rune else top)
    if rune:  # no step grid: one sat of the total above the top bid's price for our units
        why = f"just above the top competing bid of {top} a unit"
        return _capped(_exact(snap.top_bid), why, caps, rune, strictly_above=True, top_bid=below)
    why = f"one step above the top competing bid of {top}"
    return _capped(Fraction(top_bid_plus_step(snap) or 0), why, caps, rune, top_bid=below)


def _capped(
    price: Fraction,
    why: str,
    caps: list[tuple[Fraction, str]],
    rune: bool,
    *,
    strictly_above: bool = False,
    top_bid: tuple[Fraction, str] | None = None,
) -> _Priced:
    """`top_bid`: the top competing bid (and its words) a held price may not pass: said."""
    highest, binding = min(caps, key=lambda c: c[0])
    top = _grid(highest, rune)
    price = _grid(price, rune)  # every ordinals price lands on the step grid, rounded down
    if price > top or (strictly_above and price >= top):
        held = f"{why}, held at {binding}"
        if top_bid is not None and top <= top_bid[0]:
            where = "below" if top < top_bid[0] else "level with"
            held += f", {where} the top bid of {top_bid[1]}: your bids will not be on top"
        return _Priced(top, top, held)
    return _Priced(price, top, why, strictly_above)


def _largest_total(room_sats: int, fee: MakerFee) -> int:
    """The largest price whose cost (price plus maker fee) fits `room_sats`; 0 when none."""
    if room_sats <= fee.flat_sats:
        return 0
    total = (room_sats - fee.flat_sats) * 10_000 // (10_000 + fee.basis_points)
    while bid_cost(total + 1, fee) <= room_sats:
        total += 1
    while total > 0 and bid_cost(total, fee) > room_sats:
        total -= 1
    return total


def _size_ordinals(p: _Priced, room_sats: int, room_bids: int, fee: MakerFee) -> tuple[int, int]:
    price = int(p.unit_price)
    return price, min(room_bids, room_sats // bid_cost(price, fee))


def _size_rune(p: _Priced, room_sats: int, room_bids: int, fee: MakerFee) -> tuple[int, int]:
    """(total, units) of one rune bid filling `room_sats` at the unit price; (0, 0) for none."""
    largest = _largest_total(room_sats, fee)
    if room_bids < 1 or largest < 1:
        return 0, 0
    if p.strictly_above:  # a total one sat above `unit_price x units`, within the cap
        units = int((largest - 1) / p.unit_price)
        total = int(p.unit_price * units) + 1
        total = min(total, int(p.max_unit_price * units))
    else:
        units = int(largest / p.unit_price)
        total = int(p.unit_price * units)
    units = min(units, limits.MAX_SAFE_INTEGER)
    return (total, units) if units >= 1 else (0, 0)


def compute_target(
    strategy: PoolStrategy,
    snapshot: MarketSnapshot | None,
    room: PoolRoom,
    *,
    fee: MakerFee,
    manual_bids: tuple[HeldBid, ...],
    now_ms: int,
    max_market_age_ms: int,
) -> PoolTarget:
    """The pool's target levels now, sized within `room` (see the module docstring)."""
    if snapshot is not None and snapshot.pool != strategy.pool:
        raise InvalidStrategy(f"the market read is of pool {snapshot.pool}, not {strategy.pool}")
    rune = strategy.is_rune
    if snapshot is not None and snapshot.is_rune != rune:
        kind = "a rune pool" if snapshot.is_rune else "an ordinals pool"
        raise InvalidStrategy(f"the market read of {strategy.pool} is {kind}, the strategy's not")
    ceiling = manual_ceiling(manual_bids, rune)
    hold_cap = strategy.cap() if ceiling is None else min(strategy.cap(), ceiling)

    def outcome(
        status: TargetStatus,
        reason: str,
        levels: tuple[TargetLevel, ...] = (),
        room_short: bool = False,
    ) -> PoolTarget:
        return PoolTarget(strategy.pool, status, levels, reason, hold_cap, rune, room_short)

    stale = is_stale(snapshot, now_ms, max_market_age_ms)
    missing = "no market data" if snapshot is None else "the market data is stale"
    market = None if stale else snapshot
    band = strategy.floor_band
    if band is not None:
        if market is None:
            return outcome("hold", f"Holding: {missing}, so the floor band cannot be checked.")
        if market.floor is None:
            return outcome("hold", "Holding: no listing, so no floor to check against the band.")
        floor = _exact(market.floor)
        low, high = band.min_floor, band.max_floor
        if (low is not None and floor < low) or (high is not None and floor > high):
            return outcome(
                "stop",
                f"Stopped: the floor of {sats(floor)} is outside the band ({_band_words(band)}).",
            )
    priced: dict[Fraction, tuple[_Priced, Fraction]] = {}
    notes: list[str] = []
    unpriced = 0  # ladder steps the market gives no price now
    for rule, share in strategy.price_rules():
        p = _price(rule, market, rune, ceiling)
        if isinstance(p, str):
            if p == "no market data":
                return outcome(
                    "hold",
                    f"Holding: {missing}; a price relative to the market "
                    f"is not set on missing data.",
                )
            if not isinstance(strategy.rule, Ladder):
                return outcome("hold", f"Holding: {p}.")
            notes.append(f"a step has no price ({p})")
            unpriced += 1
            continue
        if rune and p.unit_price <= 0:
            notes.append(f"{p.why}: no price above 0")
            continue
        if not rune and p.unit_price < limits.MIN_ORDINALS_PRICE_SATS:
            notes.append(f"{p.why}: below the lowest price, {sats(limits.MIN_ORDINALS_PRICE_SATS)}")
            continue
        key = p.unit_price
        before = priced.get(key)
        priced[key] = (p, share + (before[1] if before else 0))
    levels = _size_levels(priced, room, fee, rune, notes)
    if not levels:
        detail = "; ".join(notes) if notes else f"no bid fits: {room.bound_by}"
        if unpriced == len(strategy.price_rules()):  # every step waits for the market
            return outcome("hold", f"Holding: {detail}.")
        # A price was found (those under the minimum never reach `priced`): the room is short.
        return outcome("stop", f"Stopped: {detail}.", room_short=bool(priced))
    reason = "; ".join(lv.describe(rune) for lv in levels)
    if notes:
        reason += " (" + "; ".join(notes) + ")"
    return outcome("bid", reason[0].upper() + reason[1:] + ".", levels)


def _size_levels(
    priced: dict[Fraction, tuple[_Priced, Fraction]],
    room: PoolRoom,
    fee: MakerFee,
    rune: bool,
    notes: list[str],
) -> tuple[TargetLevel, ...]:
    levels: list[TargetLevel] = []
    bids_left = room.bids
    for unit in sorted(priced, reverse=True):
        p, share = priced[unit]
        level_room = int(room.sats * share / HUNDRED)
        size = _size_rune if rune else _size_ordinals
        price, quantity = size(p, level_room, bids_left, fee)
        if quantity < 1:
            notes.append(f"{p.why}: no bid fits, {room.bound_by}")
            continue
        if rune and price < limits.MIN_RUNE_PRICE_SATS:
            notes.append(f"{p.why}: its room buys less than {sats(limits.MIN_RUNE_PRICE_SATS)}")
            continue
        exact = Fraction(price, quantity) if rune else Fraction(price)
        count = 1 if rune else quantity
        bids_left -= count
        levels.append(TargetLevel(price, quantity, exact, p.max_unit_price, level_room, p.why))
    return tuple(levels)


def _band_words(band: FloorBand) -> str:
    low = "no lower bound" if band.min_floor is None else f"at least {sats(band.min_floor)}"
    high = "no upper bound" if band.max_floor is None else f"at most {sats(band.max_floor)}"
    return f"{low}, {high}"
