"""The PSBT handed to another signer (app/wallet/psbt_for_signer.py): what signing the approved
inputs needs and our key origins there, nothing else from the service. Found in review: global
xpubs, output derivations (even ones claiming our fingerprint, which a hardware wallet takes
for its change and hides) and proprietary fields of the service's PSBT reached the signer."""

from __future__ import annotations

import hashlib
from collections import OrderedDict

from embit import bip32, ec
from embit.psbt import DerivationPath
from embit.script import Script

from app.wallet.psbt_fixes import FixedPSBT, set_unknown
from app.wallet.psbt_for_signer import psbt_for_signer
from app.wallet.psbt_origins import add_key_origins
from app.wallet.psbt_reader import unsigned_txid
from app.wallet.psbt_signature_check import check_signatures
from tests.wallet.psbt_builders import (
    Utxo,
    build_psbt,
    key_n,
    p2sh_p2wpkh,
    p2tr_key,
    p2wsh_1of2,
    pay_to,
)
from tests.wallet.test_psbt_signed_elsewhere import (
    FINGERPRINT,
    ORDINALS,
    ORDINALS_PRIVATE,
    PAYMENT,
    PAYMENT_PRIVATE,
    ROOT,
    without_redeem,
)

SERVICE_FINGERPRINT = b"\xde\xad\xbe\xef"
PROPRIETARY = b"\xfc\x07satflow\x00"  # PSBT_*_PROPRIETARY, identifier "satflow", subtype 0
OURS_TO_SIGN = [0, 1]  # the P2SH-P2WPKH payment input and the BIP-86 ordinals input


def ours(path: str) -> DerivationPath:
    return DerivationPath(FINGERPRINT, bip32.parse_path(path))


def service_psbt() -> FixedPSBT:
    """Two inputs of ours to sign (the payment one served without its redeem script), one
    foreign input, and every extra a service could add for a signer to act on."""
    foreign = p2wsh_1of2(key_n(7), key_n(8))
    utxos = [without_redeem(p2sh_p2wpkh(PAYMENT_PRIVATE)), p2tr_key(ORDINALS_PRIVATE), foreign]
    psbt = build_psbt(
        utxos, [pay_to(1, 120_000), pay_to(2, 60_000)], version=1, locktime=800_000,
        sequences=[0, 0xFFFFFFFE, 0xFFFFFFFD],
    )  # fmt: skip
    psbt.inputs[0].sighash_type = 0x01
    # Globals: our account xpub (a multisig Coldcard would register) and a proprietary field.
    account = ROOT.derive("m/49h/1h/0h").to_public()
    psbt.xpubs = OrderedDict([(account, ours("m/49h/1h/0h"))])
    set_unknown(psbt, PROPRIETARY, b"order 42")
    # Inputs: another key named on ours, our fingerprint claimed on the foreign one.
    psbt.inputs[0].bip32_derivations = OrderedDict(
        [(key_n(5).get_public_key(), DerivationPath(SERVICE_FINGERPRINT, [0]))]
    )
    set_unknown(psbt.inputs[0], PROPRIETARY, b"input note")
    psbt.inputs[2].bip32_derivations = OrderedDict(
        [(key_n(7).get_public_key(), ours("m/49h/1h/0h/0/3"))]
    )
    psbt.inputs[2].sighash_type = 0x82  # NONE|ANYONECANPAY, for a signer that would follow it
    # Outputs: output 0 claimed as our change (a hardware wallet would hide it), scripts, notes.
    psbt.outputs[0].bip32_derivations = OrderedDict(
        [(PAYMENT_PRIVATE.get_public_key(), ours("m/49h/1h/0h/1/0"))]
    )
    psbt.outputs[1].redeem_script = Script(b"\x00\x14" + bytes(20))
    psbt.outputs[1].taproot_internal_key = ec.PublicKey.from_xonly(ORDINALS.public_key[1:33])
    set_unknown(psbt.outputs[1], PROPRIETARY, b"output note")
    return psbt


def bare_with_our_origins() -> FixedPSBT:
    """What the signer should get: the transaction, every spent output, the scripts of the
    inputs to sign with their sighash type, our origins there. Built independently."""
    foreign = p2wsh_1of2(key_n(7), key_n(8))
    utxos = [
        without_redeem(p2sh_p2wpkh(PAYMENT_PRIVATE)),
        p2tr_key(ORDINALS_PRIVATE),
        Utxo(foreign.spk, foreign.amount),  # no script: nothing of ours to sign there
    ]
    psbt = build_psbt(
        utxos, [pay_to(1, 120_000), pay_to(2, 60_000)], version=1, locktime=800_000,
        sequences=[0, 0xFFFFFFFE, 0xFFFFFFFD],
    )  # fmt: skip
    psbt.inputs[0].sighash_type = 0x01
    add_key_origins(psbt, [PAYMENT, ORDINALS], OURS_TO_SIGN)
    return psbt


def test_the_signer_gets_what_signing_needs_and_nothing_else_from_the_service() -> None:
    served = service_psbt()
    before = served.serialize()

    for_signer = psbt_for_signer(served, [PAYMENT, ORDINALS], OURS_TO_SIGN)

    assert for_signer.serialize() == bare_with_our_origins().serialize()
    assert unsigned_txid(for_signer) == unsigned_txid(served)
    assert served.serialize() == before  # the reviewed PSBT is left as it is
    assert not for_signer.xpubs and not for_signer.unknown
    assert all(not o.bip32_derivations and not o.unknown for o in for_signer.outputs)
    assert for_signer.inputs[0].redeem_script is not None  # added: the signer needs it
    assert for_signer.inputs[2].sighash_type is None and not for_signer.inputs[2].unknown


def test_an_hd_signer_signs_exactly_the_approved_inputs_of_it() -> None:
    for_signer = psbt_for_signer(service_psbt(), [PAYMENT, ORDINALS], OURS_TO_SIGN)
    assert for_signer.sign_with(ROOT) == 2
    assert check_signatures(for_signer, 0) == 1
    assert (
        not for_signer.inputs[2].partial_sigs and for_signer.inputs[2].final_scriptwitness is None
    )


def test_without_key_origins_no_input_names_any_key() -> None:
    """The offline signer's export (this app signs by its own keys, not by origins)."""
    for_signer = psbt_for_signer(service_psbt(), [], [1])
    assert all(
        not i.bip32_derivations and not i.taproot_bip32_derivations for i in for_signer.inputs
    )
    assert for_signer.inputs[0].redeem_script is None  # not to sign: no scripts either
    assert for_signer.inputs[1].taproot_internal_key is not None


def test_every_input_keeps_the_output_it_spends() -> None:
    served = service_psbt()
    for_signer = psbt_for_signer(served, [PAYMENT, ORDINALS], [])
    digest = [hashlib.sha256(i.witness_utxo.serialize()).digest() for i in served.inputs]
    assert [
        hashlib.sha256(i.witness_utxo.serialize()).digest() for i in for_signer.inputs
    ] == digest
