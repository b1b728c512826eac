"""The signing policies, one per flow, behind one entry point.

    review = psbt_review.review(view, context)
    verdict = signing_policy.evaluate(review, WithdrawIntent(50_000, FeeBounds.of(5_000, 20)))
    if verdict.approved: sign exactly verdict.to_sign (see app.wallet.signing_gate)
    else: show verdict.refusals (each a code and a sentence naming the input or output)

A policy never signs anything itself and never raises on a hostile PSBT: every problem becomes
a `Refusal`. Only a malformed intent (a caller's bug) raises `PolicyError`.
"""

from __future__ import annotations

from dataclasses import replace

from app.core.policy_end_listing import EndListingIntent, check_end_listing
from app.core.policy_funding import FundingIntent, check_funding
from app.core.policy_inscription_bid import InscriptionBidIntent, check_inscription_bid
from app.core.policy_secure_listing import SecureListingIntent, check_secure_listing
from app.core.policy_verdict import (
    FeeBounds,
    FeeConsent,
    Flow,
    PolicyError,
    Refusal,
    RefusalCode,
    SignPermission,
    Verdict,
)
from app.core.policy_withdraw import WithdrawIntent, check_withdraw
from app.core.psbt_review import Review

Intent = (
    WithdrawIntent | InscriptionBidIntent | SecureListingIntent | FundingIntent | EndListingIntent
)

__all__ = [
    "EndListingIntent",
    "FeeBounds",
    "FeeConsent",
    "Flow",
    "FundingIntent",
    "InscriptionBidIntent",
    "Intent",
    "PolicyError",
    "Refusal",
    "RefusalCode",
    "SecureListingIntent",
    "SignPermission",
    "Verdict",
    "WithdrawIntent",
    "evaluate",
    "flow_of",
    "with_fee_consent",
]


def flow_of(intent: Intent) -> Flow:
    if isinstance(intent, WithdrawIntent):
        return Flow.WITHDRAW
    if isinstance(intent, InscriptionBidIntent):
        return Flow.INSCRIPTION_BID
    if isinstance(intent, SecureListingIntent):
        return Flow.SECURE_LISTING
    if isinstance(intent, EndListingIntent):
        return Flow.END_LISTING
    return Flow.FUNDING


def with_fee_consent(intent: Intent, consent: FeeConsent | None) -> Intent:
    """`intent` with the user's consent to one PSBT's fee (flows where the user pays it);
    None takes a consent away (a listing, whose fee the buyer pays, has none either way)."""
    if consent is None and isinstance(intent, SecureListingIntent):
        return intent
    if isinstance(intent, WithdrawIntent):
        return replace(intent, fee_consent=consent)
    if isinstance(intent, InscriptionBidIntent):
        return replace(intent, fee_consent=consent)
    if isinstance(intent, FundingIntent | EndListingIntent):
        return replace(intent, fee_consent=consent)
    raise PolicyError(f"a {flow_of(intent)} has no fee of the user's to consent to")


def evaluate(review: Review, intent: Intent) -> Verdict:
    """The verdict of the policy matching `intent`'s flow."""
    if isinstance(intent, WithdrawIntent):
        return check_withdraw(review, intent)
    if isinstance(intent, InscriptionBidIntent):
        return check_inscription_bid(review, intent)
    if isinstance(intent, SecureListingIntent):
        return check_secure_listing(review, intent)
    if isinstance(intent, FundingIntent):
        return check_funding(review, intent)
    if isinstance(intent, EndListingIntent):
        return check_end_listing(review, intent)
    raise PolicyError(f"no signing policy for {type(intent).__name__}")
