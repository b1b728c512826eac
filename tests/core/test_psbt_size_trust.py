"""The size behind the fee rate trusts only what it can verify: size hints count on our own
inputs when proven to belong to the script, never on anyone else's (issue 12, class 2)."""

from __future__ import annotations

from embit.ec import PublicKey

from tests.support.psbt_scenarios import SCENARIOS, key
from tests.support.tamper_guard import BOGUS_LEAF


def test_a_bogus_leaf_on_the_sellers_input_does_not_change_the_size() -> None:
    s = SCENARIOS["inscription_bid"]()
    honest = s.review().vsize.vsize
    item = s.psbt.inputs[0]
    control_block = b"\xc0" + item.taproot_internal_key.xonly()
    item.taproot_scripts = {control_block: BOGUS_LEAF + b"\xc0"}
    item.witness_script = None
    assert s.review().vsize.vsize == honest


def test_our_verified_leaf_is_used_and_a_forged_one_is_not() -> None:
    s = SCENARIOS["withdraw"]()
    with_leaf = s.review().vsize.vsize
    view_input = s.review().view.inputs[0]
    assert view_input.size_hints_verified and view_input.tap_leaves
    # A leaf whose control block does not commit to the output key is not evidence: the
    # estimate falls back to the cheapest spend of a taproot output (the key path).
    inp = s.psbt.inputs[0]
    [(control_block, leaf)] = inp.taproot_scripts.items()
    forged = control_block[:1] + PublicKey.from_xonly(key(77).xonly()).xonly() + control_block[33:]
    inp.taproot_scripts = {forged: BOGUS_LEAF + leaf[-1:]}
    view_input = s.review().view.inputs[0]
    assert not view_input.size_hints_verified
    assert s.review().vsize.vsize < with_leaf
