"""From an embit PSBT to the neutral PsbtView: fields, lying UTXO data, signatures, networks,
and the hand-over of a verdict to the signer."""

from __future__ import annotations

import hashlib

import pytest
from embit.script import Script
from embit.transaction import TransactionOutput

from app.core.psbt_view import SEQUENCE_FINAL
from app.wallet.addresses import Network
from app.wallet.finalize import finalize_psbt
from app.wallet.psbt_fixes import FixedPSBT
from app.wallet.psbt_io import parse_psbt, psbt_to_base64
from app.wallet.psbt_reader import psbt_digest, unsigned_txid, view_of
from app.wallet.psbt_signer import SignRequest, sign_psbt
from app.wallet.scripts import bidding_p2wsh_1of2
from app.wallet.signing_gate import VerdictMismatchError, approved_sign_requests, guard
from tests.support.psbt_scenarios import (
    build_psbt,
    coin,
    hash160,
    inscription_bid,
    key,
    secure_listing,
    withdraw,
)


def test_fields_of_a_bid_psbt() -> None:
    s = inscription_bid()
    v = view_of(s.psbt, "regtest")
    assert (v.version, v.locktime, v.network) == (2, 0, "regtest")
    assert v.txid_unsigned == s.psbt.tx.txid().hex()
    assert v.digest == hashlib.sha256(s.psbt.serialize()).hexdigest()
    for got, c in zip(v.inputs, s.coins, strict=True):
        assert got.outpoint == c.outpoint and got.sequence == 0xFFFFFFFD
        assert got.value == c.txout.value and got.script_pubkey == c.txout.script_pubkey.data
        assert got.address is not None and got.address.startswith("bcrt1")
        assert got.has_witness_utxo and not got.utxo_problems and not got.final
    assert [i.has_non_witness_utxo for i in v.inputs] == [True, False, False]
    assert [i.non_witness_utxo_matches for i in v.inputs] == [True, None, None]
    assert v.inputs[0].tap_internal_key == s.parties.seller_ordinals.xonly()
    assert [o.value for o in v.outputs] == [546, 49_546, 1_000, 37_454]
    assert all(o.address and not o.is_op_return for o in v.outputs)


def test_op_return_and_unknown_scripts_have_no_address() -> None:
    s = withdraw()
    for spk in (b"\x6a\x04test", b"\x52\x52\x93"):
        s.psbt.outputs.append(type(s.psbt.outputs[0])(vout=TransactionOutput(0, Script(spk))))
    v = view_of(s.psbt, "regtest")
    assert [(o.address, o.is_op_return) for o in v.outputs[2:]] == [(None, True), (None, False)]


def test_sequence_zero_and_version_one_are_kept() -> None:
    """embit issue #146 turns nSequence 0 into 0xFFFFFFFF and would change the txid."""
    s = withdraw()
    s.psbt.inputs[0].sequence = 0
    s.psbt.tx_version = 1
    v = view_of(s.psbt, "regtest")
    assert v.inputs[0].sequence == 0 and v.version == 1
    assert v.txid_unsigned == unsigned_txid(s.psbt)
    s.psbt.inputs[1].sequence = None
    assert view_of(s.psbt, "regtest").inputs[1].sequence == SEQUENCE_FINAL


def test_a_lying_witness_utxo_loses_to_the_full_previous_transaction() -> None:
    s = inscription_bid()
    real = s.psbt.inputs[0].witness_utxo
    s.psbt.inputs[0].witness_utxo = TransactionOutput(real.value + 30_000, real.script_pubkey)
    [item, *_] = view_of(s.psbt, "regtest").inputs
    assert item.value == real.value  # the txid-authenticated amount
    assert item.non_witness_utxo_matches is False
    assert item.utxo_problems == (
        f"its witness_utxo says {real.value + 30_000:,} sats but the previous transaction says "
        f"{real.value:,} sats",
    )


def test_a_non_witness_utxo_of_another_transaction_is_flagged() -> None:
    s = inscription_bid()
    s.psbt.inputs[1].non_witness_utxo = s.coins[2].prev_tx
    got = view_of(s.psbt, "regtest").inputs[1]
    assert got.non_witness_utxo_matches is False and got.value == 60_000
    assert (
        "is transaction" in got.utxo_problems[0]
        and s.coins[1].outpoint[:64] in got.utxo_problems[0]
    )


def test_a_non_witness_utxo_without_the_spent_output_is_flagged() -> None:
    s = inscription_bid()
    prev = s.coins[0].prev_tx
    s.psbt.inputs[0].vout = 7  # the previous transaction has two outputs
    s.psbt.inputs[0].non_witness_utxo = prev
    got = view_of(s.psbt, "regtest").inputs[0]
    assert got.utxo_problems == ("its non_witness_utxo has no output 7",)


def test_missing_utxo_data_is_unknown_not_zero() -> None:
    s = inscription_bid()
    s.psbt.inputs[0].witness_utxo = None
    s.psbt.inputs[0].non_witness_utxo = None
    got = view_of(s.psbt, "regtest").inputs[0]
    assert (got.value, got.script_pubkey, got.address) == (None, None, None)
    assert not got.has_witness_utxo and got.non_witness_utxo_matches is None


def test_signatures_and_taproot_fields_are_described() -> None:
    w = withdraw()
    sign_psbt(w.psbt, w.signer, [SignRequest(0, 0x00)])
    got = view_of(w.psbt, "regtest").inputs[0]
    assert got.tap_script_sig_keys == (w.signer.xonly(),) and got.has_signatures
    assert len(got.tap_leaves) == 1 and got.tap_leaf_scripts[0].endswith(b"\x51\x9c")
    assert got.tap_leaves[0].leaf_version == 0xC0 and len(got.tap_leaves[0].control_block) == 33
    listing = secure_listing()
    sign_psbt(listing.psbt, listing.signer, [SignRequest(0, 0x81)])
    assert view_of(listing.psbt, "regtest").inputs[0].tap_key_sig
    bid = inscription_bid()
    sign_psbt(bid.psbt, bid.signer, [SignRequest(1, 0x01)])
    assert view_of(bid.psbt, "regtest").inputs[1].partial_sig_keys == (bid.signer.sec(),)
    finalize_psbt(bid.psbt, [1])
    final = view_of(bid.psbt, "regtest").inputs[1]
    assert final.final and final.final_witness is not None and len(final.final_witness) == 2


def test_witness_and_redeem_scripts_are_described() -> None:
    user, service = key(1), key(3)
    wallet = bidding_p2wsh_1of2(user.sec(), service.sec())
    redeem = b"\x00\x14" + hash160(user.sec())

    def fill_ws(inp: object) -> None:
        inp.witness_script = Script(wallet.witness_script)  # type: ignore[attr-defined]

    def fill_rs(inp: object) -> None:
        inp.redeem_script = Script(redeem)  # type: ignore[attr-defined]

    coins = [
        coin(wallet.script_pubkey, 20_000, fill_ws),
        coin(b"\xa9\x14" + hash160(redeem) + b"\x87", 30_000, fill_rs),
    ]
    v = view_of(build_psbt(coins, [(wallet.script_pubkey, 49_000)]), "regtest")
    assert v.inputs[0].witness_script == wallet.witness_script
    assert v.inputs[1].redeem_script == redeem and v.inputs[1].address.startswith("2")


@pytest.mark.parametrize(("network", "prefix"), [("main", "bc1"), (Network.TESTNET, "tb1")])
def test_addresses_are_encoded_for_the_network(network: str, prefix: str) -> None:
    v = view_of(withdraw().psbt, network)
    assert all(o.address and o.address.startswith(prefix) for o in v.outputs)
    assert v.network == Network(network).value


def test_unknown_network_is_an_error() -> None:
    with pytest.raises(ValueError):
        view_of(withdraw().psbt, "litecoin")


def test_a_parsed_psbt_gives_the_same_view() -> None:
    s = withdraw()
    again: FixedPSBT = parse_psbt(psbt_to_base64(s.psbt))
    assert view_of(again, "regtest") == view_of(s.psbt, "regtest")


def test_only_an_approved_verdict_for_this_very_psbt_gives_sign_requests() -> None:
    s = inscription_bid()
    verdict = s.verdict()
    assert approved_sign_requests(s.psbt, verdict) == [SignRequest(1, 0x01), SignRequest(2, 0x01)]
    s.psbt.inputs[2].sighash_type = 0x01  # same txid, different PSBT
    with pytest.raises(VerdictMismatchError, match="changed after review"):
        approved_sign_requests(s.psbt, verdict)
    s.psbt.inputs[2].sighash_type = 0x02
    refused = s.verdict()
    with pytest.raises(VerdictMismatchError, match="refused"):
        approved_sign_requests(s.psbt, refused)
    assert psbt_digest(s.psbt) == refused.psbt_digest


def test_guard_reviews_on_the_context_network_and_decides() -> None:
    s = withdraw()
    reviewed, verdict = guard(s.psbt, s.context, s.intent)
    assert reviewed.view.network == "regtest" and reviewed.fee == 2_000
    assert verdict == s.verdict() and verdict.approved
