"""Who the review says each output of a runes listing pays (app/core/psbt_review_parties.py),
when the service's addresses are not known: "the service (holds the item)" names only an output
receiving the runes our input carries, never one receiving other runes (an etching's premine a
runestone sends to the service's fee output)."""

from __future__ import annotations

import dataclasses

from app.core.psbt_review_context import Role, RuneAmount
from app.core.psbt_review_parties import output_parties
from app.core.signing_policy import Flow
from tests.core.test_policy_runes import (
    CENOTAPH,
    GOODS,
    HELD,
    edict,
    listing_outputs,
    rune_listing,
)
from tests.support import psbt_scenarios as scenarios
from tests.support.psbt_scenarios import Scenario, build_psbt
from tests.support.runestones import encipher

HOLDS, FEE = "the service (holds the item)", "the service (its fee)"


def unknown_service(s: Scenario) -> Scenario:
    """`s` as the app reviews the public service's PSBTs: none of its addresses known."""
    known = tuple(a for a in s.context.addresses if a.role is not Role.SERVICE)
    return s.with_(context=dataclasses.replace(s.context, addresses=known))


def owners(s: Scenario) -> list[str]:
    return [p.name for p in output_parties(s.review(), Flow.SECURE_LISTING)]


def test_the_output_receiving_our_runes_holds_the_item() -> None:
    s = unknown_service(rune_listing(listing_outputs(encipher([edict(0, 0)]))))
    assert owners(s) == [HOLDS, "your payment address", FEE, "a runestone (OP_RETURN)"]


def test_an_etchings_premine_sent_to_the_fee_output_does_not_make_it_hold_the_item() -> None:
    premine_to_fee = (0, 0, 0, 2)  # 0:0, the rune this transaction etches
    stone = encipher([edict(0, 0), premine_to_fee], etch="AAAAAAAAAAAAAAAB", premine=1_000)
    s = unknown_service(rune_listing(listing_outputs(stone)))
    review = s.review()
    assert review.outputs[0].runes == (RuneAmount(GOODS, HELD),)
    assert review.outputs[2].runes == (RuneAmount("AAAAAAAAAAAAAAAB", 1_000),)
    assert owners(s) == [HOLDS, "your payment address", FEE, "a runestone (OP_RETURN)"]


def test_a_cenotaph_is_named_for_what_it_does() -> None:
    """An inscription listing (no runes of ours) may carry a cenotaph; it decides no output's
    runes, it burns every rune the buyer's inputs bring."""
    s = scenarios.secure_listing()
    s = unknown_service(
        s.with_(psbt=build_psbt(s.coins, listing_outputs(CENOTAPH), sighash={0: 0x81}))
    )
    party = output_parties(s.review(), Flow.SECURE_LISTING)[3]
    assert party.name == "a cenotaph (OP_RETURN)"
    assert "burns every rune on the inputs" in party.tip
