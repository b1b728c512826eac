"""Fee bounds that mean something (issue 12, class 3): relative to the market and to the amount
moved, with a consent that covers exactly one PSBT and one fee."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from app.core.policy_verdict import FeeAssessment, FeeBounds, FeeConsent
from app.core.psbt_review_context import Role
from app.core.signing_policy import RefusalCode, evaluate, with_fee_consent
from app.wallet.psbt_reader import psbt_digest
from tests.support.policy_checks import assert_refused
from tests.support.psbt_scenarios import FASTEST, SCENARIOS, Scenario
from tests.support.tamper_guard import pay_fee_rate
from tests.support.tamper_ops import Target, set_output


def at_rate(name: str, rate: int, **facts: object) -> Scenario:
    s = SCENARIOS[name]()
    t = Target(s.psbt, dataclasses.replace(s.context, **facts))
    pay_fee_rate(t, rate)
    return s.with_(psbt=t.psbt, context=t.context)


def consent_for(s: Scenario) -> FeeConsent:
    review = s.review()
    assert review.fee is not None
    return FeeConsent(psbt_digest(s.psbt), review.fee)


def test_the_market_cap_is_three_times_the_next_block_estimate() -> None:
    assert at_rate("withdraw", int(3 * FASTEST)).verdict().approved
    verdict = at_rate("withdraw", int(3 * FASTEST) + 1).verdict()
    assert_refused(verdict, RefusalCode.FEE_RATE_ABOVE_MARKET, "estimate for the next block")
    assert verdict.needs_fee_consent


def test_a_quiet_mempool_still_allows_a_few_sat_per_vbyte() -> None:
    assert FeeBounds.of(10_000, 50).market_cap(Fraction(1)) == 5
    assert at_rate("withdraw", 5, fastest_fee_rate=Fraction(1)).verdict().approved
    verdict = at_rate("withdraw", 6, fastest_fee_rate=Fraction(1)).verdict()
    assert_refused(verdict, RefusalCode.FEE_RATE_ABOVE_MARKET, "6.0 sat/vB")


def test_a_fee_above_a_tenth_of_the_amount_moved_needs_consent() -> None:
    s = SCENARIOS["withdraw"]()
    set_output(Target(s.psbt, s.context), 1, delta=-9_000)  # fee 11,000 on 100,000 moved
    verdict = evaluate(s.review(), dataclasses.replace(s.intent, fees=FeeBounds.of(50_000, 500)))
    assert_refused(verdict, RefusalCode.FEE_SHARE_TOO_HIGH, "11.0% of the 100,000 sats")
    assert verdict.fee == FeeAssessment(11_000, verdict.fee.rate, 100_000)
    assert "11.0% of the 100,000 sats moved" in verdict.fee.describe()


def test_consent_approves_exactly_that_psbt_and_that_fee() -> None:
    s = at_rate("withdraw", 45)
    assert s.verdict().needs_fee_consent
    consent = consent_for(s)
    verdict = evaluate(s.review(), with_fee_consent(s.intent, consent))
    assert verdict.approved and verdict.fee is not None and verdict.fee.consented
    other_fee = dataclasses.replace(consent, fee=consent.fee - 1)
    assert not evaluate(s.review(), with_fee_consent(s.intent, other_fee)).approved
    # The consent is bound to the PSBT: any change to it (here its lock time) voids it.
    s.psbt.locktime = 1
    assert not evaluate(s.review(), with_fee_consent(s.intent, consent)).approved


def test_consent_never_covers_anything_but_the_fee_bounds() -> None:
    s = at_rate("withdraw", 45)
    t = Target(s.psbt, s.context)
    set_output(t, t.out_with(Role.PAYMENT), delta=-1_000)  # and the amount is wrong
    s = s.with_(psbt=t.psbt)
    verdict = evaluate(s.review(), with_fee_consent(s.intent, consent_for(s)))
    assert not verdict.approved and not verdict.needs_fee_consent
    assert RefusalCode.AMOUNT_MISMATCH in verdict.codes


def test_an_unknown_fee_is_never_consented_to() -> None:
    s = SCENARIOS["withdraw"]()
    s = s.with_(context=dataclasses.replace(s.context, chain_utxos={}))
    verdict = s.verdict()
    assert RefusalCode.FEE_UNKNOWN in verdict.codes and not verdict.needs_fee_consent


def test_no_estimate_needs_consent() -> None:
    verdict = at_rate("funding", 2, fastest_fee_rate=None).verdict()
    assert_refused(verdict, RefusalCode.FEE_MARKET_UNKNOWN, "No fee estimate")
    assert verdict.needs_fee_consent


@pytest.mark.parametrize(
    "kw", [{"market_multiple": Fraction(1, 2)}, {"max_share": Fraction(0)}, {"market_floor": 0}]
)
def test_bounds_are_checked(kw: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        dataclasses.replace(FeeBounds.of(1_000, 10), **kw)
