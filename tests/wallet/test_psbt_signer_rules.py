"""The signer signs exactly what it is asked to, or refuses with a specific error."""

from __future__ import annotations

import pytest
from embit.psbt import PSBT
from embit.script import Script
from embit.transaction import TransactionOutput

from app.wallet.finalize import extract_transaction, finalize_psbt
from app.wallet.psbt_io import parse_psbt, psbt_to_base64, psbt_to_bytes
from app.wallet.psbt_signer import (
    InputKind,
    InputNotOwnedError,
    InvalidSignRequestError,
    MissingUtxoError,
    SighashMismatchError,
    SignedInput,
    SigningKey,
    SignRequest,
    UnsupportedInputError,
    all_inputs_except,
    requests_for,
    sign_psbt,
)
from app.wallet.scripts import checksig_leaf, taproot_output
from tests.wallet.kernel import assert_accepted
from tests.wallet.psbt_builders import (
    Utxo,
    build_psbt,
    hash160,
    key_n,
    p2sh_p2wpkh,
    p2tr_bidding,
    p2tr_key,
    p2wpkh,
    p2wsh_1of2,
    pay_to,
    sign_all_and_extract,
    spent,
)

ME, OTHER, THIRD = key_n(1), key_n(2), key_n(3)


def _input_bytes(psbt: object) -> list[bytes]:
    return [inp.serialize() for inp in psbt.inputs]  # type: ignore[attr-defined]


def test_all_inputs_except_zero_with_sighash_all() -> None:
    utxos = [p2wpkh(OTHER), p2wpkh(ME), p2tr_key(ME), p2sh_p2wpkh(ME)]
    psbt = build_psbt(utxos, [pay_to(5, 300_000)])
    before = _input_bytes(psbt)
    done = sign_psbt(psbt, ME, all_inputs_except(psbt, [0], 0x01))
    assert [d.input_index for d in done] == [1, 2, 3]
    assert [d.kind for d in done] == [InputKind.P2WPKH, InputKind.P2TR_KEY, InputKind.P2SH_P2WPKH]
    assert _input_bytes(psbt)[0] == before[0]  # input 0 untouched
    sign_psbt(psbt, OTHER, requests_for([0], 0x01))
    finalize_psbt(psbt)
    assert_accepted(extract_transaction(psbt), spent(utxos))


def test_input_zero_only_with_all_anyonecanpay_leaves_others_untouched() -> None:
    utxos = [p2tr_key(ME), p2wpkh(ME), p2tr_key(ME)]
    psbt = build_psbt(utxos, [pay_to(5, 250_000)])
    before = _input_bytes(psbt)
    done = sign_psbt(psbt, ME, requests_for([0], 0x81))
    assert done == [SignedInput(0, InputKind.P2TR_KEY, 0x81, 1)]
    assert psbt.inputs[0].tap_key_sig is not None and psbt.inputs[0].tap_key_sig[-1] == 0x81
    assert _input_bytes(psbt)[1:] == before[1:]


def test_taproot_key_path_sig_goes_to_psbt_field_and_survives_round_trip() -> None:
    utxos = [p2tr_key(ME)]
    psbt = build_psbt(utxos, [pay_to(5, 90_000)])
    sign_psbt(psbt, ME, requests_for([0], 0x00))
    inp = psbt.inputs[0]
    assert inp.final_scriptwitness is None and len(inp.tap_key_sig) == 64
    assert b"\x01\x13" + bytes([64]) + inp.tap_key_sig in psbt_to_bytes(psbt)
    other_party = parse_psbt(psbt_to_base64(psbt))
    assert other_party.inputs[0].tap_key_sig == inp.tap_key_sig
    finalize_psbt(other_party)
    assert_accepted(extract_transaction(other_party), spent(utxos))


def test_script_path_sig_goes_to_tap_script_sig_field() -> None:
    utxos = [p2tr_bidding(ME, OTHER)]
    psbt = build_psbt(utxos, [pay_to(5, 90_000)])
    sign_psbt(psbt, ME, requests_for([0], 0x01))
    (pub, leaf), sig = next(iter(psbt.inputs[0].taproot_sigs.items()))
    assert pub.xonly() == ME.xonly() and len(leaf) == 32 and len(sig) == 65
    assert psbt.inputs[0].final_scriptwitness is None


@pytest.mark.parametrize(
    "utxo",
    [
        p2wpkh(OTHER),
        p2sh_p2wpkh(OTHER),
        p2wsh_1of2(OTHER, THIRD),
        p2tr_key(OTHER),
        p2tr_bidding(OTHER, THIRD),
    ],
    ids=["P2WPKH", "P2SH-P2WPKH", "P2WSH", "P2TR key", "P2TR script"],
)
def test_refuses_inputs_of_another_key(utxo: Utxo) -> None:
    psbt = build_psbt([utxo], [pay_to(5, 90_000)])
    before = psbt_to_bytes(psbt)
    with pytest.raises(InputNotOwnedError) as err:
        sign_psbt(psbt, ME, requests_for([0], 0x01))
    assert err.value.input_index == 0 and "input 0" in str(err.value)
    assert psbt_to_bytes(psbt) == before


def test_refuses_leaf_whose_control_block_does_not_commit_to_the_output() -> None:
    utxo = p2tr_bidding(ME, OTHER)
    forged = taproot_output(THIRD.xonly(), [checksig_leaf(ME.xonly())])
    psbt = build_psbt([utxo], [pay_to(5, 90_000)])
    leaf = forged.leaves[0]
    psbt.inputs[0].taproot_scripts = {leaf.control_block: leaf.script + b"\xc0"}
    with pytest.raises(InputNotOwnedError, match="control block"):
        sign_psbt(psbt, ME, requests_for([0], 0x01))


def test_refuses_missing_utxo_of_the_requested_input() -> None:
    psbt = build_psbt([p2wpkh(ME)], [pay_to(5, 90_000)])
    psbt.inputs[0].witness_utxo = None
    with pytest.raises(MissingUtxoError, match="input 0"):
        sign_psbt(psbt, ME, requests_for([0], 0x01))


def test_taproot_refuses_when_another_input_lacks_its_utxo() -> None:
    psbt = build_psbt([p2tr_key(ME), p2wpkh(OTHER)], [pay_to(5, 90_000)])
    psbt.inputs[1].witness_utxo = None
    before = psbt_to_bytes(psbt)
    with pytest.raises(MissingUtxoError, match="input 1 has none"):
        sign_psbt(psbt, ME, requests_for([0], 0x01))
    assert psbt_to_bytes(psbt) == before


def test_segwit_v0_does_not_need_other_inputs_utxos() -> None:
    utxos = [p2wpkh(ME), p2wpkh(OTHER)]
    psbt = build_psbt(utxos, [pay_to(5, 90_000)])
    psbt.inputs[1].witness_utxo = None
    assert sign_psbt(psbt, ME, requests_for([0], 0x01))[0].kind is InputKind.P2WPKH


def test_refuses_when_psbt_sighash_type_differs() -> None:
    psbt = build_psbt([p2tr_key(ME)], [pay_to(5, 90_000)])
    psbt.inputs[0].sighash_type = 0x83
    with pytest.raises(SighashMismatchError, match=r"ALL but .* SINGLE\|ANYONECANPAY"):
        sign_psbt(psbt, ME, requests_for([0], 0x01))
    assert sign_psbt(psbt, ME, requests_for([0], 0x83))[0].sighash == 0x83


def test_all_or_nothing_when_one_request_is_bad() -> None:
    psbt = build_psbt([p2wpkh(ME), p2wpkh(OTHER)], [pay_to(5, 90_000)])
    before = psbt_to_bytes(psbt)
    with pytest.raises(InputNotOwnedError, match="input 1"):
        sign_psbt(psbt, ME, requests_for([0, 1], 0x01))
    assert psbt_to_bytes(psbt) == before


@pytest.mark.parametrize(
    ("requests", "match"),
    [
        ([SignRequest(2, 1)], "no such input"),
        ([SignRequest(-1, 1)], "no such input"),
        ([SignRequest(0, 1), SignRequest(0, 1)], "more than once"),
        ([SignRequest(0, 0x00)], "not valid for a P2WPKH"),
        ([SignRequest(0, 0x04)], "not valid"),
        ([SignRequest(1, 0x03)], "no matching output"),
    ],
    ids=["out of range", "negative", "duplicate", "DEFAULT on v0", "unknown type", "SINGLE"],
)
def test_invalid_requests(requests: list[SignRequest], match: str) -> None:
    psbt = build_psbt([p2wpkh(ME), p2wpkh(ME)], [pay_to(5, 90_000)])
    with pytest.raises(InvalidSignRequestError, match=match):
        sign_psbt(psbt, ME, requests)


def test_refuses_already_finalised_input() -> None:
    psbt = build_psbt([p2wpkh(ME)], [pay_to(5, 90_000)])
    sign_psbt(psbt, ME, requests_for([0], 0x01))
    finalize_psbt(psbt)
    with pytest.raises(InvalidSignRequestError, match="already finalised"):
        sign_psbt(psbt, ME, requests_for([0], 0x01))


@pytest.mark.parametrize(
    "spk",
    [
        b"\x76\xa9\x14" + bytes(20) + b"\x88\xac",
        b"\x6a\x04abcd",
        b"\x52\x20" + bytes(32),
    ],
    ids=["P2PKH", "OP_RETURN", "segwit v2"],
)
def test_refuses_unsupported_output_types(spk: bytes) -> None:
    psbt = build_psbt([Utxo(spk, 50_000)], [pay_to(5, 40_000)])
    with pytest.raises(UnsupportedInputError, match="input 0"):
        sign_psbt(psbt, ME, requests_for([0], 0x01))


def test_refuses_p2sh_without_matching_redeem_script() -> None:
    utxo = p2sh_p2wpkh(ME)
    psbt = build_psbt([utxo], [pay_to(5, 90_000)])
    psbt.inputs[0].redeem_script = Script(b"\x00\x14" + hash160(OTHER.sec()))
    with pytest.raises(UnsupportedInputError, match="redeem script"):
        sign_psbt(psbt, ME, requests_for([0], 0x01))


def test_refuses_non_witness_utxo_that_does_not_match_the_outpoint() -> None:
    funding = build_psbt([p2wpkh(OTHER)], [(p2wpkh(ME).spk, 90_000)]).tx
    psbt = build_psbt([p2wpkh(ME)], [pay_to(5, 80_000)])
    psbt.inputs[0].witness_utxo = None
    psbt.inputs[0].non_witness_utxo = funding  # not the tx the input spends
    with pytest.raises(MissingUtxoError, match="non_witness_utxo"):
        sign_psbt(psbt, ME, requests_for([0], 0x01))


def test_accepts_matching_non_witness_utxo() -> None:
    funding = build_psbt([p2wpkh(OTHER)], [(p2wpkh(ME).spk, 90_000)]).tx
    psbt = build_psbt([p2wpkh(ME, 90_000)], [pay_to(5, 80_000)])
    psbt.inputs[0].witness_utxo = None
    psbt.inputs[0].non_witness_utxo = funding
    psbt.inputs[0].txid, psbt.inputs[0].vout = funding.txid(), 0
    sign_psbt(psbt, ME, requests_for([0], 0x01))
    finalize_psbt(psbt)
    assert_accepted(extract_transaction(psbt), [TransactionOutput(90_000, Script(p2wpkh(ME).spk))])


@pytest.mark.parametrize("version", [0, 1, 2])
def test_nsequence_zero_and_any_version_sign_what_core_verifies(version: int) -> None:
    """embit issue #146: its PSBT.tx turns nSequence 0 into 0xFFFFFFFF and version 0 into 2."""
    utxos = [p2wpkh(ME), p2tr_key(ME)]
    psbt = build_psbt(utxos, [pay_to(5, 90_000)], version=version, sequences=[0, 0])
    assert [i.sequence for i in PSBT.parse(psbt_to_bytes(psbt)).tx.vin] == [0xFFFFFFFF] * 2
    assert [i.sequence for i in psbt.tx.vin] == [0, 0] and psbt.tx.version == version
    raw = sign_all_and_extract(psbt, [(ME, requests_for([0, 1], 0x01))])
    assert_accepted(raw, spent(utxos))


def test_signing_key_repr_hides_the_secret() -> None:
    signer = SigningKey(ME)
    assert ME.secret.hex() not in repr(signer)
    assert ME.wif() not in repr(signer)
    assert ME.sec().hex() in repr(signer)
