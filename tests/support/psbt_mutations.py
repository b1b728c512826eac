"""Mutations of the honest PSBTs of every guarded flow, for the guard's fuzzer (issue 12): the
hypothesis strategies that draw lists of them.

    setup = flow_setup("withdraw")          # tests.support.psbt_mut_case
    case = setup.new_case()
    for op in ops: op.apply(case)           # ops drawn from `mutation_lists()`
    # case.data: the PSBT bytes a hostile service serves; case.context: the facts it serves;
    # case.world: the ground truth (what the chain and ord really hold: psbt_mut_world)

Operations work at two levels: structured, through embit's objects (a FixedPSBT parsed from
the current bytes and serialized back: psbt_mut_tx for the unsigned transaction, psbt_mut_runes
for runestones ord can decode, psbt_mut_fields for input, output and global fields), and raw,
on the BIP-174 key-value maps (tests.support.psbt_mut_raw). A structured operation on bytes
embit cannot parse does nothing (parse_psbt refuses them anyway). Served-fact operations
(psbt_mut_facts): an ord answer or chain fact removed (unknown), ord's answer changed (ord is
trusted, so the truth changes with it), a chain amount that lies (served only), the tip or the
fee estimate removed. Indices are taken modulo the current number of inputs or outputs, so any
list of operations applies to any PSBT; every operation has a short readable repr, so a shrunk
counterexample reads as a recipe.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from tests.support import psbt_mut_raw as raw
from tests.support.psbt_mut_case import Case
from tests.support.psbt_mut_facts import CONTENTS, ChainLies, Forget, OrdSays
from tests.support.psbt_mut_fields import (
    INPUT_FIELDS,
    OUTPUT_FIELDS,
    SIGHASH_TYPES,
    GlobalXpub,
    InputField,
    OutputField,
    SighashType,
)
from tests.support.psbt_mut_raw_values import FIELDS
from tests.support.psbt_mut_runes import KINDS, TARGETS, Runestone
from tests.support.psbt_mut_tx import (
    LOCKTIMES,
    SEQUENCES,
    AddInput,
    AddOutput,
    Drop,
    Duplicate,
    InputSequence,
    Locktime,
    Move,
    OutputScript,
    OutputValue,
    TxVersion,
)
from tests.support.psbt_raw_codec import Scope

Op = Any  # an operation of psbt_mut_tx, _fields, _facts or _raw: .apply(case), readable repr

small_index = st.integers(min_value=0, max_value=5)
WHO = (
    "attacker",
    "payment",
    "ordinals",
    "bidding wallet",
    "service fee",
    "escrow",
    "stranger",
    "OP_RETURN",
    "runestone",
    "non-standard",
)
DELTAS = (
    -1,
    1,
    -546,
    546,
    -1_000,
    1_000,
    -2_000,
    2_000,
    -5_000,
    5_000,
    -8_000,
    -25_000,
    25_000,
    -100_000,
)


def tx_ops() -> st.SearchStrategy[Op]:
    what = st.sampled_from(("input", "output"))
    return st.one_of(
        st.builds(OutputValue, small_index, st.sampled_from(DELTAS)),
        st.builds(OutputScript, small_index, st.sampled_from(WHO)),
        st.builds(Locktime, st.sampled_from(sorted(LOCKTIMES))),
        st.builds(InputSequence, small_index, st.sampled_from(sorted(SEQUENCES))),
        st.builds(TxVersion, st.sampled_from((1, 0, 3, 0x7FFFFFFF, 0xFFFFFFFF))),
        st.builds(Move, what, small_index, small_index),
        st.builds(Drop, what, small_index),
        st.builds(Duplicate, what, small_index),
        st.builds(AddInput, st.sampled_from(SPARE_NAMES), small_index),
        st.builds(
            AddOutput, st.sampled_from(WHO), st.sampled_from((330, 546, 1_000, 25_000)), small_index
        ),
        st.builds(Runestone, st.sampled_from(sorted(KINDS)), st.sampled_from(TARGETS)),
    )


SPARE_NAMES = (
    "spare payment coin",
    "inscribed payment coin",
    "spare ordinals coin",
    "spare runes coin",
    "spare bidding coin",
    "stranger coin",
    "stranger inscribed coin",
    "unknown coin",
)


def field_ops() -> st.SearchStrategy[Op]:
    return st.one_of(
        st.builds(InputField, small_index, st.sampled_from(sorted(INPUT_FIELDS))),
        st.builds(SighashType, small_index, st.sampled_from(SIGHASH_TYPES)),
        st.builds(OutputField, small_index, st.sampled_from(sorted(OUTPUT_FIELDS))),
        st.just(GlobalXpub()),
    )


def fact_ops() -> st.SearchStrategy[Op]:
    return st.one_of(
        st.builds(Forget, st.sampled_from(("ord", "chain")), small_index),
        st.builds(Forget, st.sampled_from(("tip", "fee estimate"))),
        st.builds(OrdSays, small_index, st.sampled_from(sorted(CONTENTS))),
        st.builds(ChainLies, small_index, st.sampled_from((-1_000, 1_000, -100))),
    )


def raw_ops() -> st.SearchStrategy[Op]:
    def put(scope: Scope) -> st.SearchStrategy[Op]:
        fields = FIELDS[scope]
        return st.sampled_from(sorted(fields)).flatmap(
            lambda name: st.builds(
                raw.RawPut,
                st.just(scope),
                small_index,
                st.just(name),
                st.sampled_from(fields[name][1]),
            )
        )

    scope = st.sampled_from(("global", "input", "output"))
    return st.one_of(
        put("global"),
        put("input"),
        put("output"),
        st.just(raw.ToPsbtV2()),
        st.builds(raw.RawDuplicate, scope, small_index, st.integers(0, 9), st.booleans()),
        st.builds(raw.RawDrop, scope, small_index, st.integers(0, 9)),
        st.builds(raw.RawTruncate, st.sampled_from((1, 5, -1, -3))),
    )


def psbt_ops() -> st.SearchStrategy[Op]:
    """Every operation on the PSBT itself (no served facts): what a channel could do too."""
    return st.one_of(tx_ops(), field_ops(), raw_ops())


def mutation_lists(with_facts: bool = True) -> st.SearchStrategy[list[Op]]:
    """1 to 3 operations, applied in order to a copy of an honest PSBT and its facts."""
    one = st.one_of(psbt_ops(), fact_ops()) if with_facts else psbt_ops()
    return st.lists(one, min_size=1, max_size=3)


def apply_all(case: Case, ops: list[Op]) -> Case:
    for op in ops:
        op.apply(case)
    return case
