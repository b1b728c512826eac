"""When a transaction can confirm: nLockTime, each input's nSequence (BIP-68 relative locks,
BIP-125 replace-by-fee signalling), read against the chain's tip.

A signature on a transaction that cannot confirm for years is a signature the service holds
for later, when the user has forgotten it. The review says when the transaction can confirm;
the policies refuse one meant to confirm now that cannot (see `policy_time.check_timelocks`).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.psbt_view import SEQUENCE_FINAL, PsbtView

LOCKTIME_THRESHOLD = 500_000_000  # below: a block height; from it on: a Unix time (BIP-65)
_SEQUENCE_DISABLE_FLAG = 1 << 31  # BIP-68: set means "no relative lock"
_SEQUENCE_TYPE_FLAG = 1 << 22  # BIP-68: set means units of 512 seconds, else blocks
_SEQUENCE_MASK = 0xFFFF
_RBF_MAX = 0xFFFFFFFD  # BIP-125: any input at or below this signals replaceability
_SECONDS_PER_UNIT = 512


@dataclass(frozen=True)
class ChainTip:
    """The chain's tip as the chain source reported it: height and BIP-113 median time past
    (Unix seconds), the time a time-based nLockTime is compared with."""

    height: int
    median_time: int


@dataclass(frozen=True)
class RelativeLock:
    """A BIP-68 relative lock: the input can be spent only `blocks` blocks (or `seconds`
    seconds) after the coin it spends confirmed."""

    blocks: int | None
    seconds: int | None

    def describe(self) -> str:
        if self.blocks is not None:
            days = self.blocks / 144
            return f"{self.blocks:,} blocks (about {days:,.1f} days) after its coin confirms"
        seconds = self.seconds or 0
        return f"{seconds:,} seconds (about {seconds / 86_400:,.1f} days) after its coin confirms"


@dataclass(frozen=True)
class InputSequence:
    index: int
    sequence: int
    signals_rbf: bool
    relative_lock: RelativeLock | None


@dataclass(frozen=True)
class TimeLocks:
    """nLockTime and the inputs' nSequence of one transaction."""

    locktime: int
    locktime_enabled: bool  # some input's nSequence is not final, so nLockTime applies
    inputs: tuple[InputSequence, ...]

    @property
    def locktime_is_time(self) -> bool:
        return self.locktime >= LOCKTIME_THRESHOLD

    @property
    def rbf_inputs(self) -> tuple[int, ...]:
        return tuple(i.index for i in self.inputs if i.signals_rbf)

    @property
    def relative_locks(self) -> tuple[InputSequence, ...]:
        return tuple(i for i in self.inputs if i.relative_lock is not None)

    def locktime_text(self, tip: ChainTip | None) -> str:
        """'none', 'block 850,000 (the chain is at 849,990)', or a time with the tip's."""
        if self.locktime == 0:
            return "none"
        if self.locktime_is_time:
            what = f"Unix time {self.locktime:,}"
            now = "" if tip is None else f" (the chain's median time is {tip.median_time:,})"
        else:
            what = f"block {self.locktime:,}"
            now = "" if tip is None else f" (the chain is at block {tip.height:,})"
        enabled = "" if self.locktime_enabled else ", not enforced: every nSequence is final"
        return what + now + enabled

    def lines(self, tip: ChainTip | None) -> tuple[str, ...]:
        """Sentences for the review: locktime, replace-by-fee, relative locks."""
        rbf = self.rbf_inputs
        lines = [
            f"Lock time: {self.locktime_text(tip)}.",
            "Replace-by-fee: signalled (it can be replaced by a higher fee before it confirms)."
            if rbf
            else "Replace-by-fee: not signalled.",
        ]
        lines += [
            f"Input {i.index} is time-locked: spendable {i.relative_lock.describe()}."
            for i in self.relative_locks
            if i.relative_lock is not None
        ]
        return tuple(lines)


def relative_lock(version: int, sequence: int) -> RelativeLock | None:
    """The BIP-68 lock `sequence` sets on an input of a version-`version` transaction."""
    if version < 2 or sequence & _SEQUENCE_DISABLE_FLAG:
        return None
    value = sequence & _SEQUENCE_MASK
    if value == 0:
        return None
    if sequence & _SEQUENCE_TYPE_FLAG:
        return RelativeLock(None, value * _SECONDS_PER_UNIT)
    return RelativeLock(value, None)


def time_locks(view: PsbtView) -> TimeLocks:
    inputs = tuple(
        InputSequence(
            inp.index,
            inp.sequence,
            inp.sequence <= _RBF_MAX,
            relative_lock(view.version, inp.sequence),
        )
        for inp in view.inputs
    )
    enabled = any(inp.sequence != SEQUENCE_FINAL for inp in view.inputs)
    return TimeLocks(view.locktime, enabled, inputs)
