"""What one run of the guard's fuzz property ends in: its `Kind` (refused, and by what;
approved and harmless; or a failure) and the `Outcome` a counterexample reports.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from app.wallet.psbt_fixes import FixedPSBT
from tests.support.psbt_eff_compare import Difference
from tests.support.psbt_mutations import Op


class Kind(StrEnum):
    PARSE = "refused by parse_psbt"
    VERDICT = "refused by the policy"
    SIGNER = "refused by the signing gate or signer"
    COLLISION = "refused by the ANYONECANPAY collision check"
    CHECK_SIGNED = "refused by check_signed"
    HARMLESS = "approved, harmless"
    HARMFUL = "APPROVED AND HARMFUL"
    INCONSISTENT = "INCONSISTENT"  # a check disagrees with an independent one
    CRASH = "CRASH"


@dataclass
class Outcome:
    kind: Kind
    ops: Sequence[Op]
    detail: str = ""
    differences: list[Difference] = field(default_factory=list)
    consented_fee: bool = False
    signed: FixedPSBT | None = field(default=None, repr=False)  # what was signed, if anything
    kernel: tuple[int, int] = (0, 0)  # our signatures Bitcoin Core judged, of those we made

    @property
    def failed(self) -> bool:
        return self.kind in (Kind.HARMFUL, Kind.INCONSISTENT, Kind.CRASH)

    @property
    def refused(self) -> bool:
        return self.kind not in (Kind.HARMLESS, Kind.HARMFUL, Kind.INCONSISTENT, Kind.CRASH)

    def report(self) -> str:
        lines = [f"{self.kind}: {self.detail}", "mutations:"]
        lines += [f"  {op!r}" for op in self.ops]
        lines += [f"  {d!r}" for d in self.differences]
        return "\n".join(lines)
