"""A rune listing against a lying service, cases found by an attacker review (issue 18):
the service's fee output placed first takes the listed runes without any runestone (ord sends
runes to the first non-OP_RETURN output), rune ids from the service's ord that lie (two runes
given one id; an id of 0:0, the key of a rune being etched), and a runestone too large for
ord's own code to read. Each must be refused, never approved nor raised."""

from __future__ import annotations

import dataclasses

from app.core.psbt_review_context import OutpointContents, RuneAmount
from app.core.runestone import RuneId
from app.core.runestone_flow import InputRune, rune_flow
from app.core.signing_policy import RefusalCode, Verdict
from tests.support import psbt_scenarios as scenarios
from tests.support.psbt_scenarios import Scenario, build_psbt, parties
from tests.support.runestones import encipher

GOODS = "UNCOMMON•GOODS"
GOODS_ID = (840_000, 3)
OTHER = "OTHER•RUNE"
OTHER_ID = (840_001, 7)
HELD = 2_500


def rune_listing(
    outputs: list[tuple[bytes, int]],
    ids: dict[str, str] | None = None,
    runes: tuple[RuneAmount, ...] | None = None,
    sighash: int = 0x81,
) -> Scenario:
    s = scenarios.secure_listing(runes=True)
    psbt = build_psbt(s.coins, outputs, sighash={0: sighash})
    contents = dict(s.context.contents)
    if runes is not None:
        contents[s.coins[0].outpoint] = OutpointContents(runes=runes)
    context = dataclasses.replace(
        s.context, contents=contents, rune_ids={GOODS: "840000:3"} if ids is None else ids
    )
    return s.with_(psbt=psbt, context=context)


def approved(v: Verdict) -> bool:
    return v.approved and not v.refusals


def codes(v: Verdict) -> set[RefusalCode]:
    return {r.code for r in v.refusals}


# F1 of the review: the hidden risk without any runestone: the service's fee output placed first.
# ord sends runes with no runestone to the first non-OP_RETURN output, whatever the input order
# a buyer picks (ALL|ACP fixes the outputs, not the inputs' order). The policy's "target" is the
# output where the item's first sat landed; with a small fee output first, that was the fee
# output. Now the runes must go to the one output receiving the whole item.


def test_the_fee_output_first_does_not_take_the_listed_runes_without_a_runestone() -> None:
    p = parties()
    outputs = [
        (p.service_fee_spk, 2_000),  # the service's fee output, first: ord's default for runes
        (p.service_escrow_spk, 10_000),  # the "escrow": most of the item's sats, no runes
        (p.payment_spk, 100_000),  # the price, exact
    ]
    s = rune_listing(outputs)
    review = s.review()
    assert review.outputs[0].runes == (RuneAmount(GOODS, HELD),)  # ord: all runes to the fee
    verdict = s.verdict()
    assert not verdict.approved, "signed: every listed rune goes to the service's fee output"


def test_a_pointer_to_a_small_first_output_is_refused() -> None:
    p = parties()
    outputs = [
        (p.service_fee_spk, 546),
        (p.service_escrow_spk, 10_000),
        (p.payment_spk, 100_000),
        (encipher(pointer=0), 0),
    ]
    s = rune_listing(outputs)
    assert s.review().outputs[0].runes == (RuneAmount(GOODS, HELD),)
    assert not s.verdict().approved, (
        "signed: a runestone's pointer sends the runes to a 546-sat output"
    )


# F2 of the review: rune ids from (the service's) ord were taken on trust; a lie made the
# review follow the wrong rune. ord's allocation with the true ids shows where they go.


def test_two_runes_given_one_id_by_ord_are_not_followed() -> None:
    """Item holds GOODS and OTHER; ord (lying) gives both GOODS's id. The runestone sends that
    id to the escrow and leaves everything else to its pointer, the service's fee output."""
    p = parties()
    outputs = [
        (p.service_escrow_spk, 10_000),
        (p.payment_spk, 100_000),
        (p.service_fee_spk, 2_000),
        (encipher([(*GOODS_ID, 0, 0)], pointer=2), 0),
    ]
    held = (RuneAmount(GOODS, HELD), RuneAmount(OTHER, 700))
    lie = {GOODS: "840000:3", OTHER: "840000:3"}
    s = rune_listing(outputs, ids=lie, runes=held)
    truth = rune_flow(
        [o[0] for o in outputs],
        [InputRune(GOODS, HELD, RuneId(*GOODS_ID)), InputRune(OTHER, 700, RuneId(*OTHER_ID))],
    )
    assert [(r.rune, r.amount) for r in truth.received[2]] == [(OTHER, 700)]  # ord: to the fee
    assert not s.verdict().approved, "signed: 700 OTHER•RUNE go to the service's fee output"


def test_an_id_of_0_0_from_ord_erases_nothing() -> None:
    """ord (lying) says the listed rune's id is 0:0, the key the flow uses for the rune a
    transaction etches. An etching then overwrites our balance with its premine: our runes are
    neither received nor burned anywhere, and the pointer (the fee output) gets them for real."""
    p = parties()
    outputs = [
        (p.service_escrow_spk, 10_000),
        (p.payment_spk, 100_000),
        (p.service_fee_spk, 2_000),
        (encipher(pointer=2, etch="", premine=0), 0),
    ]
    s = rune_listing(outputs, ids={GOODS: "0:0"})
    review = s.review()
    shown = sum(r.amount for o in review.outputs for r in o.runes)
    assert shown == HELD, f"the review accounts for {shown} of {HELD} listed runes"


# F3 of the review: a runestone output script over 4,000,000 bytes makes pyord raise
# ValueError (rust-bitcoin's MAX_VEC_SIZE): refused, not raised.


def test_a_runestone_too_large_for_ord_is_refused_not_raised() -> None:
    p = parties()
    n = 4_100_000
    huge = b"\x6a\x5d\x4e" + n.to_bytes(4, "little") + bytes(n)
    outputs = [(p.service_escrow_spk, 10_000), (p.payment_spk, 100_000), (huge, 0)]
    s = rune_listing(outputs)
    try:
        verdict = s.verdict()
    except ValueError as exc:
        raise AssertionError(f"the policy raised on hostile input: {exc}") from exc
    assert not verdict.approved


# F5 of a later review: the checks of F2 compared ids as text, so the same id spelled otherwise
# ("0840000:3", "00:0", Unicode digits), read by RuneId.parse as the same RuneId, passed them.


def test_two_runes_given_one_id_spelled_two_ways_are_not_followed() -> None:
    p = parties()
    outputs = [
        (p.service_escrow_spk, 10_000),
        (p.payment_spk, 100_000),
        (p.service_fee_spk, 2_000),
        (encipher([(*GOODS_ID, 0, 0)], pointer=2), 0),
    ]
    held = (RuneAmount(GOODS, HELD), RuneAmount(OTHER, 700))
    for lie in (
        {GOODS: "840000:3", OTHER: "0840000:3"},
        {GOODS: "840000:3", OTHER: "８４００００:３"},
    ):
        s = rune_listing(outputs, ids=lie, runes=held)
        assert not s.verdict().approved, f"signed with ids {lie}: 700 OTHER•RUNE go to the fee"


def test_an_id_of_block_0_spelled_otherwise_erases_nothing() -> None:
    p = parties()
    outputs = [
        (p.service_escrow_spk, 10_000),
        (p.payment_spk, 100_000),
        (p.service_fee_spk, 2_000),
        (encipher(pointer=2, etch="", premine=0), 0),
    ]
    for lie in ("00:0", "٠:٠", " 000:00 "):
        s = rune_listing(outputs, ids={GOODS: lie})
        shown = sum(r.amount for o in s.review().outputs for r in o.runes)
        assert shown == HELD, f"id {lie!r}: the review accounts for {shown} of {HELD} runes"
        assert not s.verdict().approved, f"signed with id {lie!r}: the pointer takes them"


# F6: the output receiving the item's sats was taken as the escrow whoever it pays. With our own
# price output first, the listed runes came back to our payment address with the price: nothing
# is sold, and that coin (the price) carries runes, which this wallet never spends as plain sats.


def test_the_listed_runes_returned_to_our_price_output_are_refused() -> None:
    p = parties()
    outputs = [(p.payment_spk, 100_000), (p.service_escrow_spk, 10_000)]
    s = rune_listing(outputs)
    assert s.review().outputs[0].runes == (RuneAmount(GOODS, HELD),)
    verdict = s.verdict()
    assert not verdict.approved, "signed: the runes come back on the price, which they freeze"
    assert RefusalCode.RUNES_MISDIRECTED in codes(verdict)
    assert "Output 0 (your payment address)" in " ".join(verdict.reasons())
