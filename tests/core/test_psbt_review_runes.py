"""The review with runestones (ord's rules, app/core/runestone_flow.py): each output's runes,
ours given, received or burned, the runestone described, and the findings for a runestone that
cannot be followed, a cenotaph, and runes burned."""

from __future__ import annotations

from app.core.psbt_review import Risk, review
from app.core.psbt_review_context import OutpointContents, RuneAmount
from app.core.psbt_review_findings import FindingCode
from tests.core.test_psbt_review import ORD, OTHER, P2TR, PAY, ctx, inp, out, view
from tests.support.runestones import TAG_CENOTAPH, encipher, stone_script

GOODS = "UNCOMMON•GOODS"
IDS = {"UNCOMMONGOODS": "840000:3"}


def held(*amounts: tuple[int, int]) -> dict[str, OutpointContents]:
    """Input i (of the `inp(i, ...)` helper) carries `amount` UNCOMMON•GOODS."""
    return {
        f"{i:064x}:0": OutpointContents(runes=(RuneAmount(GOODS, amount),)) for i, amount in amounts
    }


def test_an_edict_splits_our_runes_between_a_stranger_and_us() -> None:
    stone = encipher([(840_000, 3, 700, 1)])  # the 300 left go to the first output
    outputs = [out(0, 5_000, OTHER), out(1, 4_000, ORD, P2TR), out(2, 0, None, stone)]
    r = review(view([inp(0, 10_000, ORD)], outputs), ctx(contents=held((0, 1_000)), rune_ids=IDS))
    assert [o.runes for o in r.outputs] == [
        (RuneAmount(GOODS, 300),),
        (RuneAmount(GOODS, 700),),
        (),
    ]
    assert r.summary.runes_given == (RuneAmount(GOODS, 300),)
    assert not r.summary.runes_received and not r.summary.runes_burned
    assert "Output 2 is a runestone: an edict: 700 of UNCOMMON•GOODS to output 1." in (
        r.summary.lines()
    )
    assert not r.findings


def test_theirs_sent_to_us_by_a_pointer_are_received() -> None:
    outputs = [out(0, 5_000, OTHER), out(1, 4_000, ORD, P2TR), out(2, 0, None, encipher(pointer=1))]
    r = review(view([inp(0, 10_000, OTHER)], outputs), ctx(contents=held((0, 50))))
    assert r.summary.runes_received == (RuneAmount(GOODS, 50),)
    assert "the runes left go to output 1" in " ".join(r.summary.lines())


def test_ours_burned_by_an_edict_to_the_op_return() -> None:
    stone = encipher([(840_000, 3, 40, 1)])
    outputs = [out(0, 9_000, ORD, P2TR), out(1, 0, None, stone)]
    r = review(view([inp(0, 10_000, ORD)], outputs), ctx(contents=held((0, 100)), rune_ids=IDS))
    assert r.outputs[1].runes == (RuneAmount(GOODS, 40),)
    assert r.summary.runes_burned == (RuneAmount(GOODS, 40),)
    [f] = r.findings_of(FindingCode.RUNES_BURNED)
    assert f.risk is Risk.DANGER and "burns 40 UNCOMMON•GOODS" in f.message


def test_a_cenotaph_without_runes_on_the_inputs_is_a_note() -> None:
    outputs = [out(0, 9_000, OTHER), out(1, 0, None, stone_script([TAG_CENOTAPH, 0]))]
    r = review(view([inp(0, 10_000, PAY)], outputs), ctx(contents=held()))
    [f] = r.findings_of(FindingCode.CENOTAPH)
    assert f.risk is Risk.NOTE and "the inputs carry none" in f.message


def test_an_unfollowable_runestone_is_the_only_not_decoded_case() -> None:
    stone = encipher([(840_000, 3, 0, 0)])
    outputs = [out(0, 9_000, OTHER), out(1, 0, None, stone)]
    r = review(view([inp(0, 10_000, ORD)], outputs), ctx(contents=held((0, 5))))
    assert r.summary.runes_unknown == (RuneAmount(GOODS, 5),)
    assert all(o.runes == () for o in r.outputs)
    [f] = r.findings_of(FindingCode.RUNESTONE_NOT_DECODED)
    assert f.risk is Risk.DANGER and "the id of UNCOMMON•GOODS" in f.message
    with_ids = review(
        view([inp(0, 10_000, ORD)], outputs), ctx(contents=held((0, 5)), rune_ids=IDS)
    )
    assert not with_ids.findings_of(FindingCode.RUNESTONE_NOT_DECODED)
    assert with_ids.summary.runes_given == (RuneAmount(GOODS, 5),)


def test_ours_on_two_inputs_count_once_per_rune() -> None:
    outputs = [out(0, 19_000, OTHER)]
    r = review(
        view([inp(0, 10_000, ORD), inp(1, 10_000, ORD)], outputs),
        ctx(contents=held((0, 5), (1, 7))),
    )
    assert r.summary.runes_given == (RuneAmount(GOODS, 12),)
