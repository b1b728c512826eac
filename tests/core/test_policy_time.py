"""Time (issue 12, class 5): a transaction meant to confirm now must be able to, and the review
says when it can (nLockTime, relative locks, replace-by-fee)."""

from __future__ import annotations

import dataclasses

import pytest

from app.core.psbt_review_time import ChainTip, relative_lock
from app.core.signing_policy import RefusalCode, evaluate
from tests.support.policy_checks import assert_refused
from tests.support.psbt_scenarios import SCENARIOS, TIP, Scenario


def with_locktime(s: Scenario, locktime: int) -> Scenario:
    s.psbt.locktime = locktime
    return s


@pytest.mark.parametrize("name", ["withdraw", "inscription_bid", "funding", "secure_listing"])
@pytest.mark.parametrize("locktime", [0, TIP.height - 10, TIP.height, TIP.height + 1])
def test_a_lock_time_the_next_block_allows_is_signed(name: str, locktime: int) -> None:
    """Anti-fee-sniping wallets set the tip's height; one block of slack covers a tip the
    service saw before us."""
    verdict = with_locktime(SCENARIOS[name](), locktime).verdict()
    assert verdict.approved, verdict.reasons()


@pytest.mark.parametrize("name", ["withdraw", "inscription_bid", "funding", "secure_listing"])
def test_a_lock_time_beyond_the_next_block_is_refused(name: str) -> None:
    verdict = with_locktime(SCENARIOS[name](), TIP.height + 2).verdict()
    assert_refused(verdict, RefusalCode.LOCKTIME_IN_FUTURE, "cannot confirm for 2 blocks")


def test_time_lock_against_the_median_time_past() -> None:
    s = SCENARIOS["withdraw"]
    assert with_locktime(s(), TIP.median_time).verdict().approved
    verdict = with_locktime(s(), TIP.median_time + 1).verdict()
    assert_refused(verdict, RefusalCode.LOCKTIME_IN_FUTURE, "Unix time")


def test_unknown_tip_refuses_only_an_enforced_lock_time() -> None:
    s = with_locktime(SCENARIOS["withdraw"](), 5)
    s = s.with_(context=dataclasses.replace(s.context, tip=None))
    assert_refused(s.verdict(), RefusalCode.LOCKTIME_UNVERIFIABLE, "tip is unknown")
    # nLockTime is not enforced when every nSequence is final (and nothing is ANYONECANPAY).
    for inp in s.psbt.inputs:
        inp.sequence = 0xFFFFFFFF
    review = s.review()
    assert evaluate(review, s.intent).approved
    assert "not enforced" in review.timelocks.lines(None)[0]


def test_anyonecanpay_counts_the_lock_time_even_with_final_sequences() -> None:
    """The buyer adds inputs: one non-final nSequence of theirs turns the lock time on."""
    s = SCENARIOS["secure_listing"]()
    s.psbt.inputs[0].sequence = 0xFFFFFFFF
    assert_refused(
        with_locktime(s, TIP.height + 50).verdict(), RefusalCode.LOCKTIME_IN_FUTURE, "50 blocks"
    )


@pytest.mark.parametrize(
    ("version", "sequence", "blocks", "seconds"),
    [
        (2, 0x0000FFFF, 65_535, None),
        (2, 0x00400010, None, 16 * 512),
        (2, 0x80000010, None, None),  # disable flag set
        (2, 0xFFFFFFFD, None, None),  # the usual RBF value has the disable flag
        (2, 0, None, None),  # a zero lock locks nothing
        (1, 0x0000FFFF, None, None),  # BIP-68 applies from version 2 on
    ],
)
def test_relative_locks(
    version: int, sequence: int, blocks: int | None, seconds: int | None
) -> None:
    lock = relative_lock(version, sequence)
    if blocks is None and seconds is None:
        assert lock is None
    else:
        assert lock is not None and (lock.blocks, lock.seconds) == (blocks, seconds)


def test_a_relative_lock_is_refused_and_named() -> None:
    s = SCENARIOS["inscription_bid"]()
    s.psbt.inputs[2].sequence = 0x00000090  # 144 blocks
    assert_refused(s.verdict(), RefusalCode.RELATIVE_LOCKTIME, "about 1.0 days")


def test_the_review_states_lock_time_and_replace_by_fee() -> None:
    review = SCENARIOS["funding"]().review()
    tip = ChainTip(TIP.height, TIP.median_time)
    assert review.timelocks.lines(tip) == (
        "Lock time: none.",
        "Replace-by-fee: signalled (it can be replaced by a higher fee before it confirms).",
    )
    assert review.timelocks.rbf_inputs == (0, 1)
