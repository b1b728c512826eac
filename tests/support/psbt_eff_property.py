"""The guard's fuzz property, shared by tests/core/test_guard_fuzz.py and
benchmarks/bench_guard_fuzz.py: a mutated PSBT is refused, or our signatures on it are
harmless. `targets()` gives each flow to fuzz: a strategy and the run that judges one draw.

    outcome = run_flow("withdraw", ops)        # ops from psbt_mutations.mutation_lists()
    outcome = run_bulk(3, ops)                 # ops from psbt_mut_bulk.batch_ops()
    outcome = run_offline("secure_listing", ops)  # ops from psbt_mut_offline.offline_ops()
    assert not outcome.failed, outcome.report()

The runs live in tests.support.psbt_eff_flow (one PSBT of a flow, mirroring the app from
parse_psbt to check_signed), psbt_eff_bulk (a batch of secure listings) and psbt_eff_offline
(offline import); what they end in, in psbt_eff_outcome. What got signed is judged by its
effect on the ground truth (tests.support.psbt_effects) against the honest scenario's, and
every signature we made is checked by Bitcoin Core's interpreter against the true coins: it
must accept exactly those the effect model says can be valid.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from tests.support.psbt_eff_bulk import run_bulk
from tests.support.psbt_eff_flow import run_flow
from tests.support.psbt_eff_offline import run_offline
from tests.support.psbt_eff_outcome import Outcome
from tests.support.psbt_mut_bulk import MAX_ITEMS, ORDINALS_KINDS, batch_ops
from tests.support.psbt_mut_offline import offline_ops
from tests.support.psbt_mutations import mutation_lists

FLOWS = (
    "funding",
    "withdraw",
    "inscription_bid",
    "inscription_bid_taproot",
    "secure_listing",
    "secure_listing_runes",
)
OFFLINE_FLOWS = ("withdraw", "inscription_bid", "inscription_bid_taproot", "secure_listing")


@dataclass(frozen=True)
class Target:
    """A flow to fuzz: hypothesis draws `strategy`, `run` turns the draw into an Outcome."""

    name: str
    strategy: st.SearchStrategy[Any]
    run: Callable[[Any], Outcome]


def _single(name: str) -> Target:
    return Target(name, mutation_lists(), lambda ops: run_flow(name, ops))


def targets() -> dict[str, Target]:
    """Every flow of issue 12: the six single-PSBT flows, a bulk listing, offline import."""
    found = {name: _single(name) for name in FLOWS}
    found["secure_listing_bulk"] = Target(
        "secure_listing_bulk",
        st.tuples(st.integers(2, MAX_ITEMS), batch_ops(), st.sampled_from(ORDINALS_KINDS)),
        lambda draw: run_bulk(*draw),
    )
    found["offline_import"] = Target(
        "offline_import",
        st.tuples(st.sampled_from(OFFLINE_FLOWS), offline_ops()),
        lambda draw: run_offline(*draw),
    )
    return found
