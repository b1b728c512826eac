"""PSBTs signed in another wallet: the key origins an export adds (app/wallet/psbt_origins.py),
an HD signer finding its keys through them (embit's `sign_with`, as Sparrow or a hardware wallet
does), the signature read back from an input that wallet finalised, and every signature checked
(app/wallet/psbt_signature_check.py), checked again by Bitcoin Core's script interpreter."""

from __future__ import annotations

import hashlib
from collections import OrderedDict

import pytest
from embit import bip32, ec
from embit.psbt import DerivationPath

from app.wallet.addresses import AddressType, KeyRole, Network, PublicRoleKey, public_role_key
from app.wallet.finalize import extract_transaction, finalize_psbt
from app.wallet.psbt_fixes import FixedPSBT
from app.wallet.psbt_origins import add_key_origins
from app.wallet.psbt_signature_check import (
    SignatureCheckError,
    check_signatures,
    recover_final_signatures,
)
from app.wallet.scripts import bidding_taproot_1of2
from tests.wallet.kernel import assert_accepted
from tests.wallet.psbt_builders import (
    Utxo,
    build_psbt,
    key_n,
    p2sh_p2wpkh,
    p2tr_bidding,
    p2tr_key,
    p2wpkh,
    p2wsh_1of2,
    pay_to,
    spent,
)

ROOT = bip32.HDKey.from_seed(hashlib.sha256(b"another wallet's seed").digest() * 2)
FINGERPRINT = bytes(ROOT.my_fingerprint)
PAYMENT_PATH = "m/49'/1'/0'/0/0"
ORDINALS_PATH = "m/86'/1'/0'/0/0"


def role_key(path: str, kind: AddressType, role: KeyRole) -> tuple[PublicRoleKey, ec.PrivateKey]:
    node = ROOT.derive(path)
    public = public_role_key(role, bytes(node.sec()), kind, Network.REGTEST, path, FINGERPRINT)
    private: ec.PrivateKey = node.key
    return public, private


PAYMENT, PAYMENT_PRIVATE = role_key(PAYMENT_PATH, AddressType.P2SH_P2WPKH, KeyRole.PAYMENT)
ORDINALS, ORDINALS_PRIVATE = role_key(ORDINALS_PATH, AddressType.P2TR, KeyRole.ORDINALS)


def without_redeem(utxo: Utxo) -> Utxo:
    """The output as a service may describe it: no redeem script in the PSBT."""
    return Utxo(utxo.spk, utxo.amount)


def test_origins_go_on_approved_inputs_only_and_an_hd_signer_signs_exactly_those() -> None:
    ours = without_redeem(p2sh_p2wpkh(PAYMENT_PRIVATE))
    also_ours = p2sh_p2wpkh(PAYMENT_PRIVATE, 50_000)
    foreign = p2wpkh(key_n(7))
    utxos = [ours, also_ours, foreign]
    psbt = build_psbt(utxos, [pay_to(1, 120_000)])
    # A service claiming our fingerprint on an input we did not approve: stripped.
    fake = DerivationPath(FINGERPRINT, bip32.parse_path(PAYMENT_PATH))
    psbt.inputs[2].bip32_derivations = OrderedDict([(key_n(7).get_public_key(), fake)])

    assert add_key_origins(psbt, [PAYMENT, ORDINALS], [0]) == 1
    assert psbt.inputs[0].redeem_script is not None  # what the signer needs, added
    ((pub, origin),) = psbt.inputs[0].bip32_derivations.items()
    assert pub.sec() == PAYMENT.public_key
    assert (origin.fingerprint, origin.derivation) == (
        FINGERPRINT,
        bip32.parse_path(PAYMENT_PATH),
    )
    assert not psbt.inputs[1].bip32_derivations and not psbt.inputs[2].bip32_derivations

    signed = FixedPSBT.parse(psbt.serialize())
    assert signed.sign_with(ROOT) == 1  # input 0 alone: the others name no key of ours
    assert check_signatures(signed, 0) == 1
    assert not signed.inputs[1].partial_sigs


def test_a_taproot_key_path_input_finalised_elsewhere_is_read_back_and_checked() -> None:
    utxos = [p2tr_key(ORDINALS_PRIVATE)]
    psbt = build_psbt(utxos, [pay_to(2, 90_000)])
    psbt.inputs[0].taproot_internal_key = None
    assert add_key_origins(psbt, [PAYMENT, ORDINALS], [0]) == 1
    ((leaves, origin),) = psbt.inputs[0].taproot_bip32_derivations.values()
    assert leaves == [] and origin.derivation == bip32.parse_path(ORDINALS_PATH)
    assert psbt.inputs[0].taproot_internal_key is not None

    assert psbt.sign_with(ROOT) == 1  # embit writes a taproot signature as a final witness
    assert psbt.inputs[0].tap_key_sig is None and psbt.inputs[0].final_scriptwitness
    assert recover_final_signatures(psbt, 0)
    assert psbt.inputs[0].tap_key_sig is not None and check_signatures(psbt, 0) == 1


@pytest.mark.parametrize("form", ["p2wsh", "taproot"])
def test_the_payment_key_in_the_bidding_wallets_script_is_named_and_signs(form: str) -> None:
    service = key_n(5)
    wallet = p2wsh_1of2 if form == "p2wsh" else p2tr_bidding
    utxo = wallet(PAYMENT_PRIVATE, service)
    psbt = build_psbt([utxo], [pay_to(3, 95_000)])
    assert add_key_origins(psbt, [PAYMENT], [0]) == 1
    if form == "taproot":
        out = bidding_taproot_1of2(PAYMENT.public_key[1:], bytes(service.xonly()))
        ((leaves, _origin),) = psbt.inputs[0].taproot_bip32_derivations.values()
        assert leaves == [out.leaves[0].leaf_hash]
    assert psbt.sign_with(ROOT) == 1
    assert check_signatures(psbt, 0) == 1
    finalize_psbt(psbt)
    if form == "p2wsh":  # a wallet that finalised it: the signature comes back from the witness
        assert recover_final_signatures(psbt, 0) and check_signatures(psbt, 0) == 1
    assert_accepted(bytes(extract_transaction(psbt).serialize()), spent([utxo]))


def test_a_nested_segwit_input_finalised_elsewhere_verifies_with_the_kernel() -> None:
    utxos = [p2sh_p2wpkh(PAYMENT_PRIVATE)]
    psbt = build_psbt(utxos, [pay_to(4, 99_000)])
    add_key_origins(psbt, [PAYMENT], [0])
    assert psbt.sign_with(ROOT) == 1
    finalize_psbt(psbt)
    assert not psbt.inputs[0].partial_sigs
    assert recover_final_signatures(psbt, 0)
    assert check_signatures(psbt, 0) == 1
    finalize_psbt(psbt)  # what the app submits finalises again from the recovered fields
    assert_accepted(bytes(extract_transaction(psbt).serialize()), spent(utxos))


def flip_bit(data: bytes, at: int) -> bytes:
    changed = bytearray(data)
    changed[at] ^= 0x01
    return bytes(changed)


def test_a_changed_signature_or_transaction_does_not_verify() -> None:
    utxos = [p2sh_p2wpkh(PAYMENT_PRIVATE), p2tr_key(ORDINALS_PRIVATE)]
    psbt = build_psbt(utxos, [pay_to(6, 150_000)])
    add_key_origins(psbt, [PAYMENT, ORDINALS], [0, 1])
    assert psbt.sign_with(ROOT) == 2
    assert recover_final_signatures(psbt, 1)
    good = FixedPSBT.parse(psbt.serialize())
    assert check_signatures(good, 0) == 1 and check_signatures(good, 1) == 1

    ((pub, sig),) = good.inputs[0].partial_sigs.items()
    tampered = FixedPSBT.parse(good.serialize())
    tampered.inputs[0].partial_sigs = OrderedDict([(pub, flip_bit(sig, -5))])
    with pytest.raises(SignatureCheckError, match="does not verify"):
        check_signatures(tampered, 0)
    tampered = FixedPSBT.parse(good.serialize())
    tampered.inputs[1].tap_key_sig = flip_bit(good.inputs[1].tap_key_sig, 10)
    with pytest.raises(SignatureCheckError, match="taproot signature does not verify"):
        check_signatures(tampered, 1)
    other_tx = FixedPSBT.parse(good.serialize())
    other_tx.outputs[0].value -= 1_000  # signatures made for another transaction
    for index in (0, 1):
        with pytest.raises(SignatureCheckError):
            check_signatures(other_tx, index)
    wrong_key = FixedPSBT.parse(good.serialize())
    wrong_key.inputs[0].partial_sigs = OrderedDict([(key_n(8).get_public_key(), sig)])
    with pytest.raises(SignatureCheckError, match="does not belong to the spent script"):
        check_signatures(wrong_key, 0)
