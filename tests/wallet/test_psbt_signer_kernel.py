"""Every input type x every sighash type: sign, finalise, and let Bitcoin Core judge.

Each spend has our input at index 0 and a helper input (another key, P2TR key path, ALL) at
index 1, and two outputs, so SINGLE has its matching output. Bitcoin Core's interpreter
(py-bitcoinkernel) must accept the result and reject tampered copies.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from embit.transaction import Transaction

from app.wallet.psbt_signer import SignRequest, requests_for
from app.wallet.scripts import checksig_leaf
from tests.wallet.kernel import assert_accepted, verify_inputs
from tests.wallet.psbt_builders import (
    Utxo,
    build_psbt,
    key_n,
    p2sh_p2wpkh,
    p2tr_bidding,
    p2tr_checksig_leaf,
    p2tr_key,
    p2wpkh,
    p2wsh_1of2,
    pay_to,
    sign_all_and_extract,
    spent,
)

ME, OTHER, HELPER = key_n(1), key_n(2), key_n(3)

INPUT_TYPES: dict[str, Callable[[], Utxo]] = {
    "P2WPKH": lambda: p2wpkh(ME),
    "P2SH-P2WPKH": lambda: p2sh_p2wpkh(ME),
    "P2WSH 1-of-2 (our key)": lambda: p2wsh_1of2(ME, OTHER),
    "P2TR key path (BIP-86)": lambda: p2tr_key(ME),
    "P2TR key path with script tree": lambda: p2tr_key(ME, leaves=[checksig_leaf(OTHER.xonly())]),
    "P2TR script path CHECKSIG leaf": lambda: p2tr_checksig_leaf(ME, OTHER),
    "P2TR script path 1-of-2 multi_a": lambda: p2tr_bidding(ME, OTHER),
}
ECDSA_TYPES = [0x01, 0x02, 0x03, 0x81, 0x82, 0x83]
TAPROOT_TYPES = [0x00, *ECDSA_TYPES]
CASES = [
    (name, sighash)
    for name in INPUT_TYPES
    for sighash in (TAPROOT_TYPES if "P2TR" in name else ECDSA_TYPES)
]
COMMITS_TO_ALL_OUTPUTS = {0x00, 0x01, 0x81}


def _signed_spend(name: str, sighash: int) -> tuple[bytes, list[Utxo]]:
    utxos = [INPUT_TYPES[name](), p2tr_key(HELPER)]
    psbt = build_psbt(utxos, [pay_to(5, 60_000), pay_to(6, 50_000)])
    raw = sign_all_and_extract(
        psbt, [(ME, requests_for([0], sighash)), (HELPER, [SignRequest(1, 0x01)])]
    )
    return raw, utxos


def _flip_signature_byte(tx: Transaction) -> None:
    items = list(tx.vin[0].witness.items)
    first_sig = next(i for i, item in enumerate(items) if len(item) >= 64)
    sig = bytearray(items[first_sig])
    sig[10] ^= 0x01
    items[first_sig] = bytes(sig)
    tx.vin[0].witness.items = items


@pytest.mark.parametrize(("name", "sighash"), CASES, ids=[f"{n}-0x{s:02x}" for n, s in CASES])
def test_signed_input_is_accepted_by_bitcoin_core(name: str, sighash: int) -> None:
    raw, utxos = _signed_spend(name, sighash)
    assert_accepted(raw, spent(utxos))


@pytest.mark.parametrize(("name", "sighash"), CASES, ids=[f"{n}-0x{s:02x}" for n, s in CASES])
def test_tampered_signature_is_rejected(name: str, sighash: int) -> None:
    raw, utxos = _signed_spend(name, sighash)
    tx = Transaction.parse(raw)
    _flip_signature_byte(tx)
    assert verify_inputs(tx, spent(utxos)) == [False, True]


@pytest.mark.parametrize(("name", "sighash"), CASES, ids=[f"{n}-0x{s:02x}" for n, s in CASES])
def test_changed_output_amount_follows_sighash_semantics(name: str, sighash: int) -> None:
    raw, utxos = _signed_spend(name, sighash)
    tx = Transaction.parse(raw)
    tx.vout[0].value -= 1_000  # output 0 is the one SINGLE (for input 0) commits to
    ours_valid = verify_inputs(tx, spent(utxos))[0]
    committed = sighash in COMMITS_TO_ALL_OUTPUTS or sighash & 0x7F == 0x03
    assert ours_valid is not committed


@pytest.mark.parametrize("name", list(INPUT_TYPES))
def test_anyonecanpay_signature_survives_an_added_input(name: str) -> None:
    sighash = 0x81
    utxos = [INPUT_TYPES[name](), p2wpkh(HELPER)]
    psbt = build_psbt(utxos[:1], [pay_to(5, 60_000)])
    raw = sign_all_and_extract(psbt, [(ME, [SignRequest(0, sighash)])])
    first_witness = Transaction.parse(raw).vin[0]
    # The buyer adds an input to the listing and signs it; our signature is reused as is.
    grown = build_psbt(utxos, [pay_to(5, 60_000)])
    grown.inputs[0].final_scriptwitness = first_witness.witness
    if first_witness.script_sig.data:
        grown.inputs[0].final_scriptsig = first_witness.script_sig
    raw2 = sign_all_and_extract(grown, [(HELPER, [SignRequest(1, 0x01)])])
    assert_accepted(raw2, spent(utxos))


@pytest.mark.parametrize("name", list(INPUT_TYPES))
def test_single_signature_survives_changes_to_other_outputs(name: str) -> None:
    utxos = [INPUT_TYPES[name](), p2wpkh(HELPER)]
    psbt = build_psbt(utxos, [pay_to(5, 60_000), pay_to(6, 20_000)])
    raw = sign_all_and_extract(psbt, [(ME, [SignRequest(0, 0x03)]), (HELPER, [SignRequest(1, 1)])])
    witness = Transaction.parse(raw).vin[0]
    changed = build_psbt(utxos, [pay_to(5, 60_000), pay_to(7, 15_000), pay_to(8, 1_000)])
    changed.inputs[0].final_scriptwitness = witness.witness
    if witness.script_sig.data:
        changed.inputs[0].final_scriptsig = witness.script_sig
    raw2 = sign_all_and_extract(changed, [(HELPER, [SignRequest(1, 0x01)])])
    assert_accepted(raw2, spent(utxos))
