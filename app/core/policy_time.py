"""The time check every flow shares: a transaction meant to confirm now must be able to (its
lock time allows the next block, no input carries a relative lock).
"""

from __future__ import annotations

from collections.abc import Sequence

from app.core.policy_verdict import Refusal, RefusalCode, SignPermission
from app.core.psbt_review import SIGHASH_ANYONECANPAY, Review


def check_timelocks(review: Review, plan: Sequence[SignPermission]) -> list[Refusal]:
    """A transaction meant to confirm now: its nLockTime must allow the next block (one block
    of slack for a tip the service saw before us), and no input may carry a relative lock.
    With an ANYONECANPAY signature others add inputs, so nLockTime counts even when every
    nSequence in the PSBT is final (an added input may enable it)."""
    locks, tip = review.timelocks, review.context.tip
    found = [
        Refusal(
            RefusalCode.RELATIVE_LOCKTIME,
            f"Input {i.index}'s nSequence 0x{i.sequence:08x} makes it spendable only "
            f"{i.relative_lock.describe()}: the service would hold a signature that becomes "
            "valid later.",
            input_index=i.index,
        )
        for i in locks.relative_locks
        if i.relative_lock is not None
    ]
    acp = any(p.sighash & SIGHASH_ANYONECANPAY for p in plan)
    if locks.locktime == 0 or not (locks.locktime_enabled or acp):
        return found
    if tip is None:
        found.append(
            Refusal(
                RefusalCode.LOCKTIME_UNVERIFIABLE,
                f"The lock time is {locks.locktime_text(None)} and the chain's tip is unknown, "
                "so whether it can confirm now cannot be checked.",
            )
        )
    elif locks.locktime_is_time and locks.locktime > tip.median_time:
        found.append(
            Refusal(
                RefusalCode.LOCKTIME_IN_FUTURE,
                f"The lock time is {locks.locktime_text(tip)}: the transaction cannot confirm "
                "before then, and the service would hold a signature valid from then on.",
            )
        )
    elif not locks.locktime_is_time and locks.locktime > tip.height + 1:
        found.append(
            Refusal(
                RefusalCode.LOCKTIME_IN_FUTURE,
                f"The lock time is {locks.locktime_text(tip)}: the transaction cannot confirm "
                f"for {locks.locktime - tip.height:,} blocks, and the service would hold a "
                "signature valid from then on.",
            )
        )
    return found
