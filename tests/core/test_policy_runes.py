"""The signing policies with runestones, read by ord's rules (app/core/policy_runes.py): a rune
listing moves exactly the listed runes with the item; an end of listing brings them home; a
funding, withdrawal or inscription bid never spends, moves or burns ours; a cenotaph touching
our runes and a runestone this wallet cannot follow are refused, each with its reason."""

from __future__ import annotations

import dataclasses

from app.core.psbt_review_context import OutpointContents, RuneAmount
from app.core.signing_policy import RefusalCode, Verdict
from tests.support import psbt_scenarios as scenarios
from tests.support.policy_checks import assert_refused
from tests.support.psbt_scenarios import Scenario, build_psbt, parties
from tests.support.runestones import TAG_CENOTAPH, encipher, stone_script

GOODS, GOODS_ID = "UNCOMMON•GOODS", (840_000, 3)
HELD = 2_500  # the scenarios' runes item
IDS = {GOODS: "840000:3"}
CENOTAPH = stone_script([TAG_CENOTAPH, 0])  # an unrecognised even tag: ord burns the inputs' runes


def edict(amount: int, output: int) -> tuple[int, int, int, int]:
    return (*GOODS_ID, amount, output)


def rune_listing(outputs: list[tuple[bytes, int]], *, ids: bool = True) -> Scenario:
    """The runes listing of `scenarios.secure_listing` with these outputs (a runestone among
    them) and, unless `ids` is False, the rune's id known."""
    s = scenarios.secure_listing(runes=True)
    psbt = build_psbt(s.coins, outputs, sighash={0: 0x81})
    context = dataclasses.replace(s.context, rune_ids=IDS if ids else {})
    return s.with_(psbt=psbt, context=context)


def listing_outputs(stone: bytes, fee_output: bool = True) -> list[tuple[bytes, int]]:
    """The sandbox's layout: escrow (the item), the price, the service's fee; then the stone."""
    p = parties()
    out = [(p.service_escrow_spk, 10_000), (p.payment_spk, 100_000)]
    out += [(p.service_fee_spk, 2_000)] if fee_output else []
    return [*out, (stone, 0)]


def approved(verdict: Verdict) -> bool:
    return verdict.approved and not verdict.refusals


def test_a_runestone_sending_the_listed_runes_with_the_item_is_signed() -> None:
    """An honest rune transfer: every unit to the escrow output, where the item's sats go."""
    for stone in (encipher([edict(0, 0)]), encipher([edict(HELD, 0)]), encipher(pointer=0)):
        s = rune_listing(listing_outputs(stone))
        assert approved(s.verdict()), s.verdict().refusals
        assert s.review().outputs[0].runes == (RuneAmount(GOODS, HELD),)


def test_hidden_risk_a_runestone_sending_the_listed_runes_to_the_service_is_refused() -> None:
    """The hidden risk of issue 18: the listing looks right (escrow, price, fee), but its
    runestone sends the runes to the service's fee output, not with the item."""
    s = rune_listing(listing_outputs(encipher([edict(0, 2)])))
    review = s.review()
    assert review.outputs[2].runes == (RuneAmount(GOODS, HELD),)
    assert "2,500 UNCOMMON•GOODS" in " ".join(review.summary.lines())
    assert_refused(
        s.verdict(),
        RefusalCode.RUNES_MISDIRECTED,
        "sends 2,500 of the listed UNCOMMON•GOODS to output 2 (the service), not with the item "
        "to output 0",
    )


def test_part_of_the_listed_runes_elsewhere_even_to_us_is_refused() -> None:
    s = rune_listing(listing_outputs(encipher([edict(1_000, 1)])))
    assert s.review().outputs[0].runes == (RuneAmount(GOODS, 1_500),)
    assert_refused(s.verdict(), RefusalCode.RUNES_MISDIRECTED, "sends 1,000 of the listed")


def test_a_split_among_the_outputs_is_refused() -> None:
    """Edict output = the number of outputs: shared among every non-OP_RETURN output."""
    s = rune_listing(listing_outputs(encipher([edict(0, 4)])))
    assert [o.runes for o in s.review().outputs[:3]] == [(RuneAmount(GOODS, 834),)] + [
        (RuneAmount(GOODS, 833),)
    ] * 2
    verdict = s.verdict()
    assert_refused(verdict, RefusalCode.RUNES_MISDIRECTED, "to output 1")
    assert_refused(verdict, RefusalCode.RUNES_MISDIRECTED, "to output 2")


def test_listed_runes_burned_by_the_pointer_are_refused() -> None:
    s = rune_listing(listing_outputs(encipher(pointer=3)))
    assert s.review().summary.runes_burned == (RuneAmount(GOODS, HELD),)
    assert_refused(s.verdict(), RefusalCode.RUNES_BURNED, "2,500 of the listed")


def test_a_cenotaph_is_refused_with_its_reason() -> None:
    s = rune_listing(listing_outputs(CENOTAPH), ids=False)
    verdict = s.verdict()
    assert_refused(verdict, RefusalCode.RUNES_BURNED, "a cenotaph (unrecognized even tag)")
    assert_refused(verdict, RefusalCode.RUNES_BURNED, "your 2,500 UNCOMMON•GOODS included")


def test_edicts_are_not_followed_without_the_runes_id() -> None:
    s = rune_listing(listing_outputs(encipher([edict(0, 0)])), ids=False)
    assert_refused(
        s.verdict(), RefusalCode.RUNESTONE_NOT_DECODED, "the id of UNCOMMON•GOODS on the inputs"
    )


def test_a_mint_of_another_rune_leaves_the_listing_alone() -> None:
    s = rune_listing(listing_outputs(encipher(mint=(840_000, 9))))
    assert approved(s.verdict())
    assert "mints rune 840000:9" in " ".join(s.review().summary.lines())


def test_an_inscription_listing_with_a_runestone_and_no_runes_is_signed() -> None:
    s = scenarios.secure_listing()
    psbt = build_psbt(s.coins, listing_outputs(encipher(pointer=1)), sighash={0: 0x81})
    assert approved(s.with_(psbt=psbt).verdict())


def end_listing(outputs: list[tuple[bytes, int]]) -> Scenario:
    s = scenarios.end_listing(runes=True)
    psbt = build_psbt(s.coins, outputs)
    return s.with_(psbt=psbt, context=dataclasses.replace(s.context, rune_ids=IDS))


def test_end_listing_runes_sent_to_the_change_by_an_edict_are_refused() -> None:
    p = parties()
    stone = encipher([edict(0, 1)])
    s = end_listing([(p.ordinals_spk, 10_000), (p.payment_spk, 17_900), (stone, 0)])
    verdict = s.verdict()
    assert_refused(verdict, RefusalCode.INSCRIPTION_NOT_RECEIVED, "runes go to output 1")
    assert_refused(verdict, RefusalCode.OUTPUT_NOT_ALLOWED, "OP_RETURN")


def test_end_listing_with_a_cenotaph_is_refused() -> None:
    p = parties()
    s = end_listing([(p.ordinals_spk, 10_000), (p.payment_spk, 17_900), (CENOTAPH, 0)])
    assert_refused(s.verdict(), RefusalCode.RUNES_BURNED, "cenotaph")


def with_runes_on(s: Scenario, index: int, outputs: list[tuple[bytes, int]] | None) -> Scenario:
    """`s` with input `index` carrying 2,500 UNCOMMON•GOODS (and other outputs, if given)."""
    contents = dict(s.context.contents)
    contents[s.coins[index].outpoint] = OutpointContents(runes=(RuneAmount(GOODS, HELD),))
    context = dataclasses.replace(s.context, contents=contents, rune_ids=IDS)
    psbt = s.psbt if outputs is None else build_psbt(s.coins, outputs, with_full_tx=[0])
    return s.with_(psbt=psbt, context=context)


def test_funding_never_spends_our_runes() -> None:
    s = with_runes_on(scenarios.funding(), 0, None)
    verdict = s.verdict()
    assert_refused(verdict, RefusalCode.NOT_CARDINAL, "Input 0")
    assert_refused(verdict, RefusalCode.RUNES_MISDIRECTED, "go to output 0 (your bidding wallet)")


def test_funding_with_a_cenotaph_burning_our_runes_is_refused() -> None:
    p = parties()
    outputs = [(p.bidding_spk, 100_000), (p.payment_spk, 28_500), (CENOTAPH, 0)]
    s = with_runes_on(scenarios.funding(), 1, outputs)
    verdict = s.verdict()
    assert_refused(verdict, RefusalCode.RUNES_BURNED, "a cenotaph (unrecognized even tag)")
    assert_refused(verdict, RefusalCode.RUNES_BURNED, "here they would be burned")


def test_a_withdrawal_never_moves_runes_of_the_bidding_wallet() -> None:
    s = with_runes_on(scenarios.withdraw(), 1, None)
    assert_refused(
        s.verdict(), RefusalCode.RUNES_MISDIRECTED, "go to output 0 (your payment address)"
    )


def test_an_inscription_bid_never_gives_our_runes_to_the_seller() -> None:
    p = parties()
    outputs = [
        (p.ordinals_spk, 546),
        (p.seller_payment_spk, 49_546),
        (p.service_fee_spk, 1_000),
        (p.payment_spk, 37_454),
        (encipher([edict(0, 1)]), 0),
    ]
    s = with_runes_on(scenarios.inscription_bid(), 1, outputs)
    assert_refused(s.verdict(), RefusalCode.RUNES_MISDIRECTED, "go to output 1 (someone else)")


def test_the_sellers_runes_in_an_inscription_bid_are_not_ours_to_refuse() -> None:
    """Runes on the seller's input, moved by ord's default to the first output (ours): no rune
    refusal (the bid's own rule refuses an item carrying more than the inscription)."""
    s = with_runes_on(scenarios.inscription_bid(), 0, None)
    s = s.with_(
        context=dataclasses.replace(
            s.context,
            contents={
                **s.context.contents,
                s.coins[0].outpoint: dataclasses.replace(
                    s.context.contents[s.coins[0].outpoint], runes=(RuneAmount(GOODS, HELD),)
                ),
            },
        )
    )
    review = s.review()
    assert review.summary.runes_received == (RuneAmount(GOODS, HELD),)
    assert not [r for r in s.verdict().refusals if r.code.startswith("RUNE")]
