"""Harmless or not, for the guard's fuzzer: how a mutated effect of our signatures compares
with the honest one (tests.support.psbt_effects computes both).

    differences = compare(honest_effect, effect, allowance)   # [] or tolerated: harmless

Worse for the user is harmful: a group of ours poorer (beyond the fee the user approved,
`Allowance`), an item of ours landing elsewhere, a later confirmation (beyond the guard's
documented slack), a signature committing to no output.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from app.core.psbt_review_context import Role
from app.core.psbt_review_time import ChainTip
from tests.support.psbt_eff_model import OPEN, OURS, Earliest, Effect
from tests.support.psbt_effects import item_keys
from tests.support.psbt_mut_world import TrueCoin

# Sats are compared per custody: the user's own keys (payment and ordinals addresses, one
# wallet) and the bidding wallet (a 1-of-2 with the service whose balance backs the bids).
GROUPS: dict[str, frozenset[Role]] = {
    "your wallet": frozenset({Role.PAYMENT, Role.ORDINALS}),
    "your bidding wallet": frozenset({Role.BIDDING_WALLET}),
}


@dataclass(frozen=True)
class Allowance:
    """What the user approved beyond the honest effect: a fee up to the user's bounds, paid by
    `fee_group` (the group paying the fee honestly; None: the user pays no fee), and the
    guard's documented slack on time (one block; a time lock at the tip's median time)."""

    fee_group: str | None = None
    extra_fee: int = 0
    tip: ChainTip | None = None
    # The highest fee rate the user approved (their cap, and a multiple of the market's
    # next-block estimate); None: no bound (the user consented to this very fee).
    max_rate: Fraction | None = None
    # A runes listing sells a whole output (SecureListingIntent.runes_outpoint): every rune
    # balance on it, whatever ord finds there, is the item, and goes with the item's sats
    # (Effect.with_item: honestly the escrow) or stays ours; anywhere else (the service's fee
    # output, burned, split) the buyer pays for runes someone else gets.
    sold_outputs: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Difference:
    harmful: bool
    text: str

    def __repr__(self) -> str:
        return ("HARM: " if self.harmful else "tolerated: ") + self.text


_OUR_LABELS = frozenset(r.value for r in OURS)


def compare(
    honest: Effect,
    mutated: Effect,
    allowance: Allowance,
    world: Mapping[str, TrueCoin] | None = None,
    owners: Mapping[bytes, Role] | None = None,
) -> list[Difference]:
    """How `mutated` is worse for the user than `honest` (harmful) or differs within what the
    user approved (tolerated). `world`/`owners` give the baseline of items the honest effect
    does not know (a coin whose contents changed): they stay with their owner."""
    found = [Difference(True, f"a signature commits to no output: {b}") for b in mutated.blank]
    if mutated.void:
        return [*found, Difference(False, f"nothing can happen: {mutated.void}")]
    for group, roles in GROUPS.items():
        deficit = honest.net(roles) - mutated.net(roles)
        if deficit <= 0:
            continue
        rate = mutated.fee_rate
        if group == allowance.fee_group and deficit <= allowance.extra_fee:
            if _rate_within(rate, honest.fee_rate, allowance.max_rate):
                found.append(
                    Difference(False, f"{group} pays {deficit:,} sats more fee, in bounds")
                )
            else:
                found.append(
                    Difference(
                        True, f"{group} pays {deficit:,} sats more fee, at {rate_text(rate)}"
                    )
                )
        else:
            found.append(Difference(True, f"{group} ends {deficit:,} sats poorer"))
    baseline = dict(honest.items)
    sold_runes = set()
    for coin in (world or {}).values():
        role = (owners or {}).get(coin.script_pubkey)
        if role not in OURS or role is None:
            continue
        for name, offset in item_keys(coin):
            sold = offset is None and coin.outpoint in allowance.sold_outputs
            sold_runes |= {name} if sold else set()
            baseline.setdefault(name, OPEN if sold else role.value)
    for name in sorted(set(baseline) | set(mutated.items)):
        wanted = baseline.get(name)
        got = mutated.items.get(name, "nowhere in the transaction")
        if name in sold_runes:
            item_to = mutated.with_item.get(name, "nowhere (its coin is not sold)")
            if got != item_to and got not in _OUR_LABELS:
                found.append(
                    Difference(
                        True, f"{name}, sold, lands on {got}, not with the item on {item_to}"
                    )
                )
            continue
        if wanted not in _OUR_LABELS:
            continue  # given away honestly (sold) or never ours: wherever it goes is fine
        if got != wanted:
            found.append(Difference(True, f"{name} lands on {got}, not on {wanted}"))
    found += _compare_time(honest.earliest, mutated.earliest, allowance.tip)
    return found


RATE_TOLERANCE = Fraction(21, 20)  # 5%: our vsize and the guard's may differ by a few bytes


def rate_text(rate: Fraction | None) -> str:
    return "an unknown rate" if rate is None else f"{float(rate):.1f} sat/vB"


def _rate_within(rate: Fraction | None, honest: Fraction | None, cap: Fraction | None) -> bool:
    if cap is None or rate is None:
        return True
    return rate <= max(cap * RATE_TOLERANCE, honest or Fraction(0))


def _compare_time(h: Earliest, m: Earliest, tip: ChainTip | None) -> list[Difference]:
    """Later than honest is harmful, but for the guard's documented slack (a height lock of
    the tip + 1, a time lock at the tip's median time: one more block at most)."""
    found = []
    now_height = 0 if tip is None else tip.height + 1  # the next block
    now_median = 0 if tip is None else tip.median_time  # the next block checks the tip's MTP
    h_height, m_height = max(h.height, now_height), max(m.height, now_height)
    h_median, m_median = max(h.median_time, now_median), max(m.median_time, now_median)
    if m_height > h_height + 1:
        found.append(Difference(True, f"cannot confirm before block {m_height:,}"))
    elif m_height > h_height:
        found.append(Difference(False, f"confirms from block {m_height:,} (one block of slack)"))
    if m_median > h_median + 1:
        found.append(Difference(True, f"cannot confirm before median time {m_median:,}"))
    elif m_median > h_median:
        found.append(Difference(False, "time lock at the tip's median time (one block of slack)"))
    if m.relative_blocks > h.relative_blocks or m.relative_seconds > h.relative_seconds:
        found.append(
            Difference(
                True,
                f"relative lock: {m.relative_blocks} blocks / {m.relative_seconds} s after "
                "its coin confirms",
            )
        )
    return found


def harmful(differences: Iterable[Difference]) -> list[Difference]:
    return [d for d in differences if d.harmful]
