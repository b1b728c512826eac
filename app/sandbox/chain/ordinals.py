"""ord's rules for where sats go, as pure functions (no storage).

Sats flow first-in-first-out: the inputs' sats, concatenated in input order, fill the outputs
in output order; what is left is the fee. In a block, the coinbase outputs receive the new
subsidy sats first and then each transaction's fee sats, in block order.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate


@dataclass(frozen=True)
class SatDestination:
    """Where one sat landed: output `vout` at `offset`, or the fee at `offset` (vout None)."""

    vout: int | None
    offset: int


def input_position(input_values: Sequence[int], input_index: int, offset: int) -> int:
    """Absolute position of a sat given as (input, offset within that input's output)."""
    if not 0 <= offset < input_values[input_index]:
        raise ValueError(f"offset {offset} outside input {input_index}")
    return sum(input_values[:input_index]) + offset


def locate(output_values: Sequence[int], position: int) -> SatDestination:
    """Which output receives the sat at absolute `position` of the inputs (FIFO)."""
    ends = list(accumulate(output_values))
    vout = bisect_right(ends, position)
    # Zero-value outputs own no sats, bisect_right skips them.
    if vout < len(output_values):
        start = ends[vout] - output_values[vout]
        return SatDestination(vout, position - start)
    total_out = ends[-1] if ends else 0
    return SatDestination(None, position - total_out)


def route(
    input_values: Sequence[int],
    output_values: Sequence[int],
    sats: Sequence[tuple[int, int]],
) -> list[SatDestination]:
    """Destinations of `sats` given as (input_index, offset)."""
    return [
        locate(output_values, input_position(input_values, index, offset)) for index, offset in sats
    ]


def coinbase_position(subsidy: int, fees_before: int, fee_offset: int) -> int:
    """Position among the coinbase's sats of a sat that was at `fee_offset` in a transaction's
    fee, when the transactions before it in the block paid `fees_before` in total."""
    return subsidy + fees_before + fee_offset


def rune_destination(output_scripts: Sequence[bytes]) -> int | None:
    """Runes without a runestone go to the first output that is not OP_RETURN (None: burned)."""
    for vout, spk in enumerate(output_scripts):
        if spk[:1] != b"\x6a":
            return vout
    return None
