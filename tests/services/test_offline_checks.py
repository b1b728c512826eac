"""`check_signed`, the check every signed PSBT passes before it is submitted (here or after
offline signing): the reviewed transaction, signed exactly where approved, with the approved
hash type. Pure: realistic PSBTs from the guard's scenarios, no network."""

from __future__ import annotations

import pytest

from app.services.psbt_signed import SignedPsbtMismatchError, check_signed
from app.wallet.psbt_signer import SignRequest, sign_psbt
from app.wallet.signing_gate import approved_sign_requests
from tests.support.psbt_scenarios import inscription_bid
from tests.support.tamper_ops import copy_psbt


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
