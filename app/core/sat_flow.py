"""ord's first-in-first-out sat flow, as pure functions (the app's and the sandbox's one copy).

The inputs' sats, concatenated in input order, fill the outputs in output order; what is left
is the fee. An inscription sits on one sat (its input and its offset inside that input), so it
lands where that sat lands. Zero-value outputs own no sats. In a block, the coinbase outputs
receive the new subsidy sats first and then each transaction's fee sats, in block order.
Runes moved without a runestone edict go to the first output that is not OP_RETURN.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate

from app.core.errors import CoreError

OP_RETURN = 0x6A


class SatFlowError(CoreError, ValueError):
    """A sat given as (input, offset) that the input does not hold."""


@dataclass(frozen=True)
class SatDestination:
    """Where one sat landed: output `vout` at `offset`, or the fee at `offset` (vout None)."""

    vout: int | None
    offset: int

    @property
    def to_fee(self) -> bool:
        return self.vout is None


def input_position(input_values: Sequence[int], input_index: int, offset: int) -> int:
    """Absolute position of a sat given as (input, offset within that input's output)."""
    if not 0 <= input_index < len(input_values):
        raise SatFlowError(f"no input {input_index} (the transaction has {len(input_values)})")
    if not 0 <= offset < input_values[input_index]:
        raise SatFlowError(
            f"offset {offset} outside input {input_index} of {input_values[input_index]} sats"
        )
    return sum(input_values[:input_index]) + offset


def _locate(ends: Sequence[int], output_values: Sequence[int], position: int) -> SatDestination:
    # bisect_right skips zero-value outputs: their end equals the previous end.
    vout = bisect_right(ends, position)
    if vout < len(output_values):
        return SatDestination(vout, position - (ends[vout] - output_values[vout]))
    total_out = ends[-1] if ends else 0
    return SatDestination(None, position - total_out)


def locate(output_values: Sequence[int], position: int) -> SatDestination:
    """Which output receives the sat at absolute `position` of the inputs (FIFO)."""
    return _locate(list(accumulate(output_values)), output_values, position)


def route(
    input_values: Sequence[int],
    output_values: Sequence[int],
    sats: Sequence[tuple[int, int]],
) -> list[SatDestination]:
    """Destinations of `sats` given as (input_index, offset)."""
    ends = list(accumulate(output_values))
    return [
        _locate(ends, output_values, input_position(input_values, index, offset))
        for index, offset in sats
    ]


def route_partial(
    input_values: Sequence[int | None],
    output_values: Sequence[int],
    input_index: int,
    offset: int,
) -> SatDestination | None:
    """Like `route` for one sat, when some input amounts may be unknown (None).

    Only the inputs before `input_index` decide where the sat lands, so the answer is known
    whenever they are; None means it cannot be known (never a guess).
    """
    before = input_values[:input_index]
    own = input_values[input_index] if 0 <= input_index < len(input_values) else None
    if own is None or any(v is None for v in before):
        return None
    known = [v for v in before if v is not None]
    [dest] = route([*known, own], output_values, [(input_index, offset)])
    return dest


def coinbase_position(subsidy: int, fees_before: int, fee_offset: int) -> int:
    """Position among the coinbase's sats of a sat that was at `fee_offset` in a transaction's
    fee, when the transactions before it in the block paid `fees_before` in total."""
    return subsidy + fees_before + fee_offset


def rune_destination(output_scripts: Sequence[bytes]) -> int | None:
    """Runes without a runestone go to the first output that is not OP_RETURN (None: burned)."""
    for vout, spk in enumerate(output_scripts):
        if spk[:1] != bytes([OP_RETURN]):
            return vout
    return None
