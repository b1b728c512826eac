"""Finaliser: witness layouts, multisig choices, errors, and field clean-up."""

from __future__ import annotations

import pytest
from embit.transaction import Transaction

from app.wallet.finalize import FinalizeError, extract_transaction, finalize_input, finalize_psbt
from app.wallet.psbt_io import parse_psbt, psbt_to_base64
from app.wallet.psbt_signer import requests_for, sign_psbt
from app.wallet.scripts import bidding_p2wsh_1of2, bidding_taproot_1of2, multi_a_leaf
from tests.wallet.kernel import assert_accepted
from tests.wallet.psbt_builders import (
    build_psbt,
    key_n,
    p2sh_p2wpkh,
    p2tr_bidding,
    p2tr_key,
    p2tr_leaves,
    p2wpkh,
    p2wsh_1of2,
    pay_to,
    sign_all_and_extract,
    spent,
)

USER, SERVICE, THIRD = key_n(1), key_n(2), key_n(3)


@pytest.mark.parametrize("signer", [USER, SERVICE], ids=["user signs", "service signs"])
def test_bidding_multi_a_either_key_alone_spends(signer: object) -> None:
    utxos = [p2tr_bidding(USER, SERVICE)]
    psbt = build_psbt(utxos, [pay_to(5, 90_000)])
    raw = sign_all_and_extract(psbt, [(signer, requests_for([0], 0x00))])  # type: ignore[list-item]
    witness = Transaction.parse(raw).vin[0].witness.items
    out = bidding_taproot_1of2(USER.xonly(), SERVICE.xonly())
    assert witness[-2:] == [out.leaves[0].script, out.leaves[0].control_block]
    assert sorted(len(item) for item in witness[:2]) == [0, 64]  # one empty, one signature
    assert_accepted(raw, spent(utxos))


def test_multi_a_with_both_signatures_uses_exactly_the_threshold() -> None:
    utxos = [p2tr_bidding(USER, SERVICE)]
    psbt = build_psbt(utxos, [pay_to(5, 90_000)])
    raw = sign_all_and_extract(
        psbt, [(USER, requests_for([0], 0x01)), (SERVICE, requests_for([0], 0x01))]
    )
    assert sum(1 for item in Transaction.parse(raw).vin[0].witness.items[:2] if item) == 1
    assert_accepted(raw, spent(utxos))


def test_two_of_three_multi_a_orders_signatures_in_reverse_key_order() -> None:
    keys = [USER, SERVICE, THIRD]
    leaf = multi_a_leaf(2, [k.xonly() for k in keys])
    utxos = [p2tr_leaves(key_n(99).xonly(), [leaf])]
    psbt = build_psbt(utxos, [pay_to(5, 90_000)])
    raw = sign_all_and_extract(
        psbt, [(USER, requests_for([0], 0x01)), (THIRD, requests_for([0], 0x01))]
    )
    assert_accepted(raw, spent(utxos))


def test_p2wsh_1of2_with_both_signatures_uses_one_and_the_dummy() -> None:
    utxos = [p2wsh_1of2(USER, SERVICE)]
    psbt = build_psbt(utxos, [pay_to(5, 90_000)])
    raw = sign_all_and_extract(
        psbt, [(USER, requests_for([0], 0x01)), (SERVICE, requests_for([0], 0x01))]
    )
    items = Transaction.parse(raw).vin[0].witness.items
    assert len(items) == 3 and items[0] == b""
    assert items[2] == bidding_p2wsh_1of2(USER.sec(), SERVICE.sec()).witness_script
    assert_accepted(raw, spent(utxos))


def test_p2sh_p2wpkh_gets_redeem_script_push_as_script_sig() -> None:
    utxos = [p2sh_p2wpkh(USER)]
    psbt = build_psbt(utxos, [pay_to(5, 90_000)])
    raw = sign_all_and_extract(psbt, [(USER, requests_for([0], 0x01))])
    assert Transaction.parse(raw).vin[0].script_sig.data == b"\x16\x00\x14" + p2wpkh(USER).spk[2:]


@pytest.mark.parametrize(
    "make",
    [
        lambda: p2wpkh(USER),
        lambda: p2sh_p2wpkh(USER),
        lambda: p2wsh_1of2(USER, SERVICE),
        lambda: p2tr_key(USER),
        lambda: p2tr_bidding(USER, SERVICE),
    ],
    ids=["P2WPKH", "P2SH-P2WPKH", "P2WSH", "P2TR key", "P2TR script"],
)
def test_unsigned_input_cannot_be_finalised(make: object) -> None:
    psbt = build_psbt([make()], [pay_to(5, 90_000)])  # type: ignore[operator]
    with pytest.raises(FinalizeError, match="input 0"):
        finalize_input(psbt, 0)
    with pytest.raises(FinalizeError, match="not finalised"):
        extract_transaction(psbt)


def test_finalising_clears_partial_fields_and_keeps_utxo() -> None:
    psbt = build_psbt([p2tr_bidding(USER, SERVICE)], [pay_to(5, 90_000)])
    sign_psbt(psbt, USER, requests_for([0], 0x01))
    finalize_psbt(psbt)
    inp = parse_psbt(psbt_to_base64(psbt)).inputs[0]
    assert inp.final_scriptwitness is not None and inp.witness_utxo is not None
    assert not inp.taproot_sigs and not inp.taproot_scripts and inp.taproot_internal_key is None


def test_finalise_only_selected_inputs_and_keep_final_ones() -> None:
    utxos = [p2wpkh(USER), p2tr_key(SERVICE)]
    psbt = build_psbt(utxos, [pay_to(5, 150_000)])
    sign_psbt(psbt, USER, requests_for([0], 0x01))
    finalize_psbt(psbt, [0])
    first = psbt.inputs[0].final_scriptwitness.serialize()
    sign_psbt(psbt, SERVICE, requests_for([1], 0x00))
    finalize_psbt(psbt)  # input 0 is already final and stays as it is
    assert psbt.inputs[0].final_scriptwitness.serialize() == first
    assert_accepted(extract_transaction(psbt), spent(utxos))
