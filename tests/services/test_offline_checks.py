"""`check_signed`, the check every signed PSBT passes before it is submitted (here or after
offline signing): the reviewed transaction, signed exactly where approved, with the approved
hash type; and `approved_signatures_only`, what an import submits: the reviewed PSBT with those
signatures, none of the key origins the signer got. Pure: realistic PSBTs from the guard's
scenarios and tests/wallet/psbt_builders.py, no network."""

from __future__ import annotations

from collections import OrderedDict

import pytest
from embit.script import Script

from app.core.signing_policy import Flow, SignPermission, Verdict
from app.services.psbt_signed import (
    SignedPsbtMismatchError,
    approved_signatures_only,
    check_signed,
)
from app.wallet.finalize import finalize_psbt
from app.wallet.psbt_fixes import FixedPSBT
from app.wallet.psbt_for_signer import psbt_for_signer
from app.wallet.psbt_reader import psbt_digest, unsigned_txid
from app.wallet.psbt_signer import SignRequest, sign_psbt
from app.wallet.signing_gate import approved_sign_requests
from tests.support.psbt_scenarios import inscription_bid
from tests.support.tamper_ops import copy_psbt
from tests.wallet.psbt_builders import build_psbt, key_n, p2sh_p2wpkh, p2wpkh, pay_to
from tests.wallet.test_psbt_signed_elsewhere import (
    PAYMENT,
    PAYMENT_PRIVATE,
    ROOT,
    without_redeem,
)


def test_exactly_the_approved_signatures_pass() -> None:
    scenario = inscription_bid()
    verdict = scenario.verdict()
    signed = copy_psbt(scenario.psbt)
    sign_psbt(signed, scenario.signer, approved_sign_requests(signed, verdict))
    check_signed(scenario.psbt, signed, verdict)


def test_a_signature_on_an_input_not_approved_is_caught() -> None:
    scenario = inscription_bid()
    verdict = scenario.verdict()
    signed = copy_psbt(scenario.psbt)
    sign_psbt(signed, scenario.signer, approved_sign_requests(signed, verdict))
    sign_psbt(signed, scenario.parties.seller_ordinals, [SignRequest(0, 0x00)])
    with pytest.raises(SignedPsbtMismatchError, match="Input 0 was signed but was not approved"):
        check_signed(scenario.psbt, signed, verdict)


def test_a_missing_signature_is_caught() -> None:
    scenario = inscription_bid()
    verdict = scenario.verdict()
    signed = copy_psbt(scenario.psbt)
    sign_psbt(signed, scenario.signer, [SignRequest(1, 0x01)])
    with pytest.raises(SignedPsbtMismatchError, match="Input 2 was approved but is not signed"):
        check_signed(scenario.psbt, signed, verdict)


def test_another_hash_type_is_caught() -> None:
    scenario = inscription_bid()
    verdict = scenario.verdict()
    signed = copy_psbt(scenario.psbt)
    sign_psbt(signed, scenario.signer, [SignRequest(1, 0x81), SignRequest(2, 0x01)])
    with pytest.raises(SignedPsbtMismatchError, match="hash type 0x81, not the approved 0x1"):
        check_signed(scenario.psbt, signed, verdict)


def test_another_transaction_or_changed_utxo_data_is_caught() -> None:
    scenario = inscription_bid()
    verdict = scenario.verdict()
    other = copy_psbt(scenario.psbt)
    other.outputs[0].value -= 1
    with pytest.raises(SignedPsbtMismatchError, match="not the reviewed"):
        check_signed(scenario.psbt, other, verdict)
    lying = copy_psbt(scenario.psbt)
    utxo = lying.inputs[1].witness_utxo
    lying.inputs[1].witness_utxo = type(utxo)(utxo.value + 1, utxo.script_pubkey)
    with pytest.raises(SignedPsbtMismatchError, match="Input 1's UTXO data changed"):
        check_signed(scenario.psbt, lying, verdict)


def approving(psbt: FixedPSBT, *inputs: int) -> Verdict:
    """A verdict approving `inputs` of `psbt` with SIGHASH_ALL."""
    to_sign = tuple(SignPermission(i, 0x01) for i in inputs)
    return Verdict(Flow.FUNDING, unsigned_txid(psbt), psbt_digest(psbt), to_sign, ())


@pytest.mark.parametrize("finalised", [False, True], ids=["partial", "finalised"])
def test_the_import_submits_the_reviewed_psbt_signed_without_our_key_origins(
    finalised: bool,
) -> None:
    """A P2SH-P2WPKH input served without its redeem script: the signer got it with our key
    origin, and what is submitted is the reviewed PSBT with the signature and that redeem
    script (finalising needs it; it says nothing the signature's key does not), no origin."""
    reviewed = build_psbt(
        [without_redeem(p2sh_p2wpkh(PAYMENT_PRIVATE)), p2wpkh(key_n(7))], [pay_to(1, 150_000)]
    )
    signed = psbt_for_signer(reviewed, [PAYMENT], [0])
    assert signed.sign_with(ROOT) == 1
    if finalised:
        finalize_psbt(signed, [0])

    clean = approved_signatures_only(reviewed, signed, approving(reviewed, 0))
    redeem = clean.inputs[0].redeem_script
    assert redeem is not None and bytes(redeem.data) == PAYMENT.redeem_script
    assert all(not i.bip32_derivations for i in clean.inputs)
    for inp in clean.inputs:
        inp.partial_sigs, inp.redeem_script = OrderedDict(), None
    assert clean.serialize() == reviewed.serialize()


def test_a_redeem_script_is_taken_only_where_the_spent_output_commits_to_it() -> None:
    reviewed = build_psbt([p2wpkh(PAYMENT_PRIVATE)], [pay_to(1, 90_000)])
    signed = psbt_for_signer(reviewed, [], [0])
    sign_psbt(signed, PAYMENT_PRIVATE, [SignRequest(0, 0x01)])
    signed.inputs[0].redeem_script = Script(b"\x00\x14" + bytes(20))  # not this input's
    clean = approved_signatures_only(reviewed, signed, approving(reviewed, 0))
    assert clean.inputs[0].redeem_script is None and clean.inputs[0].partial_sigs
