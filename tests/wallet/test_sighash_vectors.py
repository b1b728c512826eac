"""Official sighash vectors: BIP-341 wallet vectors (key path + scriptPubKey) and BIP-143."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from embit import ec
from embit.psbt import PSBT
from embit.script import Script, Witness
from embit.transaction import Transaction, TransactionOutput

from app.wallet.finalize import extract_transaction, finalize_input
from app.wallet.psbt_fixes import FixedPSBT
from app.wallet.psbt_signer import SigningKey, SignRequest, sign_psbt
from app.wallet.scripts import (
    address_of,
    control_block_commits,
    tapbranch_hash,
    tapleaf_hash,
    tweak_xonly,
)
from app.wallet.sighash import TaprootSigContext, segwit_v0_sighash
from tests.wallet.kernel import assert_rejected, verify_inputs

VECTORS = Path(__file__).parent / "vectors"
BIP341 = json.loads((VECTORS / "psbt_bip341_wallet_vectors.json").read_text())
BIP143 = json.loads((VECTORS / "psbt_bip143_vectors.json").read_text())
KEY_PATH = BIP341["keyPathSpending"][0]
UTXOS = [
    TransactionOutput(u["amountSats"], Script(bytes.fromhex(u["scriptPubKey"])))
    for u in KEY_PATH["given"]["utxosSpent"]
]


def _unsigned_tx() -> Transaction:
    return Transaction.parse(bytes.fromhex(KEY_PATH["given"]["rawUnsignedTx"]))


@pytest.mark.parametrize(
    "case", KEY_PATH["inputSpending"], ids=lambda c: f"in{c['given']['txinIndex']}"
)
def test_bip341_key_path_sigmsg_and_sighash(case: dict[str, Any]) -> None:
    given, expected = case["given"], case["intermediary"]
    ctx = TaprootSigContext(_unsigned_tx(), UTXOS)
    msg = ctx.sigmsg(given["txinIndex"], given["hashType"])
    assert (b"\x00" + msg).hex() == expected["sigMsg"]  # the vectors include the epoch byte
    assert ctx.sighash(given["txinIndex"], given["hashType"]).hex() == expected["sigHash"]


@pytest.mark.parametrize(
    "case", KEY_PATH["inputSpending"], ids=lambda c: f"in{c['given']['txinIndex']}"
)
def test_bip341_key_path_signature_bytes(case: dict[str, Any]) -> None:
    given, inter = case["given"], case["intermediary"]
    signer = SigningKey(ec.PrivateKey(bytes.fromhex(given["internalPrivkey"])))
    merkle_root = bytes.fromhex(given["merkleRoot"]) if given["merkleRoot"] else None
    assert signer.xonly.hex() == inter["internalPubkey"]
    assert UTXOS[given["txinIndex"]].script_pubkey.data[2:] == signer.tweaked_xonly(merkle_root)
    msg = bytes.fromhex(inter["sigHash"])
    sig = signer.schnorr_sign(msg, tweak=merkle_root or b"", aux_rand=bytes(32))
    suffix = b"" if given["hashType"] == 0 else bytes([given["hashType"]])
    assert (sig + suffix).hex() == case["expected"]["witness"][0]


def test_bip341_vector_transaction_signed_by_our_signer_matches_and_core_accepts() -> None:
    """Sign the vector's tx through the PSBT signer (it has nSequence 0 inputs and 0x82/0x83)."""
    psbt = FixedPSBT(_unsigned_tx())
    for inp, utxo in zip(psbt.inputs, UTXOS, strict=True):
        inp.witness_utxo = utxo
    for case in KEY_PATH["inputSpending"]:
        given = case["given"]
        inp = psbt.inputs[given["txinIndex"]]
        inp.taproot_merkle_root = (
            bytes.fromhex(given["merkleRoot"]) if given["merkleRoot"] else None
        )
        key = ec.PrivateKey(bytes.fromhex(given["internalPrivkey"]))
        sign_psbt(psbt, key, [SignRequest(given["txinIndex"], given["hashType"])])
        finalize_input(psbt, given["txinIndex"])
    signed = Transaction.parse(bytes.fromhex(KEY_PATH["auxiliary"]["fullySignedTx"]))
    for legacy in (2, 5):  # the P2PKH and P2WPKH inputs are not part of the vector's key set
        psbt.inputs[legacy].final_scriptsig = signed.vin[legacy].script_sig
        psbt.inputs[legacy].final_scriptwitness = Witness(list(signed.vin[legacy].witness.items))
    ours = extract_transaction(psbt)
    assert ours.txid() == signed.txid()
    assert all(verify_inputs(ours, UTXOS))


def test_embit_taproot_sighash_is_wrong_for_anyonecanpay_and_ours_is_not() -> None:
    """Why sighash.py exists: embit 0.8.0 gets 0x83 wrong; FixedPSBT routes to ours."""
    case = KEY_PATH["inputSpending"][1]
    assert case["given"]["hashType"] == 0x83
    spks = [u.script_pubkey for u in UTXOS]
    values = [u.value for u in UTXOS]
    embit_psbt, fixed_psbt = PSBT(_unsigned_tx()), FixedPSBT(_unsigned_tx())
    expected = case["intermediary"]["sigHash"]
    assert embit_psbt.sighash_taproot(1, spks, values, 0x83).hex() != expected
    assert fixed_psbt.sighash_taproot(1, spks, values, 0x83).hex() == expected


def test_bip341_vector_fully_signed_tx_is_accepted_by_core() -> None:
    assert all(verify_inputs(KEY_PATH["auxiliary"]["fullySignedTx"], UTXOS))


def _tree_leaves(tree: Any) -> list[tuple[dict[str, Any], list[bytes]]]:
    """(leaf, merkle path) for every leaf of a BIP-341 vector script tree, and the tree hash."""
    return _walk(tree)[1]


def _walk(tree: Any) -> tuple[bytes, list[tuple[dict[str, Any], list[bytes]]]]:
    if isinstance(tree, dict):
        return tapleaf_hash(bytes.fromhex(tree["script"]), tree["leafVersion"]), [(tree, [])]
    left_hash, left = _walk(tree[0])
    right_hash, right = _walk(tree[1])
    leaves = [(leaf, [*path, right_hash]) for leaf, path in left]
    leaves += [(leaf, [*path, left_hash]) for leaf, path in right]
    return tapbranch_hash(left_hash, right_hash), leaves


@pytest.mark.parametrize(
    "case", BIP341["scriptPubKey"], ids=lambda c: c["expected"]["bip350Address"][:12]
)
def test_bip341_script_pubkey_vectors(case: dict[str, Any]) -> None:
    internal = bytes.fromhex(case["given"]["internalPubkey"])
    tree, expected = case["given"]["scriptTree"], case["expected"]
    merkle_root = _walk(tree)[0] if tree is not None else None
    assert (merkle_root.hex() if merkle_root else None) == case["intermediary"]["merkleRoot"]
    output_key, parity = tweak_xonly(internal, merkle_root)
    assert output_key.hex() == case["intermediary"]["tweakedPubkey"]
    spk = b"\x51\x20" + output_key
    assert spk.hex() == expected["scriptPubKey"]
    assert address_of(spk, "main") == expected["bip350Address"]
    if tree is None:
        return
    leaves = sorted(_tree_leaves(tree), key=lambda lp: lp[0]["id"])
    assert [
        tapleaf_hash(bytes.fromhex(leaf["script"]), leaf["leafVersion"]).hex() for leaf, _ in leaves
    ] == case["intermediary"]["leafHashes"]
    for (leaf, path), control_block_hex in zip(
        leaves, expected["scriptPathControlBlocks"], strict=True
    ):
        control_block = bytes.fromhex(control_block_hex)
        assert control_block == bytes([leaf["leafVersion"] | parity]) + internal + b"".join(path)
        script = bytes.fromhex(leaf["script"])
        assert control_block_commits(output_key, script, leaf["leafVersion"], control_block)
        assert not control_block_commits(
            output_key, script + b"\x51", leaf["leafVersion"], control_block
        )


@pytest.mark.parametrize("case", BIP143["sighashCases"], ids=lambda c: c["name"][:40])
def test_bip143_sighash_and_signature(case: dict[str, Any]) -> None:
    tx = Transaction.parse(bytes.fromhex(case["unsignedTx"]))
    script_code = Script.parse(bytes.fromhex(case["scriptCode"])).data
    digest = segwit_v0_sighash(
        tx, case["inputIndex"], script_code, case["amount"], case["hashType"]
    )
    assert digest.hex() == case["sigHash"]
    if case["privateKey"] is not None:
        # BIP-143's signatures are plain RFC 6979 (no low-R grinding).
        key = ec.PrivateKey(bytes.fromhex(case["privateKey"]))
        assert key.sign(digest, grind=False).serialize().hex() == case["signature"]


@pytest.mark.parametrize("case", BIP143["signedTransactions"], ids=lambda c: c["name"][:40])
def test_bip143_signed_transactions_accepted_and_wrong_amount_rejected(
    case: dict[str, Any],
) -> None:
    spent = [(bytes.fromhex(spk), amount) for spk, amount in case["spent"]]
    assert all(verify_inputs(case["tx"], spent))
    # The last input is segwit in every case: its sighash commits to its own amount.
    spk, amount = spent[-1]
    assert_rejected(case["tx"], [*spent[:-1], (spk, amount - 1)], len(spent) - 1)
