"""Secure listing policy: sign only the item's input, ALL|ANYONECANPAY or ALL, for the price."""

from __future__ import annotations

import dataclasses

import pytest

from app.core.signing_policy import (
    PolicyError,
    RefusalCode,
    SecureListingIntent,
    SignPermission,
    evaluate,
)
from tests.support.policy_checks import assert_refused, sign_approved_and_verify
from tests.support.psbt_scenarios import INSCRIPTION, secure_listing
from tests.support.tamper_ops import Target, set_contents


@pytest.mark.parametrize("runes", [False, True])
def test_good_listing_signs_only_the_item_with_all_anyonecanpay(runes: bool) -> None:
    s = secure_listing(runes)
    verdict = s.verdict()
    assert verdict.approved, verdict.reasons()
    assert verdict.to_sign == (SignPermission(0, 0x81),)
    sign_approved_and_verify(s, verdict)  # the buyer's inputs come later: ANYONECANPAY


@pytest.mark.parametrize("field", [None, 0x81])
def test_the_item_is_signed_all_anyonecanpay(field: int | None) -> None:
    s = secure_listing()
    s.psbt.inputs[0].sighash_type = field
    verdict = s.verdict()
    assert verdict.to_sign == (SignPermission(0, 0x81),)
    sign_approved_and_verify(s, verdict)


@pytest.mark.parametrize("field", [0x01, 0x00])
def test_all_is_refused_for_a_listing(field: int) -> None:
    """An ALL signature commits to every input: over a coin listed elsewhere with these very
    outputs it would combine with that listing's ANYONECANPAY signature (a double sale the
    ledger of ANYONECANPAY signatures cannot see). A secure listing is ALL|ANYONECANPAY."""
    s = secure_listing()
    s.psbt.inputs[0].sighash_type = field
    assert_refused(s.verdict(), RefusalCode.SIGHASH_NOT_ALLOWED, "Input 0")


def test_the_listing_pays_exactly_its_price() -> None:
    """Not "at least": a cheaper listing that overpays could carry the very outputs of a
    dearer one, and the two ANYONECANPAY signatures would combine into one purchase."""
    s = secure_listing()
    assert evaluate(s.review(), s.intent).approved
    verdict = evaluate(s.review(), dataclasses.replace(s.intent, price=99_000))
    assert_refused(verdict, RefusalCode.LISTING_PAYS_OTHER_AMOUNT, "more than the listing price")
    verdict = evaluate(s.review(), dataclasses.replace(s.intent, price=100_001))
    assert_refused(verdict, RefusalCode.LISTING_UNDERPAID, "Output 1 pays 100,000 sats")


def test_receive_address_on_another_network_is_refused() -> None:
    s = secure_listing()
    mainnet = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
    verdict = evaluate(s.review(), dataclasses.replace(s.intent, receive_address=mainnet))
    assert_refused(verdict, RefusalCode.WRONG_NETWORK, mainnet)


def test_item_unknown_to_ord_cannot_be_listed() -> None:
    s = secure_listing()
    t = Target(s.psbt, s.context)
    set_contents(t, t.outpoint(0), None)
    verdict = s.with_(context=t.context).verdict()
    assert_refused(verdict, RefusalCode.ITEM_INPUT_WRONG, "ord has no answer for input 0")


def test_runes_listing_of_a_coin_without_runes_is_refused() -> None:
    s = secure_listing(runes=True)
    t = Target(s.psbt, s.context)
    set_contents(t, t.outpoint(0), type(s.context.contents[t.outpoint(0)])())
    assert_refused(s.with_(context=t.context).verdict(), RefusalCode.ITEM_INPUT_WRONG, "no runes")


def test_intent_names_exactly_one_item() -> None:
    with pytest.raises(PolicyError):
        SecureListingIntent(1_000, "bcrt1qx")
    with pytest.raises(PolicyError):
        SecureListingIntent(1_000, "bcrt1qx", inscription_id=INSCRIPTION, runes_outpoint="a:0")
    with pytest.raises(PolicyError):
        SecureListingIntent(0, "bcrt1qx", inscription_id=INSCRIPTION)
