"""Fee estimates normalised from the two public shapes.

- Esplora ``GET /fee-estimates``: ``{"1": 87.88, "2": 87.88, "3": 81.1, ..., "1008": 1.02}``
  (confirmation target in blocks -> sat/vB).
- mempool.space ``GET /v1/fees/recommended``: ``{"fastestFee": 12, "halfHourFee": 10,
  "hourFee": 8, "economyFee": 4, "minimumFee": 2}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.net.fields import Reader, as_int

# mempool.space names -> the confirmation target each one stands for.
_RECOMMENDED_TARGETS = {
    "fastestFee": 1,
    "halfHourFee": 3,
    "hourFee": 6,
    "economyFee": 144,
    "minimumFee": 1008,
}


@dataclass(frozen=True)
class FeeEstimates:
    """sat/vB per confirmation target (blocks). Use the named properties or ``for_target``."""

    by_target: Mapping[int, float]

    def for_target(self, blocks: int) -> float:
        """The rate for confirmation within ``blocks``: the estimate of the largest known target
        not above it (at least as fast as asked), else the fastest known."""
        if blocks < 1:
            raise ValueError("a confirmation target is at least 1 block")
        eligible = [t for t in self.by_target if t <= blocks]
        target = max(eligible) if eligible else min(self.by_target)
        return self.by_target[target]

    @property
    def fastest(self) -> float:
        return self.for_target(1)

    @property
    def half_hour(self) -> float:
        return self.for_target(3)

    @property
    def hour(self) -> float:
        return self.for_target(6)

    @property
    def economy(self) -> float:
        return self.for_target(144)

    @property
    def minimum(self) -> float:
        return min(self.by_target.values())


def parse_fee_estimates(r: Reader, body: Any) -> FeeEstimates | None:
    """Either shape; None when the body holds no usable estimate (e.g. ``{}`` on regtest)."""
    data = r.obj(body)
    rates: dict[int, float] = {}
    for key, value in data.items():
        target = _RECOMMENDED_TARGETS.get(key)
        if target is None:
            target = as_int(key)
        if target is None or target < 1:
            continue
        if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
            rates[target] = float(value)
    return FeeEstimates(rates) if rates else None
