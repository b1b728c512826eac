"""The vocabulary of the signing policies: flows, refusal codes, refusals, the verdict and the
user's fee bounds. A verdict names the exact PSBT it was reached on (txid and digest), so the
signer can refuse one that changed after review.
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
    NOTHING_TO_SIGN = "NOTHING_TO_SIGN"
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
    LISTING_UNDERPAID = "LISTING_UNDERPAID"


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
class Verdict:
    """A policy's decision. `to_sign` is empty unless approved; `txid` and `psbt_digest` name
    the exact PSBT reviewed, so the signer can refuse a PSBT that changed since."""

    flow: Flow
    txid: str
    psbt_digest: str
    to_sign: tuple[SignPermission, ...]
    refusals: tuple[Refusal, ...]

    @property
    def approved(self) -> bool:
        return not self.refusals

    @property
    def codes(self) -> tuple[RefusalCode, ...]:
        return tuple(r.code for r in self.refusals)

    def reasons(self) -> tuple[str, ...]:
        return tuple(r.message for r in self.refusals)


def decide(
    flow: Flow, review: Review, plan: Sequence[SignPermission], refusals: Iterable[Refusal]
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
    return Verdict(flow, review.txid, review.view.digest, to_sign, tuple(unique))


@dataclass(frozen=True)
class FeeBounds:
    """The user's fee limits: an absolute cap and a fee-rate range in sat/vB."""

    max_fee: int
    max_rate: Fraction
    min_rate: Fraction = Fraction(0)

    def __post_init__(self) -> None:
        if self.max_fee < 0 or self.max_rate <= 0 or self.min_rate < 0:
            raise PolicyError("fee bounds must be positive")
        if self.min_rate > self.max_rate:
            raise PolicyError("the minimum fee rate is above the maximum")

    @classmethod
    def of(cls, max_fee: int, max_rate: float | int, min_rate: float | int = 0) -> FeeBounds:
        """From plain numbers, e.g. FeeBounds.of(20_000, 50) (sat/vB as given by a user)."""
        return cls(max_fee, Fraction(str(max_rate)), Fraction(str(min_rate)))
