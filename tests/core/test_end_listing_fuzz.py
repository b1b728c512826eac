"""The end-listing policy under the guard fuzzer's mutations (tests.support.psbt_mutations: the
PSBT's fields, raw bytes, and ord's and the chain's answers, which for ord change the truth):
whatever the end-listing policy approves (with the user's consent when only the fee stands in
the way) must be harmless by the effect model (tests.support.psbt_effects) against the honest
move: our wallet no poorer than the honest fee plus what the user's bounds allow, every item
of ours back on our ordinals address, no later confirmation, no blank signature.

The policy is judged on what its verdict allows (the signatures it approves, at their hash
types), not by signing: the move is signed by two keys, and the one-key signing path of
tests/core/test_guard_fuzz.py does not apply.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings

from app.core.policy_verdict import FeeConsent
from app.core.signing_policy import EndListingIntent, with_fee_consent
from app.wallet.psbt_io import PsbtDecodeError, parse_psbt
from app.wallet.signing_gate import guard
from tests.support.psbt_eff_compare import Allowance, compare, harmful
from tests.support.psbt_eff_model import Effect, claimed_utxos
from tests.support.psbt_effects import effect_of, item_keys
from tests.support.psbt_mut_case import Case, Setup, flow_setup
from tests.support.psbt_mutations import Op, apply_all, mutation_lists
from tests.support.psbt_scenarios import FASTEST

FUZZ = settings(
    derandomize=True,
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def _effect(
    setup: Setup, case: Case, data: bytes, intent: EndListingIntent
) -> tuple[Effect | None, int | None]:
    """The effect of what the policy approves for `data` (None: refused), and the fee the
    user consented to, if the verdict needed it."""
    psbt = parse_psbt(data)
    review, verdict = guard(psbt, case.context, intent)
    consented = None
    if not verdict.approved and verdict.needs_fee_consent and review.fee is not None:
        consented = review.fee
        consent = FeeConsent(review.view.digest, review.fee)
        review, verdict = guard(psbt, case.context, with_fee_consent(intent, consent))
    if not verdict.approved:
        return None, None
    sigs = [(p.input_index, p.sighash) for p in verdict.to_sign]
    return effect_of(psbt.tx, claimed_utxos(psbt), sigs, case.world, setup.owners), consented


def _check(name: str, ops: list[Op]) -> None:
    setup = flow_setup(name)
    intent = setup.scenario.intent
    assert isinstance(intent, EndListingIntent)
    honest, _ = _effect(setup, setup.new_case(), setup.honest_bytes, intent)
    assert honest is not None and honest.fee is not None
    case = apply_all(setup.new_case(), ops)
    try:
        mutated, consented = _effect(setup, case, case.data, intent)
    except PsbtDecodeError:
        return
    if mutated is None:
        return
    fees = intent.fees
    extra = max(0, fees.max_fee - honest.fee)
    max_rate: Fraction | None = min(fees.max_rate, fees.market_cap(FASTEST))
    if consented is not None:  # the user saw this fee and accepted it
        extra, max_rate = max(extra, consented - honest.fee), None
    allowance = Allowance("your wallet", extra, setup.tip, max_rate=max_rate)
    # An ord answer that changed the truth takes the honest item with it: only items that
    # still exist are owed back.
    present = {n for coin in case.world.values() for n, _ in item_keys(coin)}
    items = {k: v for k, v in honest.items.items() if k in present}
    baseline = dataclasses.replace(honest, items=items)
    bad = harmful(compare(baseline, mutated, allowance, case.world, setup.owners))
    assert not bad, f"{ops}: {bad}; {mutated.describe()}"


@FUZZ
@given(mutation_lists())
def test_end_listing(ops: list[Op]) -> None:
    _check("end_listing", ops)


@FUZZ
@given(mutation_lists())
def test_end_listing_runes(ops: list[Op]) -> None:
    _check("end_listing_runes", ops)


@pytest.mark.parametrize("name", ["end_listing", "end_listing_runes"])
def test_the_judge_calls_the_item_sent_away_harmful(name: str) -> None:
    """The property can fail: the honest move with its item output paid to the attacker is
    harmful by the same judge (the policy itself refuses it)."""
    setup = flow_setup(name)
    psbt = parse_psbt(setup.honest_bytes)
    psbt.tx.vout[0].script_pubkey.data = setup.attacker_spk
    sigs = [(0, 0x00), (1, 0x01)]
    honest_psbt = parse_psbt(setup.honest_bytes)
    honest = effect_of(honest_psbt.tx, claimed_utxos(honest_psbt), sigs, setup.world, setup.owners)
    mutated = effect_of(psbt.tx, claimed_utxos(psbt), sigs, setup.world, setup.owners)
    bad = harmful(compare(honest, mutated, Allowance("your wallet"), setup.world, setup.owners))
    assert any("lands on" in d.text for d in bad) and any("poorer" in d.text for d in bad)
