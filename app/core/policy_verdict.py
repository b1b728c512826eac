"""The vocabulary of the signing policies: flows, refusal codes, refusals, the verdict, the
user's fee bounds and their per-transaction consent. A verdict names the exact PSBT it was
reached on (txid and digest), so the signer can refuse one that changed after review.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from app.core.errors import CoreError
from app.core.psbt_review import Review


class Flow(StrEnum):
    WITHDRAW = "withdrawal"
    INSCRIPTION_BID = "inscription bid"
    SECURE_LISTING = "secure listing"
    FUNDING = "funding"
    END_LISTING = "listing end"


class RefusalCode(StrEnum):
    # Common to every flow.
    DUPLICATE_INPUT = "DUPLICATE_INPUT"
    UTXO_MISMATCH = "UTXO_MISMATCH"
    UTXO_NOT_AS_ON_CHAIN = "UTXO_NOT_AS_ON_CHAIN"
    WRONG_NETWORK = "WRONG_NETWORK"
    MISSING_WITNESS_UTXO = "MISSING_WITNESS_UTXO"
    SIGHASH_NOT_ALLOWED = "SIGHASH_NOT_ALLOWED"
    INPUT_ALREADY_FINAL = "INPUT_ALREADY_FINAL"
    INSCRIPTION_TO_FEE = "INSCRIPTION_TO_FEE"
    INSCRIPTION_LANDING_UNKNOWN = "INSCRIPTION_LANDING_UNKNOWN"
    OUTPUTS_EXCEED_INPUTS = "OUTPUTS_EXCEED_INPUTS"
    FEE_UNKNOWN = "FEE_UNKNOWN"
    FEE_TOO_HIGH = "FEE_TOO_HIGH"
    FEE_RATE_TOO_HIGH = "FEE_RATE_TOO_HIGH"
    FEE_RATE_TOO_LOW = "FEE_RATE_TOO_LOW"
    FEE_RATE_ABOVE_MARKET = "FEE_RATE_ABOVE_MARKET"
    FEE_SHARE_TOO_HIGH = "FEE_SHARE_TOO_HIGH"
    FEE_MARKET_UNKNOWN = "FEE_MARKET_UNKNOWN"
    NOTHING_TO_SIGN = "NOTHING_TO_SIGN"
    COUNTERPARTY_IS_YOU = "COUNTERPARTY_IS_YOU"
    # Time: a transaction meant to confirm now must be able to.
    LOCKTIME_IN_FUTURE = "LOCKTIME_IN_FUTURE"
    LOCKTIME_UNVERIFIABLE = "LOCKTIME_UNVERIFIABLE"
    RELATIVE_LOCKTIME = "RELATIVE_LOCKTIME"
    # Inputs and outputs a flow does not allow.
    FOREIGN_INPUT = "FOREIGN_INPUT"
    INPUT_NOT_ALLOWED = "INPUT_NOT_ALLOWED"
    EXTRA_INPUT_OF_OURS = "EXTRA_INPUT_OF_OURS"
    OUTPUT_NOT_ALLOWED = "OUTPUT_NOT_ALLOWED"
    CONTENTS_UNKNOWN = "CONTENTS_UNKNOWN"
    NOT_CARDINAL = "NOT_CARDINAL"
    # Amounts and items.
    AMOUNT_MISMATCH = "AMOUNT_MISMATCH"
    PAYMENT_MISMATCH = "PAYMENT_MISMATCH"
    ITEM_INPUT_WRONG = "ITEM_INPUT_WRONG"
    ITEM_NOT_OURS = "ITEM_NOT_OURS"
    ITEM_CARRIES_MORE = "ITEM_CARRIES_MORE"
    BIDDING_WALLET_UNKNOWN = "BIDDING_WALLET_UNKNOWN"
    INSCRIPTION_NOT_RECEIVED = "INSCRIPTION_NOT_RECEIVED"
    POSTAGE_TOO_HIGH = "POSTAGE_TOO_HIGH"
    LISTING_UNDERPAID = "LISTING_UNDERPAID"
    LISTING_PAYS_OTHER_AMOUNT = "LISTING_PAYS_OTHER_AMOUNT"
    # Runes, by ord's rules (runestone_flow): ours burned, sent elsewhere, or not followable.
    RUNES_BURNED = "RUNES_BURNED"
    RUNES_MISDIRECTED = "RUNES_MISDIRECTED"
    RUNESTONE_NOT_DECODED = "RUNESTONE_NOT_DECODED"
    # What our signatures allow together: ANYONECANPAY signatures that combine.
    ACP_SIGNATURE_COLLISION = "ACP_SIGNATURE_COLLISION"


# Fee refusals a user may override for one transaction (`FeeConsent`): the fee is known and
# valid, only above (or below) the bounds. An unknown or negative fee is never overridable.
FEE_CONSENT_CODES = frozenset(
    {
        RefusalCode.FEE_TOO_HIGH,
        RefusalCode.FEE_RATE_TOO_HIGH,
        RefusalCode.FEE_RATE_TOO_LOW,
        RefusalCode.FEE_RATE_ABOVE_MARKET,
        RefusalCode.FEE_SHARE_TOO_HIGH,
        RefusalCode.FEE_MARKET_UNKNOWN,
    }
)


class PolicyError(CoreError, ValueError):
    """An intent that cannot be checked (negative amount, no item...): a caller's bug."""


@dataclass(frozen=True)
class Refusal:
    """One reason not to sign: a stable code and a sentence naming the input or output."""

    code: RefusalCode
    message: str
    input_index: int | None = None
    output_index: int | None = None


@dataclass(frozen=True)
class SignPermission:
    """The signer may sign input `input_index` with hash type `sighash`."""

    input_index: int
    sighash: int


@dataclass(frozen=True)
class FeeAssessment:
    """The fee as the policy weighed it: sats, sat/vB on the estimated size, and its share of
    the amount the transaction moves (None when the flow moves no amount of ours)."""

    fee: int
    rate: Fraction
    moved: int | None
    consented: bool = False

    @property
    def share(self) -> Fraction | None:
        return None if not self.moved else Fraction(self.fee, self.moved)

    def describe(self) -> str:
        """'2,310 sats (15.0 sat/vB, 2.3% of the 100,000 sats moved)'."""
        parts = [f"{float(self.rate):,.1f} sat/vB"]
        share = self.share
        if share is not None and self.moved is not None:
            parts.append(f"{float(share) * 100:,.1f}% of the {self.moved:,} sats moved")
        return f"{self.fee:,} sats ({', '.join(parts)})"


@dataclass(frozen=True)
class Verdict:
    """A policy's decision. `to_sign` is empty unless approved; `txid` and `psbt_digest` name
    the exact PSBT reviewed, so the signer can refuse a PSBT that changed since. `fee` is the
    fee as weighed, for flows where the user pays it."""

    flow: Flow
    txid: str
    psbt_digest: str
    to_sign: tuple[SignPermission, ...]
    refusals: tuple[Refusal, ...]
    fee: FeeAssessment | None = None

    @property
    def approved(self) -> bool:
        return not self.refusals

    @property
    def needs_fee_consent(self) -> bool:
        """Refused only because the fee is outside the bounds: the user may accept this fee
        for this PSBT (a `FeeConsent` in the intent), then the same policy approves it."""
        return bool(self.refusals) and all(r.code in FEE_CONSENT_CODES for r in self.refusals)

    @property
    def codes(self) -> tuple[RefusalCode, ...]:
        return tuple(r.code for r in self.refusals)

    def reasons(self) -> tuple[str, ...]:
        return tuple(r.message for r in self.refusals)


def decide(
    flow: Flow,
    review: Review,
    plan: Sequence[SignPermission],
    refusals: Iterable[Refusal],
    fee: FeeAssessment | None = None,
) -> Verdict:
    """The verdict: refusals (de-duplicated, in order) empty the sign list."""
    unique: list[Refusal] = []
    culprits: set[tuple[RefusalCode, int | None, int | None]] = set()
    for r in refusals:
        # Several rules may catch one fault: keep one refusal per code and culprit.
        culprit = (r.code, r.input_index, r.output_index)
        named = r.input_index is not None or r.output_index is not None
        if r in unique or (named and culprit in culprits):
            continue
        culprits.add(culprit)
        unique.append(r)
    if not plan and not unique:
        unique.append(Refusal(RefusalCode.NOTHING_TO_SIGN, "There is no input of yours to sign."))
    to_sign = () if unique else tuple(plan)
    return Verdict(flow, review.txid, review.view.digest, to_sign, tuple(unique), fee)


@dataclass(frozen=True)
class FeeBounds:
    """The fee a transaction may pay without the user's explicit consent (docs/guard.md).

    Absolute: at most `max_fee` sats and `max_rate` sat/vB, at least `min_rate`. Relative to
    the market: at most `market_multiple` times the fastest fee estimate (but a cap never below
    `market_floor` sat/vB, so a quiet 1 sat/vB mempool does not refuse 3 sat/vB). Relative to
    what moves: at most `max_share` of the amount the transaction moves."""

    max_fee: int
    max_rate: Fraction
    min_rate: Fraction = Fraction(0)
    market_multiple: Fraction = Fraction(3)
    market_floor: Fraction = Fraction(5)
    max_share: Fraction = Fraction(1, 10)

    def __post_init__(self) -> None:
        if self.max_fee < 0 or self.max_rate <= 0 or self.min_rate < 0:
            raise PolicyError("fee bounds must be positive")
        if self.min_rate > self.max_rate:
            raise PolicyError("the minimum fee rate is above the maximum")
        if self.market_multiple < 1 or self.market_floor <= 0 or not 0 < self.max_share <= 1:
            raise PolicyError("the market multiple must be at least 1 and the share in (0, 1]")

    @classmethod
    def of(cls, max_fee: int, max_rate: float | int, min_rate: float | int = 0) -> FeeBounds:
        """From plain numbers, e.g. FeeBounds.of(20_000, 50) (sat/vB as given by a user)."""
        return cls(max_fee, Fraction(str(max_rate)), Fraction(str(min_rate)))

    def market_cap(self, fastest: Fraction) -> Fraction:
        """The highest rate paid without consent when the next block's estimate is `fastest`."""
        return max(self.market_multiple * fastest, self.market_floor)


@dataclass(frozen=True)
class FeeConsent:
    """The user accepted paying `fee` sats on the PSBT with digest `psbt_digest` although it
    is outside their bounds. Bound to that exact PSBT: any change to it voids the consent."""

    psbt_digest: str
    fee: int

    def covers(self, review: Review) -> bool:
        return review.view.digest == self.psbt_digest and review.fee == self.fee
