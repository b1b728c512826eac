"""ord's rune allocation (app/core/runestone_flow.py), rule by rule.

Cases named after ord's own tests in src/runes.rs (ordinals/ord at
5241ef311e015cff4759a379085c8cc8913e621a) take their transactions and expected balances from
there: ord's `TransactionTemplate { outputs: n, op_return: .. }` has n plain outputs and the
runestone last, so edict output n + 1 is "every non-OP_RETURN output". The rules themselves are
ord's `RuneUpdater::index_runes` (src/index/updater/rune_updater.rs).
"""

from __future__ import annotations

import pyord
import pytest

from app.core.psbt_review_context import RuneAmount
from app.core.runestone import Cenotaph, Edict, Etching, Flaw, RuneId, encode_runestone
from app.core.runestone_flow import InputRune, describe_artifact, rune_flow
from tests.support.runestones import MINT, POINTER, TAG_CENOTAPH, encipher, stone_script

MAX = 2**128 - 1
ID = RuneId(840_000, 3)
OTHER = RuneId(840_000, 7)
PLAIN = b"\x51\x20" + bytes(32)  # a P2TR-shaped output
HELD = [InputRune("UNCOMMON•GOODS", MAX, ID)]


def runes(name: str, amount: int) -> tuple[RuneAmount, ...]:
    return (RuneAmount(name, amount),)


def received(flow: object) -> dict[int, list[tuple[str, int]]]:
    return {
        vout: [(r.rune, r.amount) for r in amounts]
        for vout, amounts in flow.received.items()  # type: ignore[attr-defined]
    }


def test_the_test_encoder_writes_what_ords_encipher_writes() -> None:
    ours = encipher([(840_000, 3, 5, 1), (840_000, 7, 0, 2)], pointer=0, mint=(1, 2))
    theirs = pyord.Runestone(
        edicts=[
            pyord.Edict(pyord.RuneId(840_000, 3), 5, 1),
            pyord.Edict(pyord.RuneId(840_000, 7), 0, 2),
        ],
        mint=pyord.RuneId(1, 2),
        pointer=0,
    ).encipher()
    assert ours == theirs


def test_no_runestone_sends_everything_to_the_first_non_op_return_output() -> None:
    """unallocated_runes_in_transactions_with_no_runestone_are_assigned_to_first_non_op_return_
    output: the OP_RETURN comes first, the runes go to output 1."""
    flow = rune_flow([b"\x6a\x04abcd", PLAIN, PLAIN], HELD)
    assert flow.artifact is None and flow.decided
    assert received(flow) == {1: [("UNCOMMON•GOODS", MAX)]}
    assert flow.burned == ()


def test_split() -> None:
    """split: amount 0 to output 3 of 3 splits evenly, the remainder to the first."""
    flow = rune_flow([PLAIN, PLAIN, encipher([(ID.block, ID.tx, 0, 3)])], HELD)
    assert received(flow) == {
        0: [("UNCOMMON•GOODS", MAX // 2 + 1)],
        1: [("UNCOMMON•GOODS", MAX // 2)],
    }


def test_split_with_preceding_edict() -> None:
    stone = encipher([(ID.block, ID.tx, 1000, 0), (ID.block, ID.tx, 0, 3)])
    flow = rune_flow([PLAIN, PLAIN, stone], HELD)
    assert received(flow) == {
        0: [("UNCOMMON•GOODS", 1000 + (MAX - 1000) // 2 + 1)],
        1: [("UNCOMMON•GOODS", (MAX - 1000) // 2)],
    }


def test_split_with_following_edict() -> None:
    """The split takes everything, so the edict after it finds nothing left."""
    stone = encipher([(ID.block, ID.tx, 0, 3), (ID.block, ID.tx, 1000, 1)])
    flow = rune_flow([PLAIN, PLAIN, stone], HELD)
    assert received(flow) == {
        0: [("UNCOMMON•GOODS", MAX // 2 + 1)],
        1: [("UNCOMMON•GOODS", MAX // 2)],
    }


def test_split_with_amount() -> None:
    """1000 to each non-OP_RETURN output, the rest to the first (no pointer)."""
    stone = encipher([(ID.block, ID.tx, 1000, 3)])
    flow = rune_flow([PLAIN, PLAIN, stone], HELD)
    assert received(flow) == {
        0: [("UNCOMMON•GOODS", MAX - 1000)],
        1: [("UNCOMMON•GOODS", 1000)],
    }


def test_split_with_amount_with_preceding_edict() -> None:
    """Only 2000 remain for four outputs of 1000 each: outputs 2 and 3 get nothing."""
    stone = encipher([(ID.block, ID.tx, MAX - 2000, 0), (ID.block, ID.tx, 1000, 5)])
    flow = rune_flow([PLAIN] * 4 + [stone], HELD)
    assert received(flow) == {
        0: [("UNCOMMON•GOODS", MAX - 2000 + 1000)],
        1: [("UNCOMMON•GOODS", 1000)],
    }


def test_split_with_amount_with_following_edict() -> None:
    stone = encipher([(ID.block, ID.tx, 1000, 5), (ID.block, ID.tx, MAX, 0)])
    flow = rune_flow([PLAIN] * 4 + [stone], HELD)
    assert received(flow) == {
        0: [("UNCOMMON•GOODS", MAX - 4000 + 1000)],
        1: [("UNCOMMON•GOODS", 1000)],
        2: [("UNCOMMON•GOODS", 1000)],
        3: [("UNCOMMON•GOODS", 1000)],
    }


def test_edicts_which_refer_to_input_rune_with_no_balance_are_skipped() -> None:
    """An edict for a rune the inputs do not hold moves nothing."""
    stone = encipher([(ID.block, ID.tx, MAX, 0), (OTHER.block, OTHER.tx, MAX, 1)])
    flow = rune_flow([PLAIN, PLAIN, stone], HELD)
    assert received(flow) == {0: [("UNCOMMON•GOODS", MAX)]}


def test_edicts_with_id_zero_are_skipped_without_an_etching() -> None:
    stone = encipher([(0, 0, 10, 1)])
    flow = rune_flow([PLAIN, PLAIN, stone], HELD)
    assert received(flow) == {0: [("UNCOMMON•GOODS", MAX)]}


def test_an_edict_amount_is_capped_at_what_remains() -> None:
    held = [InputRune("UNCOMMON•GOODS", 300, ID)]
    stone = encipher([(ID.block, ID.tx, 200, 1), (ID.block, ID.tx, 200, 2)])
    flow = rune_flow([PLAIN, PLAIN, PLAIN, stone], held)
    assert received(flow) == {1: [("UNCOMMON•GOODS", 200)], 2: [("UNCOMMON•GOODS", 100)]}


def test_edicts_may_transfer_runes_to_op_return_outputs() -> None:
    """What an edict sends to an OP_RETURN output is burned."""
    stone = encipher([(ID.block, ID.tx, 40, 1)])
    held = [InputRune("UNCOMMON•GOODS", 100, ID)]
    flow = rune_flow([PLAIN, stone], held)
    assert received(flow) == {0: [("UNCOMMON•GOODS", 60)], 1: [("UNCOMMON•GOODS", 40)]}
    assert flow.burned == runes("UNCOMMON•GOODS", 40)


def test_unallocated_runes_are_assigned_to_default_output() -> None:
    flow = rune_flow([PLAIN, PLAIN, encipher(pointer=1)], HELD)
    assert received(flow) == {1: [("UNCOMMON•GOODS", MAX)]}


def test_unallocated_runes_are_burned_if_default_output_is_op_return() -> None:
    flow = rune_flow([PLAIN, PLAIN, encipher(pointer=2)], HELD)
    assert flow.burned == runes("UNCOMMON•GOODS", MAX)


def test_unallocated_runes_are_burned_if_no_non_op_return_output_is_present() -> None:
    flow = rune_flow([encipher()], HELD)
    assert flow.received == {} and flow.burned == runes("UNCOMMON•GOODS", MAX)


def test_edict_with_amount_zero_and_no_destinations_is_ignored() -> None:
    """Output 1 of 1 (the runestone alone): no eligible output, everything is burned."""
    flow = rune_flow([encipher([(ID.block, ID.tx, 0, 1)])], HELD)
    assert flow.burned == runes("UNCOMMON•GOODS", MAX)


def test_input_runes_are_burned_if_an_unrecognized_even_tag_is_encountered() -> None:
    """A cenotaph (here a pointer past the outputs) burns every input rune."""
    held = [*HELD, InputRune("OTHER•RUNE", 5, OTHER)]
    flow = rune_flow([PLAIN, PLAIN, stone_script([POINTER, 10])], held)
    assert isinstance(flow.artifact, Cenotaph)
    assert flow.artifact.flaw is Flaw.UNRECOGNIZED_EVEN_TAG
    assert flow.received == {}
    assert set(flow.burned) == {RuneAmount("UNCOMMON•GOODS", MAX), RuneAmount("OTHER•RUNE", 5)}


@pytest.mark.parametrize("integers", [[TAG_CENOTAPH, 0], [POINTER, 3]])
def test_every_cenotaph_burns_the_inputs_runes(integers: list[int]) -> None:
    flow = rune_flow([PLAIN, PLAIN, stone_script(integers)], HELD)
    assert flow.is_cenotaph and flow.burned == runes("UNCOMMON•GOODS", MAX)


def test_multiple_input_runes_on_different_inputs_may_be_allocated() -> None:
    held = [InputRune("A•RUNE", 10, ID), InputRune("B•RUNE", 20, OTHER), InputRune("A•RUNE", 5, ID)]
    stone = encipher([(ID.block, ID.tx, 0, 1)])
    flow = rune_flow([PLAIN, PLAIN, stone], held)
    assert received(flow) == {1: [("A•RUNE", 15)], 0: [("B•RUNE", 20)]}


def test_runes_can_be_etched_and_premined_in_the_same_transaction() -> None:
    """The premine is the etched rune's (0:0 in edicts); what is left goes by the pointer."""
    stone = encipher([(0, 0, 300, 1)], etch="NEWRUNE", premine=1000)
    flow = rune_flow([PLAIN, PLAIN, stone], [])
    assert flow.etched == "NEWRUNE"
    assert received(flow) == {1: [("NEWRUNE", 300)], 0: [("NEWRUNE", 700)]}


def test_a_mint_with_a_known_amount_is_allocated() -> None:
    """rune_can_be_minted_without_edict: the minted amount goes to the first output."""
    flow = rune_flow([PLAIN, encipher(mint=(OTHER.block, OTHER.tx))], [], mint_amount=1000)
    assert received(flow) == {0: [("rune 840000:7", 1000)]}


def test_a_mint_of_unknown_amount_of_a_rune_the_inputs_hold_is_undecided() -> None:
    flow = rune_flow([PLAIN, encipher(mint=(ID.block, ID.tx))], HELD)
    assert not flow.decided and "mints rune 840000:3" in flow.reason


def test_a_cenotaph_minting_a_rune_the_inputs_hold_burns_it_all() -> None:
    """Its mint still counts in ord (the minted runes burned too): the amount does not matter."""
    flow = rune_flow([PLAIN, stone_script([MINT, ID.block, MINT, ID.tx, TAG_CENOTAPH, 0])], HELD)
    assert flow.is_cenotaph and flow.mint == ID
    assert flow.burned == runes("UNCOMMON•GOODS", MAX)


def test_a_mint_of_another_rune_leaves_the_inputs_runes_decided() -> None:
    flow = rune_flow([PLAIN, encipher(mint=(OTHER.block, OTHER.tx))], HELD)
    assert flow.decided and received(flow) == {0: [("UNCOMMON•GOODS", MAX)]}


def test_edicts_cannot_be_followed_without_the_inputs_rune_ids() -> None:
    held = [InputRune("UNCOMMON•GOODS", 5)]
    flow = rune_flow([PLAIN, PLAIN, encipher([(ID.block, ID.tx, 0, 1)])], held)
    assert not flow.decided and "UNCOMMON•GOODS" in flow.reason


def test_without_edicts_the_ids_are_not_needed() -> None:
    held = [InputRune("UNCOMMON•GOODS", 5)]
    flow = rune_flow([PLAIN, PLAIN, encipher(pointer=1)], held)
    assert received(flow) == {1: [("UNCOMMON•GOODS", 5)]}
    assert rune_flow([PLAIN, stone_script([TAG_CENOTAPH, 0])], held).burned == runes(
        "UNCOMMON•GOODS", 5
    )


def test_an_edict_naming_the_etched_runes_own_id_takes_from_the_premine() -> None:
    """rune_updater.rs `index_runes`: the premine is credited to the etched rune's id, which
    0:0 stands for, so an edict naming that id itself allocates it too (once an indexer knows
    the id: `etched_id`); not knowing it, the edict names a rune the inputs do not hold."""
    own = RuneId(900, 2)
    etching = Etching("SELFNAMEDRUNE", None, 1_000, None, None, None, False)
    stone = encode_runestone([Edict(own, 300, 1)], etching=etching)
    scripts = [PLAIN, PLAIN, stone]
    known = rune_flow(scripts, [], etched_name="SELFNAMEDRUNE", etched_id=own)
    assert received(known) == {1: [("SELFNAMEDRUNE", 300)], 0: [("SELFNAMEDRUNE", 700)]}
    unknown = rune_flow(scripts, [], etched_name="SELFNAMEDRUNE")
    assert received(unknown) == {0: [("SELFNAMEDRUNE", 1_000)]}


def test_the_review_says_what_each_edict_does() -> None:
    """describe_artifact names each edict's rune, amount and output, in the runestone's order
    (ord's encoding sorts edicts by id): the first three, then a count."""
    stone = encipher(
        [(840_000, 3, 0, 0), (840_000, 3, 5, 2), (840_000, 3, 0, 3), (840_000, 7, 1, 1)]
    )
    flow = rune_flow([PLAIN, PLAIN, stone], HELD)
    assert describe_artifact(flow) == (
        "a runestone: an edict: all of UNCOMMON•GOODS to output 0; an edict: 5 of "
        "UNCOMMON•GOODS to output 2; an edict: all of UNCOMMON•GOODS to each output that is "
        "not OP_RETURN (shared); 1 more edict"
    )
    unknown = rune_flow([PLAIN, PLAIN, encipher([(840_000, 7, 1, 1)])], HELD)
    assert describe_artifact(unknown) == "a runestone: an edict: 1 of rune 840000:7 to output 1"
    shared = rune_flow([PLAIN, PLAIN, encipher([(840_000, 3, 0, 3)])], HELD)
    assert describe_artifact(shared) == (
        "a runestone: an edict: all of UNCOMMON•GOODS to each output that is not OP_RETURN (shared)"
    )
