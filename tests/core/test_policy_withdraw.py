"""Withdraw policy: bidding wallet -> payment address, exactly the amount, fee bounded."""

from __future__ import annotations

import dataclasses

import pytest

from app.core.signing_policy import (
    FeeBounds,
    PolicyError,
    RefusalCode,
    SignPermission,
    WithdrawIntent,
    evaluate,
)
from tests.support.policy_checks import assert_refused, sign_approved_and_verify
from tests.support.psbt_scenarios import withdraw


def test_good_withdrawal_is_approved_and_signs_every_input() -> None:
    s = withdraw()
    verdict = s.verdict()
    assert verdict.approved and not verdict.refusals
    # Taproot script-path inputs without PSBT_IN_SIGHASH_TYPE: SIGHASH_DEFAULT.
    assert verdict.to_sign == (SignPermission(0, 0x00), SignPermission(1, 0x00))
    assert verdict.txid == s.review().txid
    sign_approved_and_verify(s, verdict)


def test_the_psbt_sighash_field_is_followed_when_allowed() -> None:
    s = withdraw()
    s.psbt.inputs[1].sighash_type = 0x01
    assert s.verdict().to_sign == (SignPermission(0, 0x00), SignPermission(1, 0x01))
    sign_approved_and_verify(s, s.verdict())


def test_fee_taken_from_the_amount_when_the_user_says_so() -> None:
    s = withdraw()  # pays 100,000 sats with a 2,000-sat fee
    fee_inside = WithdrawIntent(102_000, s.intent.fees, fee_from_amount=True)
    assert evaluate(s.review(), fee_inside).approved
    fee_on_top = WithdrawIntent(102_000, s.intent.fees)
    verdict = evaluate(s.review(), fee_on_top)
    assert_refused(verdict, RefusalCode.AMOUNT_MISMATCH, "receives 100,000 sats (output 0)")


def test_fee_rate_bounds() -> None:
    s = withdraw()  # 2,000 sats on 253 vB: 7.9 sat/vB
    slow = dataclasses.replace(s.intent, fees=FeeBounds.of(10_000, 5))
    assert_refused(evaluate(s.review(), slow), RefusalCode.FEE_RATE_TOO_HIGH, "7.9 sat/vB")
    fast = dataclasses.replace(s.intent, fees=FeeBounds.of(10_000, 50, min_rate=10))
    assert_refused(evaluate(s.review(), fast), RefusalCode.FEE_RATE_TOO_LOW, "7.9 sat/vB")
    exact = dataclasses.replace(s.intent, fees=FeeBounds.of(2_000, 50))
    assert evaluate(s.review(), exact).approved  # at the limit is within it


def test_no_payment_output_is_named() -> None:
    s = withdraw()
    s.psbt.outputs.pop(0)
    verdict = s.verdict()
    assert_refused(verdict, RefusalCode.AMOUNT_MISMATCH, "No output pays your payment address")


def test_bad_intents_raise() -> None:
    with pytest.raises(PolicyError):
        WithdrawIntent(0, FeeBounds.of(1_000, 10))
    with pytest.raises(PolicyError):
        FeeBounds.of(1_000, 10, min_rate=20)
    with pytest.raises(PolicyError):
        FeeBounds.of(-1, 10)
