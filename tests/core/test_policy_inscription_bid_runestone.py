"""An inscription bid may carry the runestone a service adds to send the item's runes with the
inscription (the sandbox's `--service-runestones pointer` adds one to every bid): one that only
routes runes (edicts, a pointer), pays 0 sats and is small is approved when no rune of ours
moves; any other OP_RETURN (data, an etching, a mint, a cenotaph, a large or paid runestone) is
refused as before, and a runestone moving our runes is refused with where they would go."""

from __future__ import annotations

import pytest

from app.core.policy_inscription_bid import MAX_RUNESTONE_BYTES
from app.core.runestone import Edict, RuneId, encode_runestone
from app.core.signing_policy import RefusalCode
from tests.core.test_policy_runes import GOODS_ID, with_runes_on
from tests.support import psbt_scenarios as scenarios
from tests.support.policy_checks import assert_refused
from tests.support.psbt_scenarios import Scenario, build_psbt, parties
from tests.support.runestones import TAG_CENOTAPH, encipher, stone_script

GOODS = RuneId(*GOODS_ID)


def bid_with(stone: bytes, value: int = 0, change: int = 37_454) -> Scenario:
    """The scenarios' inscription bid with `stone` appended as its last output."""
    s = scenarios.inscription_bid()
    p = s.parties
    outputs = [
        (p.ordinals_spk, 546),
        (p.seller_payment_spk, 49_546),
        (p.service_fee_spk, 1_000),
        (p.payment_spk, change - value),
        (stone, value),
    ]
    return s.with_(psbt=build_psbt(s.coins, outputs, with_full_tx=[0]))


@pytest.mark.parametrize(
    "stone",
    [encode_runestone(pointer=0), encode_runestone([Edict(GOODS, 0, 0)])],
    ids=["pointer to the inscription's output", "edict to the inscription's output"],
)
def test_a_runestone_routing_runes_to_our_new_output_is_approved(stone: bytes) -> None:
    s = bid_with(stone)
    verdict = s.verdict()
    assert verdict.approved, verdict.reasons()
    assert "Output 4 is a runestone: " in " ".join(s.review().summary.lines())


NOT_ROUTING = {
    "data": b"\x6a\x0bburned sats",
    "a mint": encipher(mint=GOODS_ID, pointer=0),
    "an etching": encipher(etch="AAAAAAAAAAAAAAAB", premine=1),
    "a cenotaph": stone_script([TAG_CENOTAPH, 0]),
    "a runestone over the size bound": encipher(pointer=0) + b"\x00" * MAX_RUNESTONE_BYTES,
}


@pytest.mark.parametrize("name", sorted(NOT_ROUTING))
def test_any_other_op_return_is_refused(name: str) -> None:
    assert_refused(
        bid_with(NOT_ROUTING[name]).verdict(), RefusalCode.OUTPUT_NOT_ALLOWED, "Output 4"
    )


def test_a_runestone_paid_by_us_is_refused() -> None:
    verdict = bid_with(encode_runestone(pointer=0), value=1_000).verdict()
    assert_refused(verdict, RefusalCode.OUTPUT_NOT_ALLOWED, "Output 4")


def test_a_routing_runestone_moving_our_runes_is_refused_with_where_they_go() -> None:
    p = parties()
    outputs = [
        (p.ordinals_spk, 546),
        (p.seller_payment_spk, 49_546),
        (p.service_fee_spk, 1_000),
        (p.payment_spk, 37_454),
        (encode_runestone(pointer=2), 0),
    ]
    s = with_runes_on(scenarios.inscription_bid(), 1, outputs)
    assert_refused(s.verdict(), RefusalCode.RUNES_MISDIRECTED, "go to output 2")
