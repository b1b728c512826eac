"""Inscription bid policy: input 0 is the seller's inscription, we sign the rest with ALL."""

from __future__ import annotations

import dataclasses

import pytest

from app.core.psbt_review_context import ReviewContext
from app.core.signing_policy import (
    FeeBounds,
    InscriptionBidIntent,
    PolicyError,
    RefusalCode,
    SignPermission,
    evaluate,
)
from app.wallet.psbt_signer import SignRequest
from tests.support.policy_checks import assert_refused, sign_approved_and_verify
from tests.support.psbt_scenarios import (
    INSCRIPTION,
    NETWORK,
    addr,
    build_psbt,
    inscription_bid,
)


@pytest.mark.parametrize("taproot_payment", [False, True])
def test_good_bid_is_approved_and_input_0_is_left_to_the_seller(taproot_payment: bool) -> None:
    s = inscription_bid(taproot_payment)
    verdict = s.verdict()
    assert verdict.approved
    assert verdict.to_sign == (SignPermission(1, 0x01), SignPermission(2, 0x01))
    seller = (s.parties.seller_ordinals, SignRequest(0, 0x01))
    sign_approved_and_verify(s, verdict, [seller])


def test_the_price_must_match_exactly() -> None:
    s = inscription_bid()
    cheaper = dataclasses.replace(s.intent, price=49_000)
    assert_refused(evaluate(s.review(), cheaper), RefusalCode.PAYMENT_MISMATCH, "52,546 sats")
    other = dataclasses.replace(s.intent, inscription_id="ab" * 32 + "i0")
    assert_refused(evaluate(s.review(), other), RefusalCode.ITEM_INPUT_WRONG, "Input 0")


def test_fee_bound_applies() -> None:
    s = inscription_bid()
    tight = dataclasses.replace(s.intent, fees=FeeBounds.of(1_999, 50))
    assert_refused(evaluate(s.review(), tight), RefusalCode.FEE_TOO_HIGH, "2,000 sats")


def test_one_address_wallet_receives_the_inscription_on_its_payment_address() -> None:
    """Unisat-style: payment and ordinals are one address; the postage comes back to it."""
    s = inscription_bid(taproot_payment=True)
    p = s.parties
    outputs = [(p.payment_spk, 546), (p.seller_payment_spk, 49_546), (p.service_fee_spk, 1_000)]
    psbt = build_psbt(s.coins, [*outputs, (p.payment_spk, 37_454)], with_full_tx=[0])
    one = addr(p.payment_spk)
    ctx = dataclasses.replace(
        s.context, addresses=ReviewContext.for_wallet(NETWORK, one, one).addresses
    )
    verdict = s.with_(psbt=psbt, context=ctx).verdict()
    assert verdict.approved, verdict.reasons()


def test_taproot_default_sighash_field_is_accepted_as_all() -> None:
    s = inscription_bid(taproot_payment=True)
    s.psbt.inputs[2].sighash_type = 0x00
    verdict = s.verdict()
    assert verdict.to_sign == (SignPermission(1, 0x01), SignPermission(2, 0x00))
    sign_approved_and_verify(s, verdict, [(s.parties.seller_ordinals, SignRequest(0, 0x01))])


def test_a_bid_needs_a_payment_input() -> None:
    s = inscription_bid()
    del s.psbt.inputs[1:]
    assert_refused(s.verdict(), RefusalCode.ITEM_INPUT_WRONG, "this PSBT has 1 input")


def test_bad_intents_raise() -> None:
    with pytest.raises(PolicyError):
        InscriptionBidIntent(INSCRIPTION, 0, FeeBounds.of(1_000, 10))
    with pytest.raises(PolicyError):
        InscriptionBidIntent("", 10_000, FeeBounds.of(1_000, 10))
