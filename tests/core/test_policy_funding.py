"""Funding policy: cardinal payment coins only, to the bidding wallet and our change."""

from __future__ import annotations

import dataclasses

import pytest

from app.core.psbt_review_context import ReviewContext, Role
from app.core.signing_policy import (
    FeeBounds,
    FundingIntent,
    PolicyError,
    RefusalCode,
    SignPermission,
    evaluate,
)
from tests.support.policy_checks import assert_refused, sign_approved_and_verify
from tests.support.psbt_scenarios import funding


def test_good_funding_is_approved_and_signs_every_input() -> None:
    s = funding()
    verdict = s.verdict()
    assert verdict.approved
    assert verdict.to_sign == (SignPermission(0, 0x01), SignPermission(1, 0x01))
    sign_approved_and_verify(s, verdict)


def test_the_bidding_wallet_gets_exactly_the_amount() -> None:
    s = funding()
    more = dataclasses.replace(s.intent, amount=120_000)
    assert_refused(evaluate(s.review(), more), RefusalCode.AMOUNT_MISMATCH, "output 0")


def test_without_change_the_whole_rest_is_fee() -> None:
    s = funding()
    s.psbt.outputs.pop(1)  # 30,000 sats of fee on ~180 vB
    verdict = s.verdict()
    assert_refused(verdict, RefusalCode.FEE_TOO_HIGH, "30,000 sats")
    assert RefusalCode.FEE_RATE_TOO_HIGH in verdict.codes


def test_unknown_bidding_wallet_is_refused() -> None:
    s = funding()
    ours = tuple(a for a in s.context.addresses if a.role is not Role.BIDDING_WALLET)
    ctx: ReviewContext = dataclasses.replace(s.context, addresses=ours)
    verdict = s.with_(context=ctx).verdict()
    assert_refused(
        verdict, RefusalCode.BIDDING_WALLET_UNKNOWN, "bidding wallet's address is not known"
    )
    assert_refused(verdict, RefusalCode.OUTPUT_NOT_ALLOWED, "Output 0")


def test_bad_intent_raises() -> None:
    with pytest.raises(PolicyError):
        FundingIntent(-5, FeeBounds.of(1_000, 10))
