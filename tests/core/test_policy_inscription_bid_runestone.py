"""An inscription bid may carry the runestone a service adds to send the item's runes with the
inscription (the sandbox's `--service-runestones pointer` adds one to every bid): one that only
routes runes (edicts, a pointer), pays 0 sats and is small is approved when no rune of ours
moves; any other OP_RETURN (data, an etching, a mint, a cenotaph, a large or paid runestone) is
refused as before, and a runestone moving our runes is refused with where they would go."""

from __future__ import annotations

import dataclasses

import pytest

from app.core.policy_inscription_bid import MAX_RUNESTONE_BYTES
from app.core.psbt_review_context import RuneAmount
from app.core.runestone import Edict, RuneId, encode_runestone
from app.core.signing_policy import RefusalCode
from tests.core.test_policy_runes import GOODS as GOODS_NAME
from tests.core.test_policy_runes import GOODS_ID, HELD, IDS, with_runes_on
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


# An attacker review of the bid's runestone: the runes on the SELLER's input are routed by it,
# and a coin of ours carrying runes is never spent as plain sats (`check_cardinal`). Runes
# landing on our change would freeze it in this wallet, so they may land, of ours, only on the
# output receiving the inscription (where the sandbox's pointer sends them).


def seller_runes(s: Scenario, ids: dict[str, str] | None = None) -> Scenario:
    """`s` with the seller's input 0 also carrying 2,500 UNCOMMON•GOODS."""
    contents = dict(s.context.contents)
    item = s.coins[0].outpoint
    contents[item] = dataclasses.replace(contents[item], runes=(RuneAmount(GOODS_NAME, HELD),))
    rune_ids = IDS if ids is None else ids
    return s.with_(context=dataclasses.replace(s.context, contents=contents, rune_ids=rune_ids))


def test_the_sellers_runes_sent_with_the_inscription_are_approved() -> None:
    s = seller_runes(bid_with(encode_runestone(pointer=0)))
    assert s.review().outputs[0].runes == (RuneAmount(GOODS_NAME, HELD),)
    verdict = s.verdict()
    assert verdict.approved, verdict.reasons()


@pytest.mark.parametrize(
    "stone",
    [
        encode_runestone(pointer=3),
        encode_runestone([Edict(GOODS, 0, 3)]),
        encode_runestone([Edict(GOODS, 1, 3)], pointer=0),
        encode_runestone([Edict(GOODS, 0, 5)]),  # output = the number of outputs: a split
    ],
    ids=["pointer", "edict", "edict of 1 unit", "split among the outputs"],
)
def test_the_sellers_runes_sent_to_our_change_are_refused(stone: bytes) -> None:
    s = seller_runes(bid_with(stone))
    assert s.review().outputs[3].runes, "the runestone sends no rune to the change"
    assert_refused(
        s.verdict(),
        RefusalCode.RUNES_MISDIRECTED,
        "Output 3 (your payment address) would receive",
    )


def test_the_sellers_runes_where_a_runestone_this_wallet_cannot_follow_sends_them() -> None:
    """The seller's rune has no known id: its edict cannot be followed, and it could name the
    change as well as the inscription's output."""
    s = seller_runes(bid_with(encode_runestone([Edict(GOODS, 0, 3)])), ids={})
    assert not s.review().rune_moves.decoded
    assert_refused(s.verdict(), RefusalCode.RUNESTONE_NOT_DECODED, "Output 4 is a runestone")
