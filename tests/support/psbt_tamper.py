"""The tamper table: named malicious variants of the guarded flows' PSBTs.

    from tests.support.psbt_tamper import TAMPERS, apply_to
    for tamper in TAMPERS:
        psbt, context, blame = tamper.apply(good_psbt, good_context, prev_txs)
        # review + policy must refuse with tamper.code, the message containing `blame`

Each `Tamper` names its scenario ("withdraw", "inscription_bid", "inscription_bid_taproot",
"secure_listing", "secure_listing_runes", "funding", "end_listing", "end_listing_runes"), the
refusal code it must produce, and whether a hostile server changes the PSBT it serves, the
facts it serves (ord answers, addresses), or both. Mutations locate outputs and inputs by
role, so the HTTP tamper suite can apply the PSBT ones to the sandbox's real PSBTs.
"""

from __future__ import annotations

from tests.support.psbt_scenarios import SCENARIOS, Scenario
from tests.support.tamper_bid import BID_TAMPERS
from tests.support.tamper_end_listing import END_LISTING_TAMPERS
from tests.support.tamper_funding import FUNDING_TAMPERS
from tests.support.tamper_guard import GUARD_TAMPERS
from tests.support.tamper_listing import LISTING_TAMPERS
from tests.support.tamper_ops import Tamper, Target
from tests.support.tamper_withdraw import WITHDRAW_TAMPERS

TAMPERS: tuple[Tamper, ...] = (
    WITHDRAW_TAMPERS
    + BID_TAMPERS
    + LISTING_TAMPERS
    + FUNDING_TAMPERS
    + END_LISTING_TAMPERS
    + GUARD_TAMPERS
)

__all__ = ["SCENARIOS", "TAMPERS", "Scenario", "Tamper", "Target", "apply_to", "tampers_for"]


def tampers_for(scenario: str) -> tuple[Tamper, ...]:
    return tuple(t for t in TAMPERS if t.scenario == scenario)


def apply_to(tamper: Tamper, scenario: Scenario) -> tuple[Scenario, str]:
    """The scenario with `tamper` applied, and the text its refusal must contain."""
    psbt, context, blame = tamper.apply(scenario.psbt, scenario.context, scenario.prev_txs)
    return scenario.with_(psbt=psbt, context=context), blame
