"""BIP-341/342 sighash corners the wallet vectors do not cover: annex, code separator, errors.

Each signature is judged by Bitcoin Core's interpreter, with a hand-built witness.
"""

from __future__ import annotations

import pytest
from embit.script import Witness

from app.wallet.psbt_signer import SigningKey
from app.wallet.scripts import tapleaf_hash
from app.wallet.sighash import SighashError, TaprootSigContext, sighash_name, taproot_sighash
from tests.wallet.kernel import verify_inputs
from tests.wallet.psbt_builders import build_psbt, key_n, p2tr_key, p2tr_leaves, pay_to

ME = key_n(1)


def test_key_path_with_annex() -> None:
    utxo = p2tr_key(ME)
    tx = build_psbt([utxo], [pay_to(5, 90_000)]).tx
    annex = b"\x50" + b"bidwallet annex"
    ctx = TaprootSigContext(tx, [utxo.txout])
    signer = SigningKey(ME)
    good = signer.schnorr_sign(ctx.sighash(0, 0x00, annex=annex), tweak=b"")
    tx.vin[0].witness = Witness([good, annex])
    assert verify_inputs(tx, [utxo.txout]) == [True]
    no_annex = signer.schnorr_sign(ctx.sighash(0, 0x00), tweak=b"")
    tx.vin[0].witness = Witness([no_annex, annex])
    assert verify_inputs(tx, [utxo.txout]) == [False]


@pytest.mark.parametrize("sighash", [0x00, 0x01, 0x83])
def test_script_path_commits_to_the_last_code_separator(sighash: int) -> None:
    # OP_CODESEPARATOR <key> OP_CHECKSIG: the separator is opcode 0, so codesep_pos = 0.
    script = b"\xab\x20" + ME.xonly() + b"\xac"
    utxo = p2tr_leaves(key_n(9).xonly(), [script])
    psbt = build_psbt([utxo], [pay_to(5, 90_000)])
    tx = psbt.tx
    control_block = next(iter(psbt.inputs[0].taproot_scripts))
    ctx = TaprootSigContext(tx, [utxo.txout])
    leaf = tapleaf_hash(script)
    suffix = b"" if sighash == 0 else bytes([sighash])
    signer = SigningKey(ME)
    verdicts = []
    for pos in (0, 0xFFFFFFFF):
        sig = signer.schnorr_sign(ctx.sighash(0, sighash, leaf_hash=leaf, codesep_pos=pos), None)
        tx.vin[0].witness = Witness([sig + suffix, script, control_block])
        verdicts += verify_inputs(tx, [utxo.txout])
    assert verdicts == [True, False]


def test_sighash_errors() -> None:
    utxo = p2tr_key(ME)
    tx = build_psbt([utxo], [pay_to(5, 90_000)]).tx
    with pytest.raises(SighashError, match="all 1 spent outputs"):
        TaprootSigContext(tx, [])
    with pytest.raises(SighashError, match="invalid taproot hash type 0x04"):
        taproot_sighash(tx, 0, [utxo.txout], 0x04)
    with pytest.raises(SighashError, match="out of range"):
        taproot_sighash(tx, 1, [utxo.txout], 0x01)
    two_in = build_psbt([utxo, p2tr_key(ME)], [pay_to(5, 90_000)]).tx
    with pytest.raises(SighashError, match="no matching output"):
        taproot_sighash(two_in, 1, [utxo.txout, utxo.txout], 0x83)


def test_sighash_names() -> None:
    assert sighash_name(0x83) == "SINGLE|ANYONECANPAY"
    assert sighash_name(0x00) == "DEFAULT"
    assert sighash_name(0x01) == "ALL"
