"""End-listing policy: the listed item back to our ordinals address, the fee from our plain
payment coins, nothing to anyone else, SIGHASH_ALL only. Attacker cases first-class: the item
sent elsewhere, an absurd fee, another of our items spent, ANYONECANPAY asked for."""

from __future__ import annotations

import dataclasses

import pytest
from embit.transaction import TransactionOutput

from app.core.psbt_review_context import NOTHING, InscriptionAt, OutpointContents
from app.core.signing_policy import (
    EndListingIntent,
    FeeConsent,
    PolicyError,
    RefusalCode,
    SignPermission,
    evaluate,
    with_fee_consent,
)
from app.wallet.finalize import extract_transaction, finalize_psbt
from app.wallet.psbt_signer import SignRequest, sign_psbt
from tests.support import psbt_scenarios as scenarios
from tests.support.policy_checks import assert_refused
from tests.support.psbt_scenarios import (
    FEES,
    INSCRIPTION,
    OTHER_INSCRIPTION,
    Scenario,
    _fill_taproot_key,
    addr,
    build_psbt,
    coin,
    hash160,
    key,
    p2wpkh_spk,
    parties,
)
from tests.wallet.kernel import assert_accepted

ITEM_VALUE, FEE_COIN, FEE = 10_000, 20_000, 2_100  # ~210 vB at 10 sat/vB (FASTEST)


def end_listing(
    *,
    runes: bool = False,
    outputs: list[tuple[bytes, int]] | None = None,
    offset: int = 0,
    sighash: dict[int, int] | None = None,
) -> Scenario:
    """The good scenario (our item back to the ordinals address, one plain payment coin for
    the fee) with other outputs, the inscription at another offset, or sighash fields."""
    s = scenarios.end_listing(runes)
    psbt = build_psbt(s.coins, outputs or _outputs_of(s), sighash=sighash)
    contents = dict(s.context.contents)
    if offset:
        contents[s.coins[0].outpoint] = OutpointContents((InscriptionAt(INSCRIPTION, offset),))
    return s.with_(psbt=psbt, context=dataclasses.replace(s.context, contents=contents))


def _outputs_of(s: Scenario) -> list[tuple[bytes, int]]:
    return [(bytes(o.script_pubkey.data), o.value) for o in s.psbt.tx.vout]


def test_moving_the_item_back_is_approved_and_bitcoin_core_accepts_both_signatures() -> None:
    s = end_listing()
    verdict = s.verdict()
    assert verdict.approved, verdict.reasons()
    # taproot item: DEFAULT (commits to everything, like ALL); the P2WPKH fee coin: ALL.
    assert verdict.to_sign == (SignPermission(0, 0x00), SignPermission(1, 0x01))
    assert verdict.fee is not None and verdict.fee.fee == FEE
    sign_psbt(s.psbt, s.parties.ordinals, [SignRequest(0, 0x00)])
    sign_psbt(s.psbt, s.parties.payment, [SignRequest(1, 0x01)])
    finalize_psbt(s.psbt)
    assert_accepted(extract_transaction(s.psbt), [c.txout for c in s.coins])


def test_runes_moved_back_whole_are_approved() -> None:
    assert end_listing(runes=True).verdict().approved


def test_the_item_sent_to_someone_else_is_refused() -> None:
    p = parties()
    s = end_listing(outputs=[(p.stranger_spk, ITEM_VALUE), (p.payment_spk, FEE_COIN - FEE)])
    verdict = s.verdict()
    assert_refused(verdict, RefusalCode.OUTPUT_NOT_ALLOWED, "output 0 pays 10,000 sats")
    assert_refused(verdict, RefusalCode.INSCRIPTION_NOT_RECEIVED, "not on your ordinals address")


def test_the_item_landing_in_the_change_is_refused() -> None:
    """The inscribed sat at offset 9,000 of a 10,000-sat item, with a 5,000-sat first output:
    it lands on the payment address's change, where a later payment could spend it."""
    p = parties()
    outputs = [(p.ordinals_spk, 5_000), (p.payment_spk, ITEM_VALUE + FEE_COIN - FEE - 5_000)]
    s = end_listing(outputs=outputs, offset=9_000)
    assert_refused(s.verdict(), RefusalCode.INSCRIPTION_NOT_RECEIVED, "lands on output 1")


def test_runes_sent_to_the_payment_address_first_are_refused() -> None:
    p = parties()
    s = end_listing(runes=True, outputs=[(p.payment_spk, FEE_COIN - FEE), (p.ordinals_spk, 10_000)])
    assert_refused(s.verdict(), RefusalCode.INSCRIPTION_NOT_RECEIVED, "runes go to output 0")


def test_an_empty_runestone_leaves_the_runes_home_but_its_op_return_is_refused() -> None:
    """ord reads OP_RETURN OP_13 OP_0 as an empty runestone: the runes go to the first output,
    our ordinals address (once refused as "not decoded"; tests/core/test_policy_runes.py has
    the runestones that send them elsewhere). The OP_RETURN output itself is still refused."""
    p = parties()
    runestone = b"\x6a\x5d\x00"
    outputs = [(p.ordinals_spk, ITEM_VALUE), (p.payment_spk, FEE_COIN - FEE), (runestone, 0)]
    verdict = end_listing(runes=True, outputs=outputs).verdict()
    assert verdict.codes == (RefusalCode.OUTPUT_NOT_ALLOWED,)
    assert_refused(verdict, RefusalCode.OUTPUT_NOT_ALLOWED, "OP_RETURN")


@pytest.mark.parametrize("paid_to", ["bidding", "service", "stranger"])
def test_an_extra_output_to_anyone_but_us_is_refused(paid_to: str) -> None:
    p = parties()
    spk = {
        "bidding": p.bidding_spk,
        "service": p.service_fee_spk,
        "stranger": p.stranger_spk,
    }[paid_to]
    outputs = [(p.ordinals_spk, ITEM_VALUE), (p.payment_spk, FEE_COIN - FEE - 1_000), (spk, 1_000)]
    assert_refused(
        end_listing(outputs=outputs).verdict(), RefusalCode.OUTPUT_NOT_ALLOWED, "output 2"
    )


def test_an_absurd_fee_is_refused_and_only_an_explicit_consent_signs_that_very_fee() -> None:
    p = parties()
    s = end_listing(outputs=[(p.ordinals_spk, ITEM_VALUE), (p.payment_spk, 1_000)])
    verdict = s.verdict()
    assert_refused(verdict, RefusalCode.FEE_TOO_HIGH, "19,000 sats")
    assert RefusalCode.FEE_RATE_ABOVE_MARKET in verdict.codes
    assert verdict.needs_fee_consent
    review = s.review()
    assert review.fee is not None
    consented = with_fee_consent(s.intent, FeeConsent(review.view.digest, review.fee))
    assert evaluate(review, consented).approved
    other = with_fee_consent(s.intent, FeeConsent(review.view.digest, review.fee - 1))
    assert not evaluate(review, other).approved


def test_an_unknown_fee_is_refused_without_consent() -> None:
    s = end_listing()
    ctx = dataclasses.replace(s.context, chain_utxos={})
    verdict = s.with_(context=ctx).verdict()
    assert_refused(verdict, RefusalCode.FEE_UNKNOWN, "cannot be known")
    assert not verdict.needs_fee_consent


def _with_extra_input(s: Scenario, spk: bytes, carries: OutpointContents | None) -> Scenario:
    """`s` with one more 5,000-sat input at `spk` (its sats to our change)."""
    extra = coin(spk, 5_000)
    coins = (*s.coins, extra)
    outputs = _outputs_of(s)
    outputs[-1] = (outputs[-1][0], outputs[-1][1] + 5_000)
    psbt = build_psbt(coins, outputs)
    contents = dict(s.context.contents)
    if carries is not None:
        contents[extra.outpoint] = carries
    chain = dict(s.context.chain_utxos) | {extra.outpoint: extra.known()}
    ctx = dataclasses.replace(s.context, contents=contents, chain_utxos=chain)
    return s.with_(psbt=psbt, context=ctx, coins=coins)


def test_another_of_our_items_at_the_ordinals_address_is_refused() -> None:
    s = end_listing()
    other = OutpointContents((InscriptionAt(OTHER_INSCRIPTION, 0),))
    verdict = _with_extra_input(s, s.parties.ordinals_spk, other).verdict()
    assert_refused(verdict, RefusalCode.EXTRA_INPUT_OF_OURS, "input 2 spends")


def test_a_payment_coin_carrying_an_inscription_is_refused() -> None:
    s = end_listing()
    other = OutpointContents((InscriptionAt(OTHER_INSCRIPTION, 0),))
    verdict = _with_extra_input(s, s.parties.payment_spk, other).verdict()
    assert_refused(verdict, RefusalCode.NOT_CARDINAL, "must not be spent as plain sats")


def test_a_payment_coin_ord_cannot_describe_is_refused() -> None:
    s = end_listing()
    verdict = _with_extra_input(s, s.parties.payment_spk, None).verdict()
    assert_refused(verdict, RefusalCode.CONTENTS_UNKNOWN, "input 2")


def test_someone_elses_coin_is_refused() -> None:
    s = end_listing()
    verdict = _with_extra_input(s, p2wpkh_spk(key(77)), NOTHING).verdict()
    assert_refused(verdict, RefusalCode.FOREIGN_INPUT, "input 2")


def test_an_item_held_elsewhere_is_refused() -> None:
    """The 'item' input is someone else's output carrying the inscription."""
    s = end_listing()
    p = s.parties
    theirs = coin(p2wpkh_spk(key(78)), ITEM_VALUE)
    coins = (theirs, s.coins[1])
    psbt = build_psbt(coins, [(p.ordinals_spk, ITEM_VALUE), (p.payment_spk, FEE_COIN - FEE)])
    carries = OutpointContents((InscriptionAt(INSCRIPTION, 0),))
    ctx = p.context(coins, contents={theirs.outpoint: carries, coins[1].outpoint: NOTHING})
    assert_refused(
        s.with_(psbt=psbt, context=ctx, coins=coins).verdict(),
        RefusalCode.ITEM_NOT_OURS,
        "not your ordinals address",
    )


def test_no_input_carrying_the_item_is_refused() -> None:
    s = end_listing()
    other = EndListingIntent(FEES, inscription_id=OTHER_INSCRIPTION)
    assert_refused(evaluate(s.review(), other), RefusalCode.ITEM_INPUT_WRONG, "nothing to move")


@pytest.mark.parametrize("sighash", [0x81, 0x83, 0x82, 0x03, 0x02])
def test_anyonecanpay_none_and_single_are_refused(sighash: int) -> None:
    s = end_listing(sighash={1: sighash})
    assert_refused(s.verdict(), RefusalCode.SIGHASH_NOT_ALLOWED, "Input 1 asks to be signed")


def test_an_anyonecanpay_item_signature_is_refused() -> None:
    assert_refused(
        end_listing(sighash={0: 0x81}).verdict(), RefusalCode.SIGHASH_NOT_ALLOWED, "Input 0"
    )


def test_a_lying_witness_utxo_amount_is_refused() -> None:
    s = end_listing()
    s.psbt.inputs[1].witness_utxo = TransactionOutput(
        FEE_COIN + 50_000, s.coins[1].txout.script_pubkey
    )
    verdict = s.verdict()
    assert not verdict.approved
    assert RefusalCode.UTXO_NOT_AS_ON_CHAIN in verdict.codes


def test_a_bad_intent_raises() -> None:
    with pytest.raises(PolicyError):
        EndListingIntent(FEES)
    with pytest.raises(PolicyError):
        EndListingIntent(FEES, inscription_id=INSCRIPTION, runes_outpoint="00" * 32 + ":0")


def test_a_single_address_wallet_pays_the_fee_from_the_same_address() -> None:
    """Payment and ordinals share one address: its plain coins pay, its items do not."""
    p = parties()
    p = dataclasses.replace(p, payment=p.ordinals, payment_spk=p.ordinals_spk)
    item = coin(p.ordinals_spk, ITEM_VALUE, _fill_taproot_key(p.ordinals))
    pay = coin(p.ordinals_spk, FEE_COIN, _fill_taproot_key(p.ordinals))
    psbt = build_psbt(
        (item, pay), [(p.ordinals_spk, ITEM_VALUE), (p.ordinals_spk, FEE_COIN - 1_500)]
    )
    carries = OutpointContents((InscriptionAt(INSCRIPTION, 0),))
    ctx = p.context((item, pay), contents={item.outpoint: carries, pay.outpoint: NOTHING})
    s = Scenario(
        "end_listing", psbt, ctx, EndListingIntent(FEES, INSCRIPTION), p, (item, pay), p.ordinals
    )
    assert s.verdict().approved, s.verdict().reasons()
    assert addr(p.payment_spk) == addr(p.ordinals_spk)


def test_a_runes_item_ord_cannot_describe_is_refused() -> None:
    """A runes listing names only its outpoint: with ord's answer unknown, where its runes and
    any inscription land cannot be checked (here runes would go to the payment change first)."""
    p = parties()
    s = end_listing(runes=True, outputs=[(p.payment_spk, FEE_COIN - FEE), (p.ordinals_spk, 10_000)])
    contents = dict(s.context.contents)
    del contents[s.coins[0].outpoint]
    s = s.with_(context=dataclasses.replace(s.context, contents=contents))
    assert_refused(s.verdict(), RefusalCode.CONTENTS_UNKNOWN, "Input 0")


def _lookalikes() -> dict[str, bytes]:
    """Scripts of our own keys that are not our addresses: spendable with the keys, maybe,
    but unwatched (the item would vanish from view) or not ours at all (an untweaked key)."""
    ordinals, payment = key(2), key(1)
    payment_hash = p2wpkh_spk(payment)[2:]
    return {
        "ordinals key untweaked as the output key": b"\x51\x20" + ordinals.xonly(),
        "ordinals key as P2WPKH": p2wpkh_spk(ordinals),
        "payment key as P2PKH": b"\x76\xa9\x14" + payment_hash + b"\x88\xac",
        "payment key as P2SH-P2WPKH": b"\xa9\x14" + hash160(b"\x00\x14" + payment_hash) + b"\x87",
        "payment key as a bare P2PK": bytes([33]) + payment.sec() + b"\xac",
    }


@pytest.mark.parametrize("lookalike", sorted(_lookalikes()))
def test_the_item_to_an_address_that_only_looks_ours_is_refused(lookalike: str) -> None:
    p = parties()
    spk = _lookalikes()[lookalike]
    s = end_listing(outputs=[(spk, ITEM_VALUE), (p.payment_spk, FEE_COIN - FEE)])
    verdict = s.verdict()
    assert_refused(verdict, RefusalCode.OUTPUT_NOT_ALLOWED, "output 0")
    assert_refused(verdict, RefusalCode.INSCRIPTION_NOT_RECEIVED, "lands on output 0")
    assert not any("(None)" in r.message for r in verdict.refusals)
